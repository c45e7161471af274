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
@resultBuilder
public enum NodeBuilder {
  /// Makes one node a component.
  public static func buildExpression(_ node: Node) -> [Node] { [node] }

  /// Makes an optional node a component; `nil` adds nothing.
  public static func buildExpression(_ node: Node?) -> [Node] { node.map { [$0] } ?? [] }

  /// Makes an array of nodes a component.
  public static func buildExpression(_ nodes: [Node]) -> [Node] { nodes }

  /// Joins the components of a block.
  public static func buildBlock(_ components: [Node]...) -> [Node] {
    components.count == 1 ? components[0] : components.flatMap { $0 }
  }

  /// Builds an `if` without `else`.
  public static func buildOptional(_ component: [Node]?) -> [Node] { component ?? [] }

  /// Builds the first branch of an `if`/`else` or `switch`.
  public static func buildEither(first component: [Node]) -> [Node] { component }

  /// Builds the second branch of an `if`/`else` or `switch`.
  public static func buildEither(second component: [Node]) -> [Node] { component }

  /// Builds a `for` loop.
  public static func buildArray(_ components: [[Node]]) -> [Node] { components.flatMap { $0 } }

  /// Builds an `if #available` block.
  public static func buildLimitedAvailability(_ component: [Node]) -> [Node] { component }
}
