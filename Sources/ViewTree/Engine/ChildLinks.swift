// The only operations that change a children list after a node's `init`: each changes the list
// and the parent links of the nodes it puts in or takes out together, calling nothing in between,
// so that a link always names a parent whose list holds its node (invariant 1 of
// `INVARIANTS.md`). What a change means to the trees (focus, the pointer, placements, lifecycle
// callbacks) is the caller's, before or after.
extension Node {
  /// The children as they are now, for walks that must not copy them: a value that shares the
  /// list's storage until either changes.
  var childList: ChildList { _children }

  /// Puts `child`, which no list holds, at `index` in this node's list and links it here.
  @inline(__always)
  func linkChild(_ child: Node, at index: Int) {
    _children.insert(child, at: index)
    child._parent = self
  }

  /// Takes the child at `index` out of this node's list and unlinks it.
  @discardableResult @inline(__always)
  func unlinkChild(at index: Int) -> Node {
    let child = _children.remove(at: index)
    child._parent = nil
    return child
  }

  /// Takes every child out of this node's list and unlinks them; returns them in order.
  func unlinkAllChildren() -> [Node] {
    let removed = Array(_children)
    _children = []
    for child in removed { child._parent = nil }
    return removed
  }

  /// Moves the child at `source` to `destination` (a position in the list without it); its link
  /// stays.
  func moveChildInList(from source: Int, to destination: Int) {
    let child = _children.remove(at: source)
    _children.insert(child, at: destination)
  }

  /// Makes `children` this node's list and links each of them here; unlinks `removed`, the
  /// children of the former list that the new one leaves out, and returns the former list.
  ///
  /// Every node of `children` is this node's child already or in no list.
  @discardableResult
  func replaceChildren(with children: ChildList, unlinking removed: [Node]) -> ChildList {
    let former = _children
    _children = children
    for child in children { child._parent = self }
    for child in removed { child._parent = nil }
    return former
  }
}
