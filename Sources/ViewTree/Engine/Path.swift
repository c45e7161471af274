/// One node of a dispatch's path, and the serial its next modifier would have had when the
/// dispatch started: modifiers at or above it were added during the dispatch and do not run.
struct PathEntry {
  let node: Unmanaged<Node>
  let limit: UInt64
}

extension Dispatcher {
  /// Calls `body` with the path from `target` to the top-most node, the position on it of the
  /// first node whose bubble filter admits `actionType` (-1 if none), and whether any capture
  /// filter on it does.
  @inline(__always)
  static func withPath<R, E: Error>(
    from target: Node, type actionType: ObjectIdentifier,
    _ body: (UnsafeBufferPointer<PathEntry>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    let mask = TypeFilter.bit(for: actionType)
    return try withUnsafeTemporaryAllocation(of: PathEntry.self, capacity: inlinePathCapacity) {
      inline throws(E) in
      // One walk records the path with each node's serial limit, notes the first node whose
      // bubble filter admits the action and whether any capture filter does. No handler runs
      // during the walk, so nothing can change under it.
      var node = Unmanaged.passUnretained(target)
      var depth = 0
      var firstBubble = -1
      var captureBits: UInt64 = 0
      while true {
        if depth == inlinePathCapacity {
          return try withDeepPath(
            continuing: UnsafeBufferPointer(inline), from: node, firstBubble: firstBubble,
            captureBits: captureBits,
            mask: mask, body)
        }
        let (up, bubble, capture, limit) = node._withUnsafeGuaranteedRef {
          ($0._up, $0.bubbleFilter, $0.captureFilter, $0.nextSerial)
        }
        inline.initializeElement(at: depth, to: PathEntry(node: node, limit: limit))
        if firstBubble < 0, bubble & mask != 0 { firstBubble = depth }
        captureBits |= capture
        depth += 1
        guard let up else { break }
        node = up
      }
      return try body(
        UnsafeBufferPointer(start: inline.baseAddress, count: depth), firstBubble, captureBits & mask != 0)
    }
  }

  /// The same for a path longer than the inline buffer, whose first entries `inline` holds and
  /// which goes on at `next`: held on the heap, in a buffer the tree lends and takes back, so that
  /// a tree that has dispatched once from that depth allocates no path again. The walks read
  /// parents unretained, as the inline one does.
  @inline(never)
  static func withDeepPath<R, E: Error>(
    continuing inline: UnsafeBufferPointer<PathEntry>, from next: Unmanaged<Node>, firstBubble: Int,
    captureBits: UInt64, mask: UInt64,
    _ body: (UnsafeBufferPointer<PathEntry>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    // A first walk finds the depth and the top, whose tree (if any) lends the buffer. The tree's
    // state outlives the dispatch's use of the buffer: the dispatch holds the root, which owns it,
    // until after this function returns (see `HeldTree`).
    var top = next
    var depth = inline.count + 1
    while let up = top._withUnsafeGuaranteedRef({ $0._up }) {
      top = up
      depth += 1
    }
    let state = top._withUnsafeGuaranteedRef { $0._state.map(Unmanaged.passUnretained) }
    let buffer =
      state?._withUnsafeGuaranteedRef { $0.takeSpareDeepPath(capacity: depth) }
      ?? .allocate(capacity: depth)
    defer {
      if let state {
        state._withUnsafeGuaranteedRef { $0.keepSpareDeepPath(buffer) }
      } else {
        buffer.deallocate()
      }
    }
    // `PathEntry` is trivial: entries are written over whatever an earlier path left.
    var count = 0
    for entry in inline {
      buffer.initializeElement(at: count, to: entry)
      count += 1
    }
    var firstBubble = firstBubble
    var captureBits = captureBits
    var node: Unmanaged<Node>? = next
    while let current = node {
      let (up, bubble, capture, limit) = current._withUnsafeGuaranteedRef {
        ($0._up, $0.bubbleFilter, $0.captureFilter, $0.nextSerial)
      }
      if firstBubble < 0, bubble & mask != 0 { firstBubble = count }
      captureBits |= capture
      buffer.initializeElement(at: count, to: PathEntry(node: current, limit: limit))
      count += 1
      node = up
    }
    return try body(UnsafeBufferPointer(rebasing: buffer[..<count]), firstBubble, captureBits & mask != 0)
  }

  /// The path from `target` up, on the heap, with the first node whose bubble filter admits
  /// `actionType` and whether any capture filter does.
  static func heapPath(from target: Node, type actionType: ObjectIdentifier) -> (
    path: ContiguousArray<PathEntry>, firstBubble: Int, capture: Bool
  ) {
    let mask = TypeFilter.bit(for: actionType)
    var path = ContiguousArray<PathEntry>()
    var firstBubble = -1
    var captureBits: UInt64 = 0
    var current: Node? = target
    while let node = current {
      if firstBubble < 0, node.bubbleFilter & mask != 0 { firstBubble = path.count }
      captureBits |= node.captureFilter
      path.append(PathEntry(node: .passUnretained(node), limit: node.nextSerial))
      current = node._parent
    }
    return (path, firstBubble, captureBits & mask != 0)
  }

  /// The top-most node of `path` and the tree it is the root of, if any (unretained: a node's
  /// tree state, once set, is never replaced, and the node owns it).
  @inline(__always)
  static func top(of path: UnsafeBufferPointer<PathEntry>) -> (Unmanaged<Node>, Unmanaged<TreeState>?) {
    // `path` is never empty: it holds at least the target.
    let top = path[path.count - 1].node
    return (top, top._withUnsafeGuaranteedRef { $0._state.map(Unmanaged.passUnretained) })
  }
}
