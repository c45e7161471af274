/// Where a focus scope sends the focus when the focused node inside it leaves the tree (see
/// ``ModifierHost/focusScope(_:defaultFocus:ordered:autofocus:repair:)``).
public enum FocusRepair: Hashable, Sendable {
  /// The nearest node that can take focus from where the node left up to the root: the rule of
  /// every tree without a scope that says otherwise.
  case ancestor
  /// The node's neighbour, as a list, a tab bar or a grid wants: the next node in Tab order
  /// within the scope after where the node was, else the previous one, else the ancestor rule.
  case neighbor
}

/// Where nodes left their parent, so that a repair can find what was next to them.
enum RemovalSite {
  /// Not known, or nothing was left beside them (every child went, or a node moved).
  case unknown
  /// The removed nodes were at this position of the parent's list as it is now.
  case position(Int)
  /// The parent's list as it was before; the children still in it are those it keeps.
  case formerChildren(ChildList)
  /// The node was made inactive where it is: its siblings are those beside it.
  case inPlace

  /// The children of `parent` that were beside `cut` (one of the nodes that left, or the node
  /// made inactive) and are still there: before it, nearest first, and after it, nearest first.
  func siblings(of cut: Node, in parent: Node) -> (before: [Node], after: [Node]) {
    switch self {
    case .unknown:
      return ([], [])
    case .position(let index):
      let index = min(index, parent.childCount)
      return (
        (0..<index).reversed().map { parent.child(at: $0) },
        (index..<parent.childCount).map { parent.child(at: $0) }
      )
    case .formerChildren(let former):
      guard let index = former.firstIndex(where: { $0 === cut }) else { return ([], []) }
      let kept = { (node: Node) in node.parent === parent }
      return (former[..<index].reversed().filter(kept), former[(index + 1)...].filter(kept))
    case .inPlace:
      let index = parent.index(ofChild: cut, near: 0)
      return (
        (0..<index).reversed().map { parent.child(at: $0) },
        (index + 1..<parent.childCount).map { parent.child(at: $0) }
      )
    }
  }
}

extension TreeState {
  /// When the node that opened the modal scope leaves the tree while the scope holds the focus
  /// (a dialog that deletes the row it asks about), notes where it was: if the scope goes with
  /// the focus in it, the focus goes near there (see `repairFocus`).
  func noteOpenerLeaving(_ nodes: some Collection<Node>, formerParent: Node, site: RemovalSite) {
    guard let modal = focus.modal, let opener = memory(of: modal)?.opener,
      nodes.contains(where: { opener.isStructurallyInside($0) })
    else { return }
    let neighbours = neighbours(of: nodes, formerParent: formerParent, site: site, around: opener)
    updateMemory(of: modal) { $0.openerLeft = OpenerLeft(formerParent: formerParent, neighbours: neighbours) }
  }
}

/// Where the node that opened a trap was when it left the tree.
struct OpenerLeft {
  weak var formerParent: Node?
  let neighbours: FocusNeighbours?
}

/// The neighbours of a focused node that left, as they were when it left: what a scope that
/// repairs to a neighbour looks at (see `TreeState.neighbour`).
struct FocusNeighbours {
  /// The scope that repairs to a neighbour.
  let scope: Node
  /// The children of the former parent beside the node that left: before it, nearest first, and
  /// after it, nearest first.
  let before: [Node]
  let after: [Node]
}

extension TreeState {
  /// What a scope that repairs to a neighbour needs, when the focus (or `node`, the opener of
  /// the modal scope) that is in `nodes` leaves `formerParent` at `site`; `nil` when the nearest
  /// scope above repairs to an ancestor.
  func neighbours(
    of nodes: some Collection<Node>, formerParent: Node, site: RemovalSite, around node: Node? = nil
  ) -> FocusNeighbours? {
    guard let scope = formerParent.firstAncestor(within: root, where: { $0.isFocusScope }),
      scope.inputTraits?.repair == .neighbor, let focused = node ?? focus.node
    else { return nil }
    // The node that left with the focus in it: the top of the focus's chain, one of `nodes`
    // (or, made inactive, the one whose parent link was set aside).
    var cut = focused
    while let parent = cut.parent, parent !== formerParent { cut = parent }
    guard nodes.contains(where: { $0 === cut }) else { return nil }
    let (before, after) = site.siblings(of: cut, in: formerParent)
    return FocusNeighbours(scope: scope, before: before, after: after)
  }

  /// The neighbour the focus goes to, the next tab stop in tree order within the scope after
  /// where the node was, else the previous one, or `nil` when the scope has none.
  ///
  /// - Complexity: O(*n*) in the scope's size, plus the filter's calls on the candidates.
  func neighbour(_ neighbours: FocusNeighbours, formerParent: Node) -> Node? {
    let scope = neighbours.scope
    guard scope.isDescendant(of: root) else { return nil }
    // After: the siblings after the cut, then what follows each ancestor up to the scope.
    for node in neighbours.after where node.isDescendant(of: root) {
      if let stop = tabStop(in: node, forward: true) { return stop }
    }
    var level = formerParent
    while level !== scope, level.isDescendant(of: root), let parent = level.parent(within: root) {
      let index = parent.index(ofChild: level, near: 0)
      for position in (index + 1)..<parent.childCount {
        if let stop = tabStop(in: parent.child(at: position), forward: true) { return stop }
      }
      level = parent
    }
    // Before: the siblings before the cut, then the former parent (which comes before its
    // children), then what precedes each ancestor, up to the scope itself.
    for node in neighbours.before where node.isDescendant(of: root) {
      if let stop = tabStop(in: node, forward: false) { return stop }
    }
    level = formerParent
    while level.isDescendant(of: root) {
      if level.isTabStop(within: root) { return level }
      guard level !== scope, let parent = level.parent(within: root) else { break }
      let index = parent.index(ofChild: level, near: 0)
      for position in (0..<index).reversed() {
        if let stop = tabStop(in: parent.child(at: position), forward: false) { return stop }
      }
      level = parent
    }
    return nil
  }

  /// The first tab stop of `subtree` in tree order (its last when not `forward`), or `nil`.
  private func tabStop(in subtree: Node, forward: Bool) -> Node? {
    guard !subtree.isInactive else { return nil }
    var candidates: [Node] = []
    if let traits = subtree.inputTraits, traits.isFocusable, traits.order >= 0 { candidates.append(subtree) }
    if subtree.inputTraits?.descendantsFocusable != false {
      subtree.forEachDeclaringFocus { node, traits in
        if traits.isFocusable, traits.order >= 0 { candidates.append(node) }
      }
    }
    // The ancestors' blockers and the filter, which is user code, once the walk is over.
    if forward {
      return candidates.first { $0.blockerAbove(within: root) == nil }
    }
    return candidates.last { $0.blockerAbove(within: root) == nil }
  }
}
