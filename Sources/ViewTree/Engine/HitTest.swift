// Hit testing: the walk from the root down to the nodes under a point.
//
// Safety: the walk reads children and their traits unretained. It calls no user code: `body` is
// the hit-testing functions' own (they note a node and say whether to go on), so nothing changes
// the tree while it walks, and each node it holds is kept alive by its parent's children list
// (invariant 11 of `INVARIANTS.md`).

/// One node the hit-testing walk is inside: the children it has tried, and what the node does
/// with a hit itself once none of them took it.
struct HitFrame {
  let node: Unmanaged<Node>
  /// The children when the node was entered.
  let count: Int
  /// Where the node's children, sorted by `zIndex`, start in `HitScratch.order`; -1 for the
  /// natural order, the latest child first.
  let orderStart: Int
  /// Whether the node takes a hit itself (it has a frame, and does not defer to its children).
  let takes: Bool
  /// Whether a hit it takes hides what is below it.
  let opaque: Bool
  /// The position, in the node's visit order, of the next child to try.
  var next = 0
}

/// The stacks the hit-testing walk works in, kept by the tree so that a hit test allocates
/// nothing once the tree has been hit-tested at its depth.
struct HitScratch {
  var frames: ContiguousArray<HitFrame> = []
  /// The children of the nodes on `frames` that sort them, `(zIndex, index)`, each node's top
  /// first.
  var order: ContiguousArray<(zIndex: Int, index: Int)> = []
}

extension TreeState {
  /// Calls `body` with each node that takes a hit at `location`, top first, until it returns
  /// `false` or a node hides what is below it (see ``HitBehavior``).
  ///
  /// `body` must not change the tree or call user code (invariant 11).
  func forEachHit(at location: PointerLocation, _ body: (Node) -> Bool) {
    // Taken out while the walk runs, so that the walk owns it whatever happens.
    var scratch = HitScratch()
    swap(&scratch, &hitScratch)
    defer {
      scratch.frames.removeAll(keepingCapacity: true)
      scratch.order.removeAll(keepingCapacity: true)
      swap(&scratch, &hitScratch)
    }
    guard Self.enter(.passUnretained(root), at: location, into: &scratch) else { return }
    while let last = scratch.frames.indices.last {
      let frame = scratch.frames[last]
      if frame.next < frame.count {
        scratch.frames[last].next = frame.next + 1
        let index =
          frame.orderStart < 0
          ? frame.count - 1 - frame.next : scratch.order[frame.orderStart + frame.next].index
        let child = frame.node._withUnsafeGuaranteedRef { $0.unretainedChild(at: index) }
        // `nil` when user code the walk cannot run shrank the list (it never does): nothing to try.
        if let child { _ = Self.enter(child, at: location, into: &scratch) }
        continue
      }
      // None of the children took the hit in a way that hides the node.
      scratch.frames.removeLast()
      if frame.orderStart >= 0 { scratch.order.removeSubrange(frame.orderStart...) }
      guard frame.takes else { continue }
      if !frame.node._withUnsafeGuaranteedRef(body) || frame.opaque { return }
    }
  }

  /// Pushes `node` onto the walk if the point may hit it or one of its descendants: it is
  /// active, and its frame contains the point, or it has no frame and has children.
  private static func enter(
    _ node: Unmanaged<Node>, at location: PointerLocation, into scratch: inout HitScratch
  ) -> Bool {
    node._withUnsafeGuaranteedRef { node in
      let count = node._childSlots.count - (node._extras?.childHead ?? 0)
      let traits = node.hasAttachments ? node.inputTraits : nil
      let takes: Bool
      if let frame = traits?.frame {
        guard frame.contains(location) else { return false }
        takes = traits?.hitBehavior != .deferToChild
      } else {
        guard count > 0 else { return false }
        takes = false
      }
      var orderStart = -1
      if count > 1, node._extras?.sortsChildrenByZIndex == true {
        orderStart = scratch.order.count
        for index in 0..<count {
          let zIndex = node.unretainedChild(at: index).map { $0._withUnsafeGuaranteedRef { $0.zIndex } } ?? 0
          scratch.order.append((zIndex, index))
        }
        // The top first: the highest `zIndex`, and among equal ones the latest child.
        scratch.order[orderStart...].sort {
          $0.zIndex != $1.zIndex ? $0.zIndex > $1.zIndex : $0.index > $1.index
        }
      }
      scratch.frames.append(
        HitFrame(
          node: .passUnretained(node), count: count, orderStart: orderStart, takes: takes,
          opaque: traits?.hitBehavior == .opaque))
      return true
    }
  }
}

extension Node {
  /// The child at `index`, unretained (its parent's list holds it), or `nil` past the end.
  func unretainedChild(at index: Int) -> Unmanaged<Node>? {
    let position = (_extras?.childHead ?? 0) + index
    guard position < _childSlots.count else { return nil }
    return _childSlots.withUnsafeBufferPointer { slots in
      // A slot holds a strong reference or nil; read as an `Unmanaged`, it is not retained.
      UnsafeRawPointer(slots.baseAddress!).load(
        fromByteOffset: position * MemoryLayout<Node?>.stride, as: Unmanaged<Node>?.self)
    }
  }

  /// The `zIndex` this node declares, 0 when it declares none.
  var zIndex: Int { hasAttachments ? inputTraits?.zIndex ?? 0 : 0 }

  /// Notes on `parent` that a child declares a `zIndex`, so that hit testing sorts its children:
  /// for good, as a parent that has sorted once may again.
  func noteZIndex(to parent: Node?) {
    guard let parent, zIndex != 0 else { return }
    parent.extras.sortsChildrenByZIndex = true
  }
}
