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

  /// Visits the subtree (this node first) in depth-first pre-order with an explicit stack; `body`
  /// says whether to go on into the node's children, past them, or to stop.
  func forEachInSubtree(_ body: (Node) throws -> SubtreeVisit) rethrows {
    // One frame per level: the level's list of children, held while its nodes are visited, and
    // the next position in it. So a visit costs O(1) however many siblings wait (a search that
    // stops at the first child of a million siblings visits two nodes), and reads no more than
    // the child and what `body` reads.
    guard case .enterChildren = try body(self) else { return }
    var frames: [(slots: ContiguousArray<Node?>, next: Int)] = []
    var slots = _childSlots
    var next = _extras?.childHead ?? 0
    while true {
      guard next < slots.count else {
        guard let frame = frames.popLast() else { return }
        (slots, next) = frame
        continue
      }
      // Slots from a level's head on are all filled (see `ChildList`).
      let node = slots[next]!
      next += 1
      switch try body(node) {
      case .stop: return
      case .skipChildren: continue
      case .enterChildren:
        let head = node._extras?.childHead ?? 0
        guard node._childSlots.count > head else { continue }
        frames.append((slots, next))
        slots = node._childSlots
        next = head
      }
    }
  }
}

/// What `Node.forEachInSubtree` does after a node's visit.
enum SubtreeVisit {
  /// Visit the node's children next.
  case enterChildren
  /// Go on past the node's children.
  case skipChildren
  /// End the walk.
  case stop
}
