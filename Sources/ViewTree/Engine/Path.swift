/// One node of a dispatch's path, and the serial its next modifier would have had when the
/// dispatch started: modifiers at or above it were added during the dispatch and do not run.
struct PathEntry {
  let node: Unmanaged<Node>
  let limit: UInt64
}

/// What a walk up the tree notes besides the path: the position of the first node whose bubble
/// filter admits the action (-1 if none), and whether any capture filter does.
struct PathSummary {
  let mask: UInt64
  var firstBubble = -1
  var captureBits: UInt64 = 0

  init(type actionType: ObjectIdentifier) { mask = TypeFilter.bit(for: actionType) }

  var capture: Bool { captureBits & mask != 0 }
}

extension Dispatcher {
  /// The one walk every path is built by: records the nodes from `start` up into `buffer`, from
  /// position `count`, with each node's serial limit, until the buffer is full or the walk has
  /// passed the top-most node; returns the node it stopped at (`nil` at the top).
  ///
  /// No handler runs during the walk, so nothing can change under it; it reads parents
  /// unretained (invariant 1 of `INVARIANTS.md`).
  @inline(__always)
  static func walk(
    from start: Unmanaged<Node>, into buffer: UnsafeMutableBufferPointer<PathEntry>, count: inout Int,
    summary: inout PathSummary
  ) -> Unmanaged<Node>? {
    var node = start
    while count < buffer.count {
      let (up, bubble, capture, limit) = node._withUnsafeGuaranteedRef {
        ($0._up, $0.bubbleFilter, $0.captureFilter, $0.nextSerial)
      }
      buffer.initializeElement(at: count, to: PathEntry(node: node, limit: limit))
      if summary.firstBubble < 0, bubble & summary.mask != 0 { summary.firstBubble = count }
      summary.captureBits |= capture
      count += 1
      guard let up else { return nil }
      node = up
    }
    return node
  }

  /// The top-most node above `node` (the node itself when it has no parent), and the number of
  /// nodes from `node` to it, both included.
  static func top(above node: Unmanaged<Node>) -> (top: Unmanaged<Node>, depth: Int) {
    var top = node
    var depth = 1
    while let up = top._withUnsafeGuaranteedRef({ $0._up }) {
      top = up
      depth += 1
    }
    return (top, depth)
  }

  /// Calls `body` with the path from `target` to the top-most node, the position on it of the
  /// first node whose bubble filter admits `actionType` (-1 if none), and whether any capture
  /// filter on it does.
  @inline(__always)
  static func withPath<R, E: Error>(
    from target: Node, type actionType: ObjectIdentifier,
    _ body: (UnsafeBufferPointer<PathEntry>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    try withUnsafeTemporaryAllocation(of: PathEntry.self, capacity: inlinePathCapacity) { inline throws(E) in
      var summary = PathSummary(type: actionType)
      var count = 0
      if let next = walk(from: .passUnretained(target), into: inline, count: &count, summary: &summary) {
        return try withDeepPath(continuing: UnsafeBufferPointer(inline), from: next, summary: summary, body)
      }
      return try body(
        UnsafeBufferPointer(start: inline.baseAddress, count: count), summary.firstBubble, summary.capture)
    }
  }

  /// The same for a path longer than the inline buffer, whose first entries `inline` holds and
  /// which goes on at `next`: held in a buffer the tree lends and takes back, so that a tree that
  /// has dispatched once from that depth allocates no path again.
  @inline(never)
  static func withDeepPath<R, E: Error>(
    continuing inline: UnsafeBufferPointer<PathEntry>, from next: Unmanaged<Node>, summary: PathSummary,
    _ body: (UnsafeBufferPointer<PathEntry>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    // The depth first, and the top, whose tree (if any) lends the buffer. The tree's state
    // outlives the dispatch's use of the buffer (invariant 8).
    let (top, rest) = top(above: next)
    let depth = inline.count + rest
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
    _ = buffer.initialize(from: inline)
    var count = inline.count
    var summary = summary
    _ = walk(
      from: next, into: UnsafeMutableBufferPointer(rebasing: buffer[..<depth]), count: &count,
      summary: &summary)
    return try body(UnsafeBufferPointer(rebasing: buffer[..<count]), summary.firstBubble, summary.capture)
  }

  /// The path from `target` up in a buffer of its own, which the caller deallocates, for an
  /// awaited dispatch; with the first node whose bubble filter admits `actionType` and whether
  /// any capture filter does.
  static func allocatedPath(from target: Node, type actionType: ObjectIdentifier) -> (
    path: UnsafeMutableBufferPointer<PathEntry>, firstBubble: Int, capture: Bool
  ) {
    let start = Unmanaged.passUnretained(target)
    let path = UnsafeMutableBufferPointer<PathEntry>.allocate(capacity: top(above: start).depth)
    var summary = PathSummary(type: actionType)
    var count = 0
    _ = walk(from: start, into: path, count: &count, summary: &summary)
    return (path, summary.firstBubble, summary.capture)
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
