import Fixtures
import Foundation
import ViewTree

/// The same shape as `makeChain` as plain arrays, walked by a bare loop with no library code: the
/// physical limit the bubble benchmark is compared against.
struct ReferenceChain {
  /// Index of each node's parent; -1 for the root.
  var parent: [Int32]
  /// Index of each node's first handler in `handlerType`; -1 for none.
  var firstHandler: [Int32]
  /// Index of the next handler on the same node; -1 for none.
  var nextHandler: [Int32]
  /// The action type each handler matches.
  var handlerType: [ObjectIdentifier]

  /// Node 0 is the leaf, node `depth - 1` the root.
  init(depth: Int) {
    parent = (0..<depth).map { $0 == depth - 1 ? -1 : Int32($0 + 1) }
    firstHandler = (0..<depth).map { Int32($0) }
    handlerType = Array(repeating: ObjectIdentifier(Miss.self), count: depth)
    nextHandler = Array(repeating: -1, count: depth)
    // The root's second handler matches `Hit`.
    handlerType.append(ObjectIdentifier(Hit.self))
    nextHandler.append(-1)
    nextHandler[depth - 1] = Int32(depth)
  }

  /// Walks from the leaf to the first node with a handler for `type`; returns its index or -1.
  @inline(never)
  func dispatch(_ type: ObjectIdentifier) -> Int {
    var node: Int32 = 0
    while node >= 0 {
      var handler = firstHandler[Int(node)]
      while handler >= 0 {
        if handlerType[Int(handler)] == type { return Int(node) }
        handler = nextHandler[Int(handler)]
      }
      node = parent[Int(node)]
    }
    return -1
  }
}

/// The same shape as `makeChain` reduced to what a filter test reads: per node, a parent index and
/// one 64-bit filter word with a bit per action type its modifiers match. Walked by a bare loop
/// that tests one word per node: the least a dispatch that skips nodes by filter can do.
struct FilterChain {
  var parent: [Int32]
  var filter: [UInt64]

  /// The bit for an action type, as a dispatch filter would choose it.
  static func bit(for type: ObjectIdentifier) -> UInt64 {
    1 << ((UInt64(UInt(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
  }

  /// Node 0 is the leaf, node `depth - 1` the root, which alone matches `Hit`.
  init(depth: Int) {
    parent = (0..<depth).map { $0 == depth - 1 ? -1 : Int32($0 + 1) }
    let miss = Self.bit(for: ObjectIdentifier(Miss.self))
    filter = Array(repeating: miss, count: depth)
    filter[depth - 1] |= Self.bit(for: ObjectIdentifier(Hit.self))
  }

  /// Walks from the leaf to the first node whose filter has `bit`; returns its index or -1.
  @inline(never)
  func dispatch(_ bit: UInt64) -> Int {
    var node: Int32 = 0
    while node >= 0 {
      if filter[Int(node)] & bit != 0 { return Int(node) }
      node = parent[Int(node)]
    }
    return -1
  }
}

/// Declares a tree of `groups * (perGroup + 1) + 1` nodes with the result builder.
func declareWideTree(groups: Int, perGroup: Int) -> Node {
  Node("root") {
    for _ in 0..<groups {
      Node {
        for _ in 0..<perGroup { Node() }
      }
    }
  }
}

/// The process's resident memory, taken after returning free heap memory to the system.
struct MemorySnapshot {
  /// Resident set size in bytes, from `/proc/self/statm`; 0 where that file does not exist.
  let resident: Int

  init() {
    MemorySnapshot.trimHeap()
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let fields = statm.split(separator: " ")
    let pages = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
    resident = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// Calls glibc's `malloc_trim(0)` so that memory freed by earlier iterations leaves the
  /// resident set. NB: looked up with `dlsym` because `malloc.h` is not in the Glibc module.
  private static func trimHeap() {
    #if os(Linux)
      typealias Trim = @convention(c) (Int) -> Int32
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
      }
    #endif
  }
}
