extension Node {
  /// The first node with the given id in this subtree (this node included), in depth-first
  /// pre-order.
  ///
  /// - Parameter id: The id to look for.
  /// - Returns: The node, or `nil` when none has the id.
  /// - Complexity: O(*n*) in the size of the subtree; no recursion.
  public func firstNode(withID id: String) -> Node? {
    var found: Node?
    forEachInSubtree { node in
      if node.id == id {
        found = node
        return false
      }
      return true
    }
    return found
  }

  /// Every node with the given id in this subtree (this node included), in depth-first pre-order.
  ///
  /// - Parameter id: The id to look for.
  /// - Returns: The matching nodes.
  /// - Complexity: O(*n*) in the size of the subtree; no recursion.
  public func nodes(withID id: String) -> [Node] {
    var found: [Node] = []
    forEachInSubtree { node in
      if node.id == id { found.append(node) }
      return true
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
      return true
    }
    return count
  }

  /// Visits the subtree in depth-first pre-order with an explicit stack; `body` returns `false`
  /// to stop.
  func forEachInSubtree(_ body: (Node) -> Bool) {
    var stack: [Node] = [self]
    while let node = stack.popLast() {
      if !body(node) { return }
      stack.append(contentsOf: node._children.reversed())
    }
  }
}
