extension Node {
  /// Appends a child, after the other children this node lists and before those that placed
  /// themselves (see ``NodeHandle/place(in:order:)``).
  ///
  /// A child that already has a parent is moved, as the DOM's `appendChild` does; if it moves out
  /// of a ``NodeTree`` that has focus inside it, that tree repairs its focus as
  /// <doc:MovingFocus#The-rules> says (the nearest node that can take focus from the former parent
  /// up, or the opener of a trap that left). A child that placed itself here is appended as any
  /// other, and no longer counts as placed.
  ///
  /// - Parameter child: The node to append.
  /// - Throws: ``ViewTreeError/cycle(child:parent:)`` when `child` is this node or one of its
  ///   ancestors.
  /// - Complexity: O(*d*) in this node's depth when `child` has children or a parent, else O(1).
  public func addChild(_ child: Node) throws(ViewTreeError) {
    try checkNoCycle(adding: child)
    let end = declaredChildCount
    adopt(child, at: child.parent === self && !child.isPlaced ? end - 1 : end)
  }

  /// Inserts a child at a position among the children this node lists (those that placed
  /// themselves come after them; see ``NodeHandle/place(in:order:)``).
  ///
  /// A child that already has a parent is moved (see ``addChild(_:)``). When `child` is already a
  /// child of this node, `index` is its position after the move.
  ///
  /// - Parameters:
  ///   - child: The node to insert.
  ///   - index: The position among the children after insertion.
  /// - Throws: ``ViewTreeError/cycle(child:parent:)``, or
  ///   ``ViewTreeError/indexOutOfRange(index:validRange:node:)``.
  public func insertChild(_ child: Node, at index: Int) throws(ViewTreeError) {
    try checkNoCycle(adding: child)
    let upperBound = child.parent === self && !child.isPlaced ? declaredChildCount - 1 : declaredChildCount
    guard (0...upperBound).contains(index) else {
      throw .indexOutOfRange(index: index, validRange: 0...upperBound, node: path)
    }
    adopt(child, at: index)
  }

  /// Removes a child.
  ///
  /// If a ``NodeTree`` had focus inside the removed subtree, it repairs its focus as
  /// <doc:MovingFocus#The-rules> says (the nearest node that can take focus from this one up, or
  /// the opener of a trap that left). A node removed while its tree is dispatching an action is
  /// kept alive until the dispatch ends, and the dispatch skips it.
  ///
  /// - Parameter child: The child to remove.
  /// - Throws: ``ViewTreeError/notAChild(child:parent:)`` when `child` is not a child of this node.
  /// - Complexity: O(*c* + *d*): the number of children and this node's depth.
  public func removeChild(_ child: Node) throws(ViewTreeError) {
    guard child.parent === self, let index = childList.firstIndex(where: { $0 === child }) else {
      throw .notAChild(child: child.path, parent: path)
    }
    detachChild(at: index)
  }

  /// Removes the child at a position and returns it.
  ///
  /// - Parameter index: The child's position.
  /// - Returns: The removed child.
  /// - Throws: ``ViewTreeError/indexOutOfRange(index:validRange:node:)``.
  @discardableResult
  public func removeChild(at index: Int) throws(ViewTreeError) -> Node {
    guard (0..<childCount).contains(index) else {
      throw .indexOutOfRange(index: index, validRange: 0...max(0, childCount - 1), node: path)
    }
    return detachChild(at: index)
  }

  /// Removes the node from its parent.
  ///
  /// Removing a node that has no parent, such as the root of a tree, does nothing and returns
  /// `false`; a tree's root stays its root.
  ///
  /// - Returns: Whether the node had a parent.
  @discardableResult
  public func removeFromParent() -> Bool {
    guard let parent, let index = parent.childList.firstIndex(where: { $0 === self }) else {
      return false
    }
    parent.detachChild(at: index)
    return true
  }

  /// Removes every child, those that placed themselves included.
  ///
  /// - Complexity: O(*c* + *d*).
  public func removeAllChildren() {
    guard childCount > 0 else { return }
    forgetPlacements()
    didRemoveChildren(unlinkAllChildren())
  }

  /// Moves the child at one position to another, among the children this node lists (those that
  /// placed themselves keep their order; see ``NodeHandle/place(in:order:)``).
  ///
  /// - Parameters:
  ///   - source: The child's current position.
  ///   - destination: The child's position after the move.
  /// - Throws: ``ViewTreeError/indexOutOfRange(index:validRange:node:)`` for either index.
  public func moveChild(from source: Int, to destination: Int) throws(ViewTreeError) {
    let listed = declaredChildCount
    for index in [source, destination] where !(0..<listed).contains(index) {
      throw .indexOutOfRange(index: index, validRange: 0...max(0, listed - 1), node: path)
    }
    guard source != destination else { return }
    moveChildInList(from: source, to: destination)
  }

  // MARK: - Internals

  func checkNoCycle(adding child: Node) throws(ViewTreeError) {
    if child === self { throw .cycle(child: child.path, parent: path) }
    // A node without children cannot be an ancestor of this one.
    if child.childCount == 0 { return }
    // Through inactive nodes too: a node inside an inactive branch is still inside its parents.
    if isStructurallyInside(child) { throw .cycle(child: child.path, parent: path) }
  }

  /// Inserts `child`, moving it from its old parent. The caller has ruled out cycles, and `index`
  /// is valid for the list after `child` leaves an old position in this node.
  ///
  /// With `placement`, the child placed itself (see `NodeHandle.place(in:order:)`), and `index` is
  /// its place among the placed children.
  func adopt(_ child: Node, at index: Int, placement: Placement? = nil, tail: [Int] = []) {
    let formerParent = child.parent
    let watched = child.lifecycleCount
    let wasInTree = watched > 0 && child.isInTree
    formerParent?.adjustLifecycleCount(by: -watched)
    if let formerParent, let oldIndex = formerParent.childList.firstIndex(where: { $0 === child }) {
      formerParent.forgetPlacement(ofChildAt: oldIndex)
      formerParent.unlinkChild(at: oldIndex)
    }
    if let placement {
      linkChild(child, at: declaredChildCount + index)
      extras.placing.placements.insert(placement, at: index)
      child.extras.placing.placement = placement
      if !tail.isEmpty { child.extras.placing.placementTail = tail }
    } else {
      linkChild(child, at: index)
    }
    if formerParent == nil, let adoptedTree = child.treeState { adoptedTree.dropPointer() }
    adjustLifecycleCount(by: watched)
    // What the child shows may now be under the pointer: a fresh leaf without a frame shows
    // nothing, and costs no walk. The update that runs, if any, is noted first, so that it holds
    // the former parent's repairs; the hover runs after them, once the hover path they mend is
    // whole again.
    let rehovered =
      formerParent != nil || child.existingExtras?.pointer.geometry.frame != nil || child.childCount > 0
      ? child.noteLayoutChange() : nil
    if let formerParent, formerParent !== self {
      formerParent.didDetach(CollectionOfOne(child), formerParent: formerParent)
    }
    rehovered?.layoutChanged()
    if watched > 0 {
      if wasInTree { child.notifyLifecycle(.detach) }
      if child.isInTree {
        child.notifyLifecycle(.attach)
        // A scope in the child's subtree may have asked for focus (watched nodes include them).
        serveAutofocus()
      }
    }
  }

  @discardableResult
  func detachChild(at index: Int) -> Node {
    let wasInTree = isInTree
    forgetPlacement(ofChildAt: index)
    let child = unlinkChild(at: index)
    adjustLifecycleCount(by: -child.lifecycleCount)
    didDetach(CollectionOfOne(child), formerParent: self, site: .position(index))
    if wasInTree { child.notifyLifecycle(.detach) }
    return child
  }

  /// Finishes removing `removed`, children this node no longer lists and has unlinked: updates
  /// the lifecycle counts, tells the trees above (`didDetach`), then calls their detach callbacks.
  func didRemoveChildren(_ removed: [Node]) {
    let wasInTree = isInTree
    let watched = countRemovedChildren(removed)
    finishRemovingChildren(removed, watched: watched, wasInTree: wasInTree)
  }

  /// The first half of `didRemoveChildren`, which calls no user code: updates the lifecycle
  /// counts for `removed`; returns how many of them are watched.
  func countRemovedChildren(_ removed: [Node]) -> Int32 {
    var watched: Int32 = 0
    for child in removed { watched += child.lifecycleCount }
    adjustLifecycleCount(by: -watched)
    return watched
  }

  /// The second half: tells the trees above, then calls the detach callbacks (user code) if this
  /// node was in a tree before the removal. `site` says where the removed children were.
  func finishRemovingChildren(
    _ removed: [Node], watched: Int32, wasInTree: Bool, site: RemovalSite = .unknown
  ) {
    guard !removed.isEmpty else { return }
    didDetach(removed, formerParent: self, site: site)
    if watched > 0, wasInTree {
      for child in removed { child.notifyLifecycle(.detach) }
    }
  }
}
