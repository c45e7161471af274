extension NodeTree {
  /// Focuses a node: actions sent to the tree start there.
  ///
  /// - Parameter node: A node in this tree.
  /// - Throws: ``ViewTreeError/nodeNotInTree(node:)`` when the node is in another tree or in none.
  public func focus(_ node: Node) throws(ViewTreeError) {
    guard contains(node) else { throw .nodeNotInTree(node: node.path) }
    focusedNode = node
  }

  /// Focuses the first node with the given id.
  ///
  /// - Parameter id: The node's id.
  /// - Throws: ``ViewTreeError/noNodeWithID(_:)`` when no node in the tree has that id.
  public func focus(id: String) throws(ViewTreeError) {
    guard let node = node(id: id) else { throw .noNodeWithID(id) }
    focusedNode = node
  }

  /// Removes focus: actions sent to the tree start at the root.
  public func clearFocus() { focusedNode = nil }
}
