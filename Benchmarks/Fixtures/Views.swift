import ViewTree

// The trees the per-view update benchmarks measure: a tree of views, each with a `NodeHandle`,
// as a toolkit that re-renders one view at a time keeps them.

/// A root view with sections of 10 row views each, `nodes` nodes in all (the root, and 11 per
/// section). Every section view has two modifiers and its rows in slots; every row one handler.
package final class PerViewState {
  package let tree: NodeTree
  /// The section in the middle: the view one update re-declares.
  package let section: NodeHandle
  package let rows: [NodeHandle]
  /// The section's declaration, built once: its two modifiers and a slot for each row.
  package let declaration: NodeDeclaration
  private let handles: [NodeHandle]

  package init(nodes: Int) {
    let root = NodeHandle()
    var handles: [NodeHandle] = [root]
    var sections: [NodeHandle] = []
    var middle: [NodeHandle] = []
    for index in 0..<((nodes - 1) / 11) {
      let section = NodeHandle()
      let rows = (0..<10).map { _ in NodeHandle() }
      for row in rows { row.update(to: NodeDeclaration("row").handleAction(Miss.self) { _ in }) }
      section.update(to: declareSection(rows))
      sections.append(section)
      handles += rows + [section]
      if index == (nodes - 1) / 22 { middle = [section] + rows }
    }
    root.update(to: NodeDeclaration("root") { for section in sections { NodeDeclaration.slot(section) } })
    tree = try! NodeTree(root: root.node!)
    section = middle[0]
    rows = Array(middle.dropFirst())
    declaration = declareSection(rows)
    self.handles = handles
  }
}

/// A section view's declaration: two modifiers and a slot per row.
package func declareSection(_ rows: [NodeHandle]) -> NodeDeclaration {
  NodeDeclaration("section") { for row in rows { NodeDeclaration.slot(row) } }
    .handleAction(Hit.self) { _ in }.onAction { _ in }
}

/// A root view with one child view holding `nodes` nodes, which is frozen: the root's update
/// places it with a slot.
package final class FrozenSubtreeState {
  package let tree: NodeTree
  package let root: NodeHandle
  package let child: NodeHandle
  /// The root's declaration, built once: two modifiers and the child's slot.
  package let declaration: NodeDeclaration

  package init(nodes: Int) {
    let (root, child) = (NodeHandle(), NodeHandle())
    child.update(to: NodeDeclaration("big") { for _ in 1..<nodes { NodeDeclaration("leaf") } })
    declaration = NodeDeclaration("root") { NodeDeclaration.slot(child) }.handleAction(Hit.self) { _ in }
      .onAction {
        _ in
      }
    root.update(to: declaration)
    tree = try! NodeTree(root: root.node!)
    (self.root, self.child) = (root, child)
  }
}
