extension Node {
  /// The first node with the given id in this subtree (this node included), in depth-first
  /// pre-order.
  ///
  /// Inactive branches (see ``isActive``) are out of the tree, and so out of the lookup, unless
  /// `includingInactive` says otherwise: of two pages that both have a `save` node, the shown
  /// one's is found.
  ///
  /// - Parameters:
  ///   - id: The id to look for.
  ///   - includingInactive: Whether to look inside inactive branches too.
  /// - Returns: The node, or `nil` when none has the id.
  /// - Complexity: O(*v*): the nodes visited before the match, at most the subtree; no recursion.
  public func firstNode(withID id: String, includingInactive: Bool = false) -> Node? {
    var found: Node?
    forEachInSubtree { node in
      if !includingInactive, node !== self, node.isInactive { return .skipChildren }
      if node.id == id {
        found = node
        return .stop
      }
      return .enterChildren
    }
    return found
  }

  /// Every node with the given id in this subtree (this node included), in depth-first pre-order.
  ///
  /// Inactive branches are left out unless `includingInactive` says otherwise (see
  /// ``firstNode(withID:includingInactive:)``).
  ///
  /// - Parameters:
  ///   - id: The id to look for.
  ///   - includingInactive: Whether to look inside inactive branches too.
  /// - Returns: The matching nodes.
  /// - Complexity: O(*n*) in the size of the subtree; no recursion.
  public func nodes(withID id: String, includingInactive: Bool = false) -> [Node] {
    var found: [Node] = []
    forEachInSubtree { node in
      if !includingInactive, node !== self, node.isInactive { return .skipChildren }
      if node.id == id { found.append(node) }
      return .enterChildren
    }
    return found
  }

  /// The number of nodes in this subtree, this node included.
  ///
  /// - Complexity: O(*n*) in the size of the subtree; no recursion.
  public var subtreeCount: Int {
    var count = 0
    forEachInSubtree { _ in
      count += 1
      return .enterChildren
    }
    return count
  }
}
