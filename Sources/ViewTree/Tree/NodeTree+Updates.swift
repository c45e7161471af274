extension NodeTree {
  /// Runs `body` as one update of the tree: what it changes is settled once, when it returns.
  ///
  /// A toolkit that re-renders one view at a time wraps a render pass in it, so that a node that
  /// one view's update drops and another's places again (a card moved from one column to
  /// another) keeps its focus, its hover and its pointer capture, and nobody hears of a change:
  ///
  /// ```swift
  /// tree.performUpdates {
  ///   todoColumn.render()  // drops the card
  ///   doneColumn.render()  // places it again
  /// }
  /// ```
  ///
  /// Until `body` returns, a focused node that left the tree keeps the focus, and the pointer
  /// keeps what it names; then each is settled as <doc:MovingFocus#The-rules> and
  /// <doc:RoutingThePointer> say: a node back in the tree (active, and focusable for the focus)
  /// keeps what it had, one that is not is repaired as a removal is, and if frames moved or nodes
  /// came or went, the hover is run again at the pointer's last location, once. Each
  /// ``Node/update(to:)`` (and ``NodeHandle/update(to:)``) is such an update of its own; updates
  /// nest, and the outermost settles.
  ///
  /// - Parameter body: The changes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws; the changes it made are settled all the same.
  public func performUpdates<Result>(_ body: () throws -> Result) rethrows -> Result {
    state.updates.batchDepth += 1
    defer {
      state.updates.batchDepth -= 1
      state.settleIfIdle()
    }
    return try body()
  }
}

/// What a tree puts off while an update changes it (see ``NodeTree/performUpdates(_:)``): the
/// focus and the pointer of nodes that left, and whether frames moved under the pointer.
///
/// Its nodes are held strongly until the update ends, so that the focus and the pointer, which
/// name their nodes unowned, never name a freed one.
struct TreeUpdates {
  /// Open ``NodeTree/performUpdates(_:)`` calls.
  var batchDepth = 0
  /// Updates of nodes (`Node.update(to:)`) still running that changed this tree: each keeps the
  /// tree's root in its node's extras, and settles the tree when it ends.
  var openUpdates = 0
  /// The focused node that left the tree during the update, where it left from, and its
  /// neighbours then, for a scope that repairs to one.
  var focusLeft: (node: Node, formerParent: Node, keepingScopeMemories: Bool, neighbours: FocusNeighbours?)?
  /// The hover path as it was when the update first cut it, the hovered node first.
  var hoverPath: [Node]?
  /// The nodes that left while the focus or the pointer was in the tree: held, with their
  /// subtrees and links, so that the repair at the end finds them as they left (a trap that left
  /// with the focus, the node that holds the capture).
  var held: [Node] = []
  /// Whether frames moved, or nodes came or went: the hover is run again at the end.
  var layoutChanged = false
  /// How many repairs after a removal are running or waiting for their turn (a removal repairs
  /// each tree it left, one after the other): a repair calls the focus filter and
  /// `onFocusChange`, whose code may see the focus or the hover, of this tree or of one whose turn
  /// is still to come, on a node that left.
  var repairs = 0

  /// Whether an update is running: repairs wait for its end.
  var isDeferring: Bool { batchDepth > 0 || openUpdates > 0 }
  /// Whether a repair waits.
  var hasPendingRepairs: Bool { focusLeft != nil || hoverPath != nil || !held.isEmpty }
}

extension TreeState {
  /// Records that the update of `node`, which changed this tree, settles it when it ends.
  func settle(after node: Node) {
    let extras = node.extras
    if extras.updating.settlingRoots.contains(where: { $0 === root }) { return }
    extras.updating.settlingRoots.append(root)
    updates.openUpdates += 1
  }

  /// After `nodes` left `formerParent`: repairs the focus and the pointer now, or, while an
  /// update runs, notes what they named and repairs it when the update ends.
  func nodesLeft(
    _ nodes: some Collection<Node>, formerParent: Node, keepingScopeMemories: Bool, site: RemovalSite
  ) {
    if focus.isModal { noteOpenerLeaving(nodes, formerParent: formerParent, site: site) }
    guard updates.isDeferring else {
      repairPointer(nodes, formerParent: formerParent)
      repairFocus(
        formerParent: formerParent, keepingScopeMemories: keepingScopeMemories,
        neighbours: { neighbours(of: nodes, formerParent: formerParent, site: site) })
      layoutChanged()
      return
    }
    updates.layoutChanged = true
    updates.held.append(contentsOf: nodes)
    keepHoverPath(nodes, formerParent: formerParent)
    if updates.focusLeft == nil, let focused = focus.node, !focused.isDescendant(of: root) {
      let neighbours = neighbours(of: nodes, formerParent: formerParent, site: site)
      updates.focusLeft = (focused, formerParent, keepingScopeMemories, neighbours)
    }
  }

  /// After frames moved or nodes came or went: the hover is run again, now or at the end of the
  /// update that runs.
  func layoutChanged() {
    guard pointer.hasLocation else { return }
    if updates.isDeferring {
      updates.layoutChanged = true
    } else {
      rehover()
    }
  }

  /// An update that changed this tree ended: settles it if it was the last.
  func updateEnded() {
    updates.openUpdates -= 1
    settleIfIdle()
  }

  /// Settles what the updates put off, once none runs: the focus, the pointer, then the hover
  /// at the pointer's last location.
  func settleIfIdle() {
    guard !updates.isDeferring else { return }
    if let left = updates.focusLeft {
      updates.focusLeft = nil
      settleFocus(
        left.node, formerParent: left.formerParent, keepingScopeMemories: left.keepingScopeMemories,
        neighbours: left.neighbours)
    }
    if updateModal() { updates.layoutChanged = true }
    if updates.hoverPath != nil || !updates.held.isEmpty { settlePointer() }
    if updates.layoutChanged {
      updates.layoutChanged = false
      if pointer.hasLocation { rehover() }
    }
    // Released last: a node's release may run its attachments' deinits.
    if !updates.held.isEmpty { updates.held = [] }
  }
}

extension Node {
  /// Runs `body` as an update of this node: detaches below it put their trees' repairs off
  /// until the outermost update of the node ends (see `TreeUpdates`).
  @inline(__always) func updating(_ body: () -> Void) {
    let extras = extras
    extras.updating.depth += 1
    body()
    extras.updating.depth -= 1
    guard extras.updating.depth == 0, !extras.updating.settlingRoots.isEmpty else { return }
    let roots = extras.updating.settlingRoots
    extras.updating.settlingRoots = []
    for root in roots { root.treeState?.updateEnded() }
  }

  /// After a change that may move what is under the pointer (a frame set, a node that came or
  /// was shown): the tree this node is in runs the hover again, at once or at the end of the
  /// update that runs.
  ///
  /// - Complexity: O(*d*) in the node's depth.
  func layoutDidChange() { noteLayoutChange()?.layoutChanged() }

  /// The first half of `layoutDidChange`: notes the update that runs, if any, and returns the
  /// tree whose hover is to run again, for a caller that must first mend the hover path (a move
  /// whose former parent repairs it).
  func noteLayoutChange() -> TreeState? {
    // One walk that only reads (invariant 10 of `INVARIANTS.md`), noting the outermost node being
    // updated on the way.
    var updating: Node?
    let top = walkToTop { node in
      if node.isBeingUpdated { updating = node }
      return false
    }
    guard !top.isInactive, let tree = top.treeState, tree.pointer.hasLocation else { return nil }
    if let updating { tree.settle(after: updating) }
    return tree
  }
}

/// What a node keeps while it is updated (`NodeExtras.updating`).
struct NodeUpdating {
  /// How many updates of the node (`Node.update(to:)`) are running.
  var depth: Int32 = 0
  /// The roots of the trees that put off their repairs until the outermost ends (see
  /// `TreeUpdates`).
  var settlingRoots: [Node] = []
}

extension Node {
  /// Whether an update of this node is running (see `Node.updating(_:)`).
  var isBeingUpdated: Bool { (existingExtras?.updating.depth ?? 0) > 0 }
}
