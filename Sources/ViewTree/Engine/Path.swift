import Synchronization

/// One node of a dispatch's path, and the serial its next modifier would have had when the
/// dispatch started: modifiers at or above it were added during the dispatch and do not run.
struct PathEntry {
  let node: Unmanaged<Node>
  let limit: UInt64
}

/// The buffer paths deeper than the inline one are walked into, lent to one dispatch at a time
/// (invariant 8 of `INVARIANTS.md`): process-wide, as a path's tree is known only once the walk
/// has reached its top, and as large as the deepest path dispatched so far (16 bytes a node).
/// A dispatch that finds it lent (a nested deep dispatch, or one on another thread) allocates
/// its own; the larger of the two is kept.
enum DeepPathSpare {
  /// The address of the spare buffer's allocation (see `allocate`), 0 while it is lent. (An
  /// address, as an atomic pointer would not be `Sendable`.)
  private static let spare = Atomic<Int>(0)

  /// The spare buffer, or a new one of at least `minimumCapacity` entries when it is lent or
  /// shorter.
  static func take(minimumCapacity: Int) -> UnsafeMutableBufferPointer<PathEntry> {
    if let base = UnsafeMutableRawPointer(bitPattern: spare.exchange(0, ordering: .acquiring)) {
      let buffer = entries(at: base)
      if buffer.count >= minimumCapacity { return buffer }
      release(buffer)
    }
    return allocate(capacity: minimumCapacity)
  }

  /// `buffer`, full, copied into one twice its size; `buffer` is freed.
  static func grow(_ buffer: UnsafeMutableBufferPointer<PathEntry>) -> UnsafeMutableBufferPointer<PathEntry> {
    let grown = allocate(capacity: 2 * buffer.count)
    _ = grown.initialize(from: buffer)
    release(buffer)
    return grown
  }

  /// Takes back a buffer `take` or `grow` returned: it becomes the spare unless the spare is
  /// there and at least as large.
  static func give(_ buffer: UnsafeMutableBufferPointer<PathEntry>) {
    var kept = buffer
    // Each exchange hands one buffer in and takes at most one out: no buffer is lost or shared.
    while let base = UnsafeMutableRawPointer(
      bitPattern: spare.exchange(Int(bitPattern: header(of: kept)), ordering: .acquiringAndReleasing))
    {
      let other = entries(at: base)
      if other.count <= kept.count {
        release(other)
        return
      }
      kept = other
    }
  }

  // Each buffer is one allocation: its capacity in the first word, padded to one entry's size,
  // then the entries, the memory bound to them.
  private static let headerSize = MemoryLayout<PathEntry>.stride

  private static func allocate(capacity: Int) -> UnsafeMutableBufferPointer<PathEntry> {
    let base = UnsafeMutableRawPointer.allocate(
      byteCount: headerSize + capacity * MemoryLayout<PathEntry>.stride,
      alignment: MemoryLayout<PathEntry>.alignment)
    base.storeBytes(of: capacity, as: Int.self)
    (base + headerSize).bindMemory(to: PathEntry.self, capacity: capacity)
    return entries(at: base)
  }

  private static func entries(at base: UnsafeMutableRawPointer) -> UnsafeMutableBufferPointer<PathEntry> {
    UnsafeMutableBufferPointer(
      start: (base + headerSize).assumingMemoryBound(to: PathEntry.self), count: base.load(as: Int.self))
  }

  private static func header(of buffer: UnsafeMutableBufferPointer<PathEntry>) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(buffer.baseAddress!) - headerSize
  }

  private static func release(_ buffer: UnsafeMutableBufferPointer<PathEntry>) {
    header(of: buffer).deallocate()
  }
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
        ($0._up, $0._bubbleFilter, $0._captureFilter, $0._nextSerial)
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
  /// which goes on at `next`: walked once, into the spare deep-path buffer (grown on the way when
  /// it is too short), so that a process that has dispatched once from that depth allocates no
  /// path again.
  @inline(never)
  static func withDeepPath<R, E: Error>(
    continuing inline: UnsafeBufferPointer<PathEntry>, from next: Unmanaged<Node>, summary: PathSummary,
    _ body: (UnsafeBufferPointer<PathEntry>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    var buffer = DeepPathSpare.take(minimumCapacity: 2 * inline.count)
    defer { DeepPathSpare.give(buffer) }
    // `PathEntry` is trivial: entries are written over whatever an earlier path left.
    _ = buffer.initialize(from: inline)
    var count = inline.count
    var summary = summary
    var node: Unmanaged<Node>? = next
    while let from = node {
      if count == buffer.count { buffer = DeepPathSpare.grow(buffer) }
      node = walk(from: from, into: buffer, count: &count, summary: &summary)
    }
    return try body(UnsafeBufferPointer(rebasing: buffer[..<count]), summary.firstBubble, summary.capture)
  }

  /// The path from `target` up in a buffer of its own, which the caller deallocates, for an
  /// awaited dispatch; with the first node whose bubble filter admits `actionType` and whether
  /// any capture filter does. Walked once, into a buffer that doubles when it is full.
  static func allocatedPath(from target: Node, type actionType: ObjectIdentifier) -> (
    path: UnsafeMutableBufferPointer<PathEntry>, firstBubble: Int, capture: Bool
  ) {
    var path = UnsafeMutableBufferPointer<PathEntry>.allocate(capacity: 16)
    var summary = PathSummary(type: actionType)
    var count = 0
    var node: Unmanaged<Node>? = .passUnretained(target)
    while let from = node {
      if count == path.count {
        let larger = UnsafeMutableBufferPointer<PathEntry>.allocate(capacity: 2 * path.count)
        // `PathEntry` is trivial: moving it is copying it.
        _ = larger.initialize(from: path)
        path.deallocate()
        path = larger
      }
      node = walk(from: from, into: path, count: &count, summary: &summary)
    }
    return (UnsafeMutableBufferPointer(rebasing: path[..<count]), summary.firstBubble, summary.capture)
  }

  /// The top-most node of `path` and the tree it is the root of, if any (unretained: a node's
  /// tree state, once set, is never replaced, and the node owns it). A tree's root made inactive
  /// under another node is in no tree: it has a parent, only one that does not count.
  @inline(__always)
  static func top(of path: UnsafeBufferPointer<PathEntry>) -> (Unmanaged<Node>, Unmanaged<TreeState>?) {
    // `path` is never empty: it holds at least the target.
    let top = path[path.count - 1].node
    return (
      top,
      top._withUnsafeGuaranteedRef { node in
        node._extras.flatMap { $0._isInactive ? nil : $0._treeState.map(Unmanaged.passUnretained) }
      }
    )
  }
}
