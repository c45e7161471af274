// Hit testing: the walk from the root down to the nodes under a point.
//
// Safety (invariant 12 of `INVARIANTS.md`): the walk reads nodes, their children's slots and
// their geometry unretained. It calls no user code: `body` is the hit-testing functions' own (it
// notes a node and says whether to go on), so nothing changes the tree while it walks. Each node
// it holds is kept alive by its parent's children list, and each list's storage, whose address a
// frame keeps, is neither replaced nor freed until the walk ends.

/// One node the hit-testing walk is inside: its children, and the next one to try.
struct HitFrame {
  let node: Unmanaged<Node>
  /// The node's first child's slot (`nil` when it has none); the slots hold strong references,
  /// read here as unretained.
  let children: UnsafePointer<Unmanaged<Node>>?
  let count: Int32
  /// The position, in the node's visit order, of the next child to try.
  var next: Int32 = 0
  /// Where the node's children, sorted by `zIndex`, start in `TreeState.hitOrder`; -1 for the
  /// natural order, the latest child first.
  let orderStart: Int32
}

extension TreeState {
  /// Calls `body` with each node that takes a hit at `location`, top first, until it returns
  /// `false` or a node hides what is below it (see ``HitBehavior``).
  ///
  /// With `subtree`, a node of the tree, only its subtree takes hits, clipped by its ancestors'
  /// frames as by its own: the rest of the tree is as if absent (a modal scope's outside).
  ///
  /// `body` must not change the tree or call user code (invariant 12).
  func forEachHit(at location: PointerLocation, within subtree: Node? = nil, _ body: (Node) -> Bool) {
    if let subtree {
      var ancestor = subtree.activeParent
      while let node = ancestor {
        if let frame = node._extras?.pointer.geometry.frame, !frame.contains(location) { return }
        ancestor = node.activeParent
      }
    }
    let root = Unmanaged.passUnretained(subtree ?? root)
    guard !Self.rejects(root, location) else { return }
    // The node the walk is in is kept in `current`; the stack holds the nodes above it, each
    // with the next child to try when the walk comes back to it.
    var stack = _hitStack
    var depth = 0
    defer {
      _hitStack = stack
      // A walk that ended early leaves the orders of the nodes it was inside.
      if !_hitOrder.isEmpty { _hitOrder.removeAll(keepingCapacity: true) }
    }
    var current = frame(entering: root)
    while true {
      if current.next < current.count {
        // The children the point is outside of are passed over here, with no push.
        // (`next` < `count`, both positive: no overflow; `children` is set as `count` > 0.)
        let children = current.children.unsafelyUnwrapped
        let count = current.count
        var next = current.next
        var entered: Unmanaged<Node>?
        if current.orderStart < 0 {
          // The latest child first.
          while next < count {
            let child = children[Int(count &- 1 &- next)]
            next &+= 1
            if !Self.rejects(child, location) {
              entered = child
              break
            }
          }
        } else {
          while next < count {
            let child = children[_hitOrder[Int(current.orderStart &+ next)].index]
            next &+= 1
            if !Self.rejects(child, location) {
              entered = child
              break
            }
          }
        }
        current.next = next
        if let entered {
          if depth == stack.count { stack = Self.grow(stack) }
          stack.initializeElement(at: depth, to: current)
          depth &+= 1
          current = frame(entering: entered)
          continue
        }
      }
      // None of the children took the hit in a way that hides the node: the node itself may.
      if current.orderStart >= 0 { _hitOrder.removeSubrange(Int(current.orderStart)...) }
      let node = current.node
      let (hasFrame, behavior) = node._withUnsafeGuaranteedRef {
        ($0._extras?.pointer.geometry.frame != nil, $0._extras?.pointer.geometry.hitBehavior)
      }
      if hasFrame, let behavior, behavior != .deferToChild {
        if !node._withUnsafeGuaranteedRef(body) || behavior == .opaque { return }
      }
      guard depth > 0 else { return }
      depth &-= 1
      current = stack[depth]
    }
  }

  /// Whether the point can hit neither `node` nor a node below it: it is outside the node's
  /// frame, the node has no frame and no children, or it is inactive (see `Node.isActive`).
  @inline(__always)
  private static func rejects(_ node: Unmanaged<Node>, _ location: PointerLocation) -> Bool {
    node._withUnsafeGuaranteedRef { node in
      guard let extras = node._extras else { return node._childSlots.isEmpty }
      guard let frame = extras.pointer.geometry.frame else {
        return node._childSlots.count == extras.childHead || extras._isInactive
      }
      // `NodeFrame.contains`, with the edges the extras keep.
      return
        !(location.x >= frame.x && location.x < extras.pointer.right && location.y >= frame.y
        && location.y < extras.pointer.bottom) || extras._isInactive
    }
  }

  /// The frame of `node`, which the point may hit, as the walk enters it: its children, sorted
  /// when they declare a `zIndex`.
  @inline(__always)
  private func frame(entering node: Unmanaged<Node>) -> HitFrame {
    let (count, children, sorts) = node._withUnsafeGuaranteedRef { node in
      let head = node._extras?.childHead ?? 0
      let children = node._childSlots.withUnsafeBufferPointer { slots in
        // A list's storage holds `Node?` references, laid out as `Unmanaged<Node>` ones; from
        // `head` on, none is `nil`.
        slots.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: Unmanaged<Node>.self) + head }
      }
      return (node._childSlots.count - head, children, node._extras?.pointer.sortsChildrenByZIndex ?? false)
    }
    var orderStart: Int32 = -1
    if sorts, count > 1 {
      orderStart = Int32(_hitOrder.count)
      for index in 0..<count {
        let zIndex = children.unsafelyUnwrapped[index]._withUnsafeGuaranteedRef {
          $0._extras?.pointer.geometry.zIndex ?? 0
        }
        _hitOrder.append((zIndex, index))
      }
      // The top first: the highest `zIndex`, and among equal ones the latest child.
      _hitOrder[Int(orderStart)...].sort {
        $0.zIndex != $1.zIndex ? $0.zIndex > $1.zIndex : $0.index > $1.index
      }
    }
    return HitFrame(node: node, children: children, count: Int32(count), orderStart: orderStart)
  }

  /// `stack`, full, moved into one twice its size (32 frames for the first), which the tree
  /// keeps from then on; `stack` is freed.
  private static func grow(_ stack: UnsafeMutableBufferPointer<HitFrame>) -> UnsafeMutableBufferPointer<
    HitFrame
  > {
    let grown = UnsafeMutableBufferPointer<HitFrame>.allocate(capacity: max(32, 2 * stack.count))
    if let base = stack.baseAddress {
      _ = grown.moveInitialize(fromContentsOf: stack)
      base.deallocate()
    }
    return grown
  }
}

extension Node {
  /// The type filters of this node and of each of its ancestors (bubble and capture together):
  /// what `Dispatcher.mayRun` asks about, for the price of two loads a node and no path.
  ///
  /// Reads the nodes unretained, and calls no code (invariant 12).
  func filtersToTop() -> UInt64 {
    var filter: UInt64 = 0
    var node: Unmanaged<Node>? = .passUnretained(self)
    while let current = node {
      node = current._withUnsafeGuaranteedRef { node in
        filter |= node._bubbleFilter | node._captureFilter
        return node._up
      }
    }
    return filter
  }

  /// Sets the hover flag of this node and of each ancestor below `shared` (which is one of them,
  /// or `nil` for all), nearest first, and passes `notify` each of them that has a modifier that
  /// might take an action of type `A`: the only ones a hover change needs to tell. Returns the
  /// type filters of the nodes it passed (bubble and capture together).
  ///
  /// The nodes it passes over are not retained; `notify` must not change the tree or call user
  /// code (invariant 12): it lists the nodes to tell, which retains them.
  @discardableResult
  func setHover<A: Action>(
    _ hovered: Bool, below shared: Node?, notifying type: A.Type, _ notify: (Node) -> Void
  )
    -> UInt64
  {
    let actionType = ObjectIdentifier(A.self)
    let mask = TypeFilter.bit(for: actionType)
    let stop = shared.map { Unmanaged.passUnretained($0).toOpaque() }
    var filter: UInt64 = 0
    var node: Unmanaged<Node>? = .passUnretained(self)
    while let current = node, current.toOpaque() != stop {
      node = current._withUnsafeGuaranteedRef { node in
        // Through `_extras` where the node has them: `extras` hands back a reference it retains.
        if let extras = node._extras {
          extras.pointer.isHovered = hovered
        } else {
          node.extras.pointer.isHovered = hovered
        }
        filter |= node._bubbleFilter | node._captureFilter
        if node._bubbleFilter & mask != 0, node._store.mayRun(in: .bubble, for: actionType) { notify(node) }
        return node._up
      }
    }
    return filter
  }
}

/// What one descent from the root toward a point found (see `TreeState.descend(to:)`).
struct HitDescent {
  /// The node the descent ended at, if the point hits the root at all.
  var target: Unmanaged<Node>?
  /// Whether `target` is the node the full walk (`forEachHit`) gives first: the descent took no
  /// turn the full walk might have come back from.
  var isExact = true
  /// The deepest node on the path from the root to `target` that is flagged hovered with every
  /// node above it: what the hover path and the new path share.
  var hovered: Unmanaged<Node>?
  /// The type filters of every node from the root to `target` (bubble and capture together), and
  /// of those from the root to `hovered`.
  var pathFilter: UInt64 = 0
  var hoveredFilter: UInt64 = 0
}

extension TreeState {
  /// Walks from the root toward `location` without coming back: into the top-most child that
  /// the point may hit, at each level. When it ends at an opaque node with a frame, having sorted
  /// no children on the way, that node is the one the full walk would give first; the descent
  /// notes on the way what the hover path shares with it and the type filters of the path.
  ///
  /// Calls no user code (invariant 12).
  func descend(to location: PointerLocation) -> HitDescent {
    var descent = HitDescent()
    var node = Unmanaged.passUnretained(root)
    guard !Self.rejects(node, location) else { return descent }
    var sharesHover = true
    while true {
      let (filter, hovered, sorts, count, children) = node._withUnsafeGuaranteedRef { node in
        let extras = node._extras
        let head = extras?.childHead ?? 0
        let children = node._childSlots.withUnsafeBufferPointer { slots in
          slots.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: Unmanaged<Node>.self) + head }
        }
        return (
          node._bubbleFilter | node._captureFilter, extras?.pointer.isHovered ?? false,
          extras?.pointer.sortsChildrenByZIndex ?? false,
          node._childSlots.count &- head, children
        )
      }
      descent.pathFilter |= filter
      if sharesHover {
        if hovered {
          descent.hovered = node
          descent.hoveredFilter = descent.pathFilter
        } else {
          sharesHover = false
        }
      }
      if sorts, count > 1 {
        descent.isExact = false
        descent.target = node
        return descent
      }
      var next = count
      var entered: Unmanaged<Node>?
      while next > 0 {
        next &-= 1
        let child = children.unsafelyUnwrapped[next]
        if !Self.rejects(child, location) {
          entered = child
          break
        }
      }
      if let entered {
        node = entered
        continue
      }
      descent.target = node
      descent.isExact = node._withUnsafeGuaranteedRef {
        $0._extras.map { $0.pointer.geometry.frame != nil && $0.pointer.geometry.hitBehavior == .opaque }
          ?? false
      }
      return descent
    }
  }
}
