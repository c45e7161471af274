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

/// A tree's focus: the node actions sent to the tree start from, and who hears of its changes.
struct TreeFocus {
  /// Weak: the root owns the tree's state, and may be the focused node itself. A focused node
  /// that leaves the tree loses focus at once (see `repairFocus`), so it never needs this
  /// reference.
  weak var node: Node?
  var onChange: ((Node?, Node?) -> Void)?
}

extension TreeState {
  /// Moves focus to `node` and reports the change.
  func setFocus(_ node: Node?) {
    let old = focus.node
    focus.node = node
    if old !== node, let onChange = focus.onChange { onChange(old, node) }
  }

  /// After nodes left `formerParent`, moves focus that is no longer in the tree to the nearest
  /// ancestor still in it.
  func repairFocus(formerParent: Node) {
    guard let focused = focus.node, !focused.isDescendant(of: root) else { return }
    var candidate: Node? = formerParent
    while let node = candidate, !node.isDescendant(of: root) { candidate = node._parent }
    setFocus(candidate)
  }
}
