import Synchronization

/// A process-wide counter that advances on every structural change to any node tree and on every
/// modifier added to any node.
///
/// The dispatcher reads it once when a dispatch starts. While it is unchanged, no node on the
/// dispatch path can have been detached and no modifier can have been added, so the per-hop checks
/// cost one relaxed load. When it has moved, the dispatcher falls back to walking parent links.
/// Modifiers record the value they were added at, which makes "added during this dispatch" a
/// comparison.
enum Generation {
  // NB: an atomic because trees in different isolation domains (threads) share the counter; a
  // relaxed load is a plain load on x86-64 and arm64.
  private static let counter = Atomic<UInt64>(1)

  /// The current value.
  @inline(__always)
  static var current: UInt64 { counter.load(ordering: .relaxed) }

  /// Advances the counter and returns the new value.
  @inline(__always)
  @discardableResult
  static func advance() -> UInt64 {
    counter.add(1, ordering: .relaxed).newValue
  }
}
