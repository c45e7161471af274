/// Builds the children of a ``Node`` from a declaration, SwiftUI style.
///
/// Supports `if`, `if`/`else`, `switch`, `for` loops, optional nodes and arrays of nodes:
///
/// ```swift
/// Node("list") {
///   Node("header")
///   for row in rows { Node(row.id) }
///   if showsFooter { Node("footer") }
///   optionalNode
/// }
/// ```
///
/// A single node needs no array of its own on its way into the children list, so declaring a
/// tree allocates one array per parent, not one per node.
@resultBuilder
public enum NodeBuilder {
  /// Nodes on their way into a children list, in order: the builder makes and reads them.
  public struct Component {
    enum Storage {
      case one(Node)
      case many([Node])
    }

    var storage: Storage

    /// No node.
    static var none: Component { Component(storage: .many([])) }

    /// The nodes, in order.
    var nodes: [Node] {
      switch storage {
      case .one(let node): [node]
      case .many(let nodes): nodes
      }
    }

    /// Appends the nodes to `result`.
    func append(to result: inout [Node]) {
      switch storage {
      case .one(let node): result.append(node)
      case .many(let nodes): result.append(contentsOf: nodes)
      }
    }
  }

  /// Makes one node a component.
  public static func buildExpression(_ node: Node) -> Component { Component(storage: .one(node)) }

  /// Makes an optional node a component; `nil` adds nothing.
  public static func buildExpression(_ node: Node?) -> Component {
    guard let node else { return .none }
    return Component(storage: .one(node))
  }

  /// Makes an array of nodes a component.
  public static func buildExpression(_ nodes: [Node]) -> Component { Component(storage: .many(nodes)) }

  /// An empty block.
  public static func buildBlock() -> Component { .none }

  /// The first component of a block.
  public static func buildPartialBlock(first: Component) -> Component { first }

  /// The components of a block so far, followed by the next one.
  public static func buildPartialBlock(accumulated: Component, next: Component) -> Component {
    var nodes = accumulated.nodes
    next.append(to: &nodes)
    return Component(storage: .many(nodes))
  }

  /// Builds an `if` without `else`.
  public static func buildOptional(_ component: Component?) -> Component { component ?? .none }

  /// Builds the first branch of an `if`/`else` or `switch`.
  public static func buildEither(first component: Component) -> Component { component }

  /// Builds the second branch of an `if`/`else` or `switch`.
  public static func buildEither(second component: Component) -> Component { component }

  /// Builds a `for` loop.
  public static func buildArray(_ components: [Component]) -> Component {
    var nodes: [Node] = []
    nodes.reserveCapacity(components.count)
    for component in components { component.append(to: &nodes) }
    return Component(storage: .many(nodes))
  }

  /// Builds an `if #available` block.
  public static func buildLimitedAvailability(_ component: Component) -> Component { component }

  /// The declared children.
  public static func buildFinalResult(_ component: Component) -> [Node] { component.nodes }
}
