extension Node {
  /// Tags the modifier added last, so that `dispatchPlainly` can hand it to the adapter module
  /// that added it.
  ///
  /// - Parameter tag: The tag, such as the object the modifier stands for.
  package func tagLastModifier(_ tag: AnyObject) {
    guard !_modifiers.isEmpty else { return }
    _modifiers[_modifiers.count - 1].tag = tag
    _keys.setTag(.passUnretained(tag), at: _modifiers.count - 1)
    // What `dispatchPlainly` cached about paths through this node may depend on the tag.
    Generation.advance()
  }

  /// A stamp that changes whenever any tree's structure or any node's modifiers change: while it
  /// holds, what `dispatchPlainly` found on a path still holds.
  package static var changeStamp: UInt64 { Generation.current }

  /// Does what dispatching an action of exactly type `actionType` from this node would do, without
  /// dispatching it, when every modifier that would see it was tagged by the caller's module.
  ///
  /// An adapter module whose own modifiers are the only ones on a path that could see its action
  /// type knows what a dispatch would do: run them in order until one handles it. This walks the
  /// path as the dispatcher would, collecting the tags of those modifiers, in dispatch order, into
  /// `tags`: tags of type `passType` (modifiers that let the action go on) until one of type
  /// `stopType` (the modifier that handles it). Then it calls `run` with the number of tags
  /// collected (the last being the `stopType` one) and the node of that last modifier, counted as
  /// a dispatch in the node's tree: the reentrancy limit holds, and nodes removed meanwhile stay
  /// alive until it returns.
  ///
  /// It returns `false`, without calling `run`, when the answer needs a real dispatch: the node is
  /// not in a rooted tree; the tree has a step observer or is at its reentrancy limit; a capture
  /// modifier, an untyped modifier, a modifier for a class or protocol, an untagged modifier or
  /// one with a tag of another type might see the action; no modifier handles it; or `tags` is
  /// too small.
  ///
  /// - Parameters:
  ///   - actionType: The action's type.
  ///   - passType: The type of the tags of modifiers that let the action go on.
  ///   - stopType: The type of the tags of modifiers that handle it.
  ///   - tags: Where the tags go, unretained: their modifiers keep them alive.
  ///   - run: What handling the action does.
  /// - Returns: Whether `run` ran.
  package func dispatchPlainly(
    _ actionType: any Action.Type, passing passType: AnyObject.Type, until stopType: AnyObject.Type,
    collecting tags: UnsafeMutableBufferPointer<Unmanaged<AnyObject>>,
    run: (_ count: Int, _ handler: Node) -> Void
  ) -> Bool {
    let identity = ObjectIdentifier(actionType)
    let pass = ObjectIdentifier(passType)
    let stop = ObjectIdentifier(stopType)
    let generation = Generation.current
    // NB: the cache is used unretained: the node's attachments keep it, and nothing changes them
    // before `run`.
    let cached = plainPathCache
    var hit: PlainPath?
    if let cached {
      hit = cached._withUnsafeGuaranteedRef { cache in
        guard cache.stamp == generation, cache.path.actionType == identity, cache.path.passType == pass,
          cache.path.stopType == stop, cache.tags.count <= tags.count
        else { return nil }
        for index in cache.tags.indices { tags[index] = cache.tags[index] }
        return cache.path
      }
    }
    let found: PlainPath
    if let hit {
      found = hit
    } else {
      guard let path = walkPlainly(identity, passing: pass, until: stop, collecting: tags, at: generation)
      else { return false }
      let cache = cached?.takeUnretainedValue() ?? addPlainPathCache(path)
      cache.stamp = generation
      cache.path = path
      cache.tags.removeAll(keepingCapacity: true)
      cache.tags.append(contentsOf: tags[..<path.count])
      found = path
    }
    guard let tree = found.top._withUnsafeGuaranteedRef({ $0.treeRootedHere }), tree.stepObserver == nil,
      tree.dispatchDepth < tree.reentrancyLimit
    else { return false }
    // `tree` (a strong reference) keeps the path alive while `run` runs, and pins nodes that
    // leave it meanwhile, the handler's included: so the handler may be passed unretained.
    tree.dispatchDepth += 1
    defer { tree.leaveDispatch() }
    found.handler._withUnsafeGuaranteedRef { run(found.count, $0) }
    return true
  }

  // The cache lives among the node's attachments, under its own type (no `NodeAttachmentKey` can
  // have that identity), rather than in a stored property that every node would pay for.

  /// What `dispatchPlainly` last found from this node, if anything.
  @inline(__always)
  private var plainPathCache: Unmanaged<PlainPathCache>? {
    attachedObject(for: ObjectIdentifier(PlainPathCache.self)).map {
      .passUnretained(unsafeDowncast($0, to: PlainPathCache.self))
    }
  }

  private func addPlainPathCache(_ path: PlainPath) -> PlainPathCache {
    let cache = PlainPathCache(path: path)
    attach(cache, for: ObjectIdentifier(PlainPathCache.self))
    return cache
  }

  /// The walk behind `dispatchPlainly`: the path it found, with its tags in `tags`, or `nil` when
  /// the action needs a real dispatch. Does not look at the tree.
  private func walkPlainly(
    _ identity: ObjectIdentifier, passing pass: ObjectIdentifier, until stop: ObjectIdentifier,
    collecting tags: UnsafeMutableBufferPointer<Unmanaged<AnyObject>>, at generation: UInt64
  ) -> PlainPath? {
    let mask = TypeFilter.bit(for: identity)
    var captureBits: UInt64 = 0
    var count = 0
    var handler: Unmanaged<Node>?
    var abandoned = false
    var current = Unmanaged.passUnretained(self)
    while true {
      // Reference-count free, like the dispatcher's walk: the caller's reference to this node
      // keeps the path alive, and nothing on it changes during the walk.
      let up = current._withUnsafeGuaranteedRef { node -> Unmanaged<Node>? in
        captureBits |= node.captureFilter
        guard handler == nil, node.bubbleFilter & mask != 0 else { return node._up }
        var position = node._keys.firstCandidate(from: 0, in: .bubble, for: identity, addedBy: generation)
        while position >= 0 {
          let key = node._keys.key(at: position)
          guard key.exactOnly, let tag = key.tag, count < tags.count else {
            abandoned = true
            return nil
          }
          let tagType = tag._withUnsafeGuaranteedRef { ObjectIdentifier(type(of: $0)) }
          tags[count] = tag
          count += 1
          if tagType == stop {
            handler = current
            break
          }
          guard tagType == pass else {
            abandoned = true
            return nil
          }
          position = node._keys.firstCandidate(
            from: position + 1, in: .bubble, for: identity, addedBy: generation)
        }
        return node._up
      }
      if abandoned { return nil }
      guard let up else { break }
      current = up
    }
    guard let handler, captureBits & mask == 0 else { return nil }
    return PlainPath(
      actionType: identity, passType: pass, stopType: stop, count: count, handler: handler, top: current)
  }
}

/// What `dispatchPlainly` found on a path: how many tags, the handler's node and the top-most node.
struct PlainPath {
  var actionType: ObjectIdentifier
  var passType: ObjectIdentifier
  var stopType: ObjectIdentifier
  var count: Int
  var handler: Unmanaged<Node>
  var top: Unmanaged<Node>
}

/// The last path `dispatchPlainly` found from a node, and its tags, while `stamp` is the
/// generation it was found at.
///
/// While the generation holds, nothing on the path changed: no node was added, removed or freed
/// with children (a node's deinit advances the generation), and no modifier was added, removed or
/// tagged. So the handler and the top-most node are still alive and on the path, and the tags'
/// modifiers, which keep them, are still there. Whether the top-most node is a tree's root, and
/// that tree's step observer and dispatch depth, are read again on every use.
final class PlainPathCache {
  // NB: `@exclusivity(unchecked)`: no access spans a call out.
  @exclusivity(unchecked) var stamp: UInt64 = 0
  @exclusivity(unchecked) var path: PlainPath
  @exclusivity(unchecked) var tags: ContiguousArray<Unmanaged<AnyObject>> = []

  init(path: PlainPath) {
    self.path = path
  }
}
