extension Node {
  /// The first node with the given id in this subtree (this node included), in depth-first
  /// pre-order.
  ///
  /// - Parameter id: The id to look for.
  /// - Returns: The node, or `nil` when none has the id.
  /// - Complexity: O(*v*): the nodes visited before the match, at most the subtree; no recursion.
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
  func forEachInSubtree(_ body: (Node) throws -> Bool) rethrows {
    // Depth-first pre-order with one frame per level (a node and its next child's index), so a
    // visit costs O(1) however many siblings wait: a search that stops at the first child of a
    // million siblings visits two nodes.
    if try !body(self) { return }
    var frames: [(node: Node, next: Int)] = []
    var node = self
    var next = 0
    while true {
      if next < node._children.count {
        let child = node._children[next]
        if try !body(child) { return }
        next += 1
        if !child._children.isEmpty {
          frames.append((node, next))
          node = child
          next = 0
        }
      } else {
        guard let frame = frames.popLast() else { return }
        (node, next) = frame
      }
    }
  }
}
