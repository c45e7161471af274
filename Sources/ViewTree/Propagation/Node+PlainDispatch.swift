/// What `Node.dispatchPlainly` does after showing a modifier to its caller.
package enum PlainVisit {
  /// Go on to the next modifier that would see the action.
  case next
  /// Stop: this modifier would handle the action.
  case stop
  /// Give up: the caller needs a real dispatch after all.
  case abandon
}

extension Node {
  /// Tags the modifier added last, so that `dispatchPlainly` can hand it to the adapter module
  /// that added it.
  ///
  /// - Parameter tag: The tag, such as the object the modifier stands for.
  package func tagLastModifier(_ tag: AnyObject) {
    guard !_modifiers.isEmpty else { return }
    _modifiers[_modifiers.count - 1].tag = tag
    _keys.setTag(.passUnretained(tag), at: _modifiers.count - 1)
  }

  /// A stamp that changes whenever any tree's structure or any node's modifiers change: while it
  /// holds, what `dispatchPlainly` found on a path still holds.
  package static var changeStamp: UInt64 { Generation.current }

  /// Does what dispatching an action of exactly type `actionType` from this node would do, without
  /// dispatching it, when every modifier that would see it was tagged by the caller's module.
  ///
  /// An adapter module whose own modifiers are the only ones on a path that could see its action
  /// type knows what a dispatch would do: run them in order until one handles it. This walks the
  /// path as the dispatcher would and calls `visit` with each such modifier's node and tag, in
  /// dispatch order, until `visit` answers `.stop` (the modifier that would handle the action);
  /// then calls `run`, counted as a dispatch in the node's tree (the reentrancy limit holds, and
  /// nodes removed meanwhile stay alive until it returns).
  ///
  /// It returns `false`, without calling `run`, when the answer needs a real dispatch: the node is
  /// not in a rooted tree; the tree has a step observer or is at its reentrancy limit; a capture
  /// modifier, an untyped modifier, a modifier for a class or protocol, or an untagged modifier
  /// might see the action; no modifier handles it; or `visit` answered `.abandon`. `visit` may
  /// have been called by then: the caller drops what it gathered.
  ///
  /// - Parameters:
  ///   - actionType: The action's type.
  ///   - visit: Called with each modifier's node and tag (unretained: the modifier keeps it).
  ///   - run: What handling the action does.
  /// - Returns: Whether `run` ran.
  package func dispatchPlainly(
    _ actionType: any Action.Type, visit: (Node, Unmanaged<AnyObject>) -> PlainVisit, run: () -> Void
  ) -> Bool {
    let identity = ObjectIdentifier(actionType)
    let mask = TypeFilter.bit(for: identity)
    let generation = Generation.current
    var captureBits: UInt64 = 0
    var stopped = false
    var abandoned = false
    var current = Unmanaged.passUnretained(self)
    while true {
      // Reference-count free, like the dispatcher's walk: the caller's reference to this node
      // keeps the path alive, and nothing on it changes during the walk.
      let up = current._withUnsafeGuaranteedRef { node -> Unmanaged<Node>? in
        captureBits |= node.captureFilter
        guard !stopped, node.bubbleFilter & mask != 0 else { return node._up }
        var position = node._keys.firstCandidate(from: 0, in: .bubble, for: identity, addedBy: generation)
        while position >= 0 {
          let key = node._keys.key(at: position)
          guard key.exactOnly, let tag = key.tag else {
            abandoned = true
            return nil
          }
          switch visit(node, tag) {
          case .next: break
          case .stop: stopped = true
          case .abandon: abandoned = true
          }
          if stopped || abandoned { break }
          position = node._keys.firstCandidate(
            from: position + 1, in: .bubble, for: identity, addedBy: generation)
        }
        return node._up
      }
      if abandoned { return false }
      guard let up else { break }
      current = up
    }
    guard stopped, captureBits & mask == 0 else { return false }
    let top = current.takeUnretainedValue()
    guard let tree = top._tree, tree.root === top, tree.stepObserver == nil,
      tree.dispatchDepth < tree.reentrancyLimit
    else { return false }
    tree.dispatchDepth += 1
    defer {
      tree.dispatchDepth -= 1
      if tree.dispatchDepth == 0, !tree.pinned.isEmpty { tree.releasePinned() }
    }
    run()
    return true
  }
}
