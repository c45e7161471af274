extension NodeTree {
  /// Checks the tree's internal invariants and returns the problems found (none when healthy).
  ///
  /// For fuzzers and randomized tests: parent links match children, every node's modifier entries
  /// agree with their kinds and have increasing serials below the next one, its type filters cover
  /// its modifiers, focus is in the tree, the hover flags mark the hovered node's path and no other
  /// node, the hovered node and the pointer capture are in the tree, and pinned nodes are marked as
  /// pinned (while an update runs, a focus or a hover path it cut waits for its end); when `idle`
  /// (no dispatch and no update is running, as between steps of a test), nothing is pinned or
  /// counted as dispatching, no focus change waits to be reported, and no update's repair waits.
  /// Iterative, so deep trees are fine.
  ///
  /// - Parameter idle: Whether the caller knows that no dispatch is running.
  /// - Complexity: O(*n* + *m*) in the nodes and modifiers of the tree.
  @_spi(Invariants)
  public func checkInvariants(idle: Bool = true) -> [String] {
    var problems: [String] = []
    if root.treeState !== state { problems.append("the root belongs to another tree") }
    var stack: [Node] = [root]
    var seen: Set<ObjectIdentifier> = []
    while let node = stack.popLast() {
      guard seen.insert(ObjectIdentifier(node)).inserted else {
        problems.append("\(node.path) is reachable twice")
        continue
      }
      var watched: Int32 = node.hasLifecycleCallbacks ? 1 : 0
      var placed: (Placement, [Int])?
      for (index, child) in node.childList.enumerated() {
        if child.parent !== node { problems.append("\(child.label) under \(node.path) has another parent") }
        if child.isInactive ? child.activeParent != nil : child.activeParent !== node {
          problems.append("\(child.path): its dispatch link does not match its being active")
        }
        // The placed children come last, in their order.
        let placement = child.existingExtras?.placing.placement
        if (placement != nil) != (index >= node.declaredChildCount) {
          problems.append("\(child.path): placed, or not, out of its parent's placed children")
        }
        if let placement, let (previous, tail) = placed,
          !previous.precedes(placement, tail: tail, otherTail: child.existingExtras!.placing.placementTail)
        {
          problems.append("\(child.path): placed out of order")
        }
        placed = placement.map { ($0, child.existingExtras!.placing.placementTail) } ?? placed
        if let placement, index >= node.declaredChildCount,
          node.extras.placing.placements[index - node.declaredChildCount] != placement
        {
          problems.append("\(child.path): its parent's list of placements does not match")
        }
        if let handle = child.handle, handle.node !== child {
          problems.append("\(child.path) is bound to a handle that names another node")
        }
        watched += child.lifecycleCount
        stack.append(child)
      }
      if watched != node.lifecycleCount {
        problems.append(
          "\(node.path): \(node.lifecycleCount) lifecycle callbacks counted, \(watched) present")
      }
      problems.append(contentsOf: node.modifierProblems())
    }
    // While an update runs, a focused node that left keeps the focus until the update ends.
    if let focused = focusedNode, !contains(focused), state.updates.focusLeft?.node !== focused,
      state.updates.repairs == 0
    {
      problems.append("focus \(focused.path) is not in the tree")
    }
    // The hover flags mark exactly the hovered node and its ancestors; it and a capture are in
    // the tree.
    var hoverPath: Set<ObjectIdentifier> = []
    if !isRooted {
      // The tree the root is in routes the pointer, and flags its hover path.
      if hoveredNode != nil || pointerCapture != nil {
        problems.append("the tree is not rooted, yet has a hover or a capture")
      }
    } else if let hovered = hoveredNode {
      if !contains(hovered), state.updates.hoverPath == nil, state.updates.repairs == 0 {
        problems.append("the hovered \(hovered.path) is not in the tree")
      }
      hovered.walkAncestors { node in
        hoverPath.insert(ObjectIdentifier(node))
        return node === root
      }
    }
    // While an update runs, a cut hover path waits for the update's end to be mended.
    if isRooted, state.updates.hoverPath == nil, state.updates.repairs == 0 {
      root.walkSubtree { node in
        if node.isHovered != hoverPath.contains(ObjectIdentifier(node)) {
          problems.append(
            "\(node.path) is \(node.isHovered ? "" : "not ")flagged hovered, but is \(node.isHovered ? "not " : "")on the hover path"
          )
        }
      }
    }
    if let capture = pointerCapture, !contains(capture), !state.updates.isDeferring,
      state.updates.repairs == 0
    {
      problems.append("the pointer capture \(capture.path) is not in the tree")
    }
    for node in state.pinnedNodes where !node.isPinned(by: state) {
      problems.append("\(node.path) is pinned but not marked")
    }
    if idle {
      // Between steps, no focus change waits to be reported and no serving is under way.
      if state.focus.isReporting || !state.focus.reports.isEmpty {
        problems.append(
          "\(state.focus.reports.count) focus changes wait to be reported with no callback running")
      }
      if state.updates.repairs != 0 {
        problems.append("a focus repair is under way with no change running")
      }
      if state.focus.isServingAutofocus {
        problems.append("autofocus is being served with no change running")
      }
      if state.dispatchDepth != 0 {
        problems.append("dispatch depth is \(state.dispatchDepth) with no dispatch running")
      }
      if !state.pinnedNodes.isEmpty {
        problems.append("\(state.pinnedNodes.count) nodes pinned with no dispatch running")
      }
      if state.holdsRootForDispatches {
        problems.append("the root is held for dispatches with no dispatch running")
      }
      if state.updates.isDeferring || state.updates.hasPendingRepairs || state.updates.layoutChanged {
        problems.append("an update's repairs wait with no update running")
      }
    }
    return problems
  }
}
