import Actions
import ViewTree

/// Collects strings in order; shared by handlers, actions and providers that must not capture
/// their node.
public final class Log {
  /// What was logged, in order.
  public var entries: [String] = []

  /// Creates an empty log.
  public init() {}

  /// Appends `entry`.
  public func callAsFunction(_ entry: String) { entries.append(entry) }
}

/// The selected rows, as the actions in the tests read them from their context.
public enum SelectionKey: ActionContextKey {
  /// Nothing selected.
  public static let defaultValue: [Int] = []
}

/// A chain `n0 (root) -> n1 -> ... -> n(count-1)` in a tree; returns the tree and the nodes, root
/// first.
public func makeChain(_ count: Int) -> (NodeTree, [Node]) {
  let nodes = (0..<count).map { Node("n\($0)") }
  for index in 1..<count { try! nodes[index - 1].addChild(nodes[index]) }
  return (try! NodeTree(root: nodes[0]), nodes)
}
