import Synchronization

/// A count of the changes to any tree that decide where a dispatch goes and what runs on its
/// way: a modifier added or removed, an attachment set or removed, a node adopted, detached
/// (`TreeState.didDetach`) or freed, made active or inactive, and a tree's step observer or
/// reentrancy limit set.
///
/// A caller that worked out a route once and takes it many times (the list of what a node offers
/// validates each entry against the providers it gathered) takes it while the stamp is the one it
/// noted, and works it out again once it moved. One count for every tree, so that a change costs
/// one addition and no walk to its tree; a change in another tree only makes a caller look again.
package enum EditStamp {
  private static let count = Atomic<UInt64>(0)

  /// The count now.
  package static var current: UInt64 { count.load(ordering: .relaxed) }

  /// Counts a change.
  static func advance() { count.wrappingAdd(1, ordering: .relaxed) }
}
