/// A move of the focus, triggered as an action from the focused node by ``NodeTree/moveFocus(_:)``
/// before the tree moves anything: a node that handles it keeps the focus (an editor inserting a
/// tab character handles `.next`).
public enum FocusMove: Action, Equatable, Sendable {
  /// The next focusable node in Tab order (Tab).
  case next
  /// The previous focusable node in Tab order (Shift-Tab).
  case previous
  /// The nearest focusable node to the left, by frames; without them, the previous node.
  case left
  /// The nearest focusable node to the right, by frames; without them, the next node.
  case right
  /// The nearest focusable node above, by frames; without them, the previous node.
  case up
  /// The nearest focusable node below, by frames; without them, the next node.
  case down

  /// Whether the move follows Tab order (rather than frames).
  var isTraversal: Bool { self == .next || self == .previous }
  /// Whether the move goes forward in Tab order when it follows it.
  var isForward: Bool { self == .next || self == .right || self == .down }
}

/// What ``NodeTree/moveFocus(_:)`` did.
public enum FocusMoveResult {
  /// A node handled the ``FocusMove`` action (or a handler failed): focus stayed where it was.
  case intercepted(ActionOutcome)
  /// Focus moved to the node.
  case moved(to: Node)
  /// No other focusable node lies that way: focus stayed where it was.
  case stayed

  /// The node that has focus after a move, if focus moved.
  public var movedTo: Node? {
    if case .moved(let node) = self { return node }
    return nil
  }
}

/// Why the focus changed, as ``NodeTree/onFocusChange`` reports it.
public enum FocusChangeReason: Equatable, Sendable {
  /// ``NodeTree/focus(_:)``, ``NodeTree/focus(id:)`` or ``NodeTree/clearFocus()``.
  case programmatic
  /// Tab or Shift-Tab: ``NodeTree/moveFocus(_:)`` with ``FocusMove/next`` or ``FocusMove/previous``.
  case traversal
  /// ``NodeTree/moveFocus(_:)`` with a direction.
  case direction
  /// A trapping scope left the tree, and focus went back to the node focused before it was
  /// entered.
  case restore
  /// The focused node left the tree, and focus went to its nearest focusable ancestor still in
  /// it (or to none).
  case repair
  /// A scope declared with `autofocus` appeared, and focus entered it (see
  /// ``ModifierHost/focusScope(_:defaultFocus:ordered:autofocus:repair:)``).
  case autofocus
  /// A press of the pointer gave focus to the nearest node from the pressed one up that can take
  /// it (see <doc:RoutingThePointer>), before the press was dispatched.
  case pointer
}

/// One change of the focus.
public struct FocusChange {
  /// The node that had focus, if any.
  public let old: Node?
  /// The node that has focus now, if any.
  public let new: Node?
  /// Why it changed.
  public let reason: FocusChangeReason
}

extension NodeTree {
  /// Focuses a node: actions sent to the tree start there.
  ///
  /// The node must be focusable (see ``ModifierHost/focusable(_:order:focusOnPress:)`` and
  /// ``Node/isFocusable``), or be a focus scope: focusing a scope enters it, as Tab does (its
  /// remembered node, else its default, else its first focusable node). While focus is inside a
  /// trapping scope, it cannot be moved out of it.
  ///
  /// - Parameter node: A node in this tree.
  /// - Throws: ``ViewTreeError/nodeNotInTree(node:)`` when the node is in another tree or in none,
  ///   ``ViewTreeError/notFocusable(node:reason:)`` when it cannot take focus (a scope with no
  ///   focusable node in it included), ``ViewTreeError/outsideFocusTrap(node:trap:)`` when focus
  ///   is in a trapping scope the node is not in.
  public func focus(_ node: Node) throws(ViewTreeError) {
    guard contains(node) else { throw .nodeNotInTree(node: node.path) }
    var target = node
    if let blocker = node.focusBlocker(within: root) {
      guard node.inputTraits?.scope != nil, let entered = state.enter(node, forward: true) else {
        throw .notFocusable(node: node.path, reason: blocker.reason)
      }
      target = entered
    }
    if let trap = state.focus.node?.enclosingTrap(within: root), !target.isDescendant(of: trap) {
      throw .outsideFocusTrap(node: node.path, trap: trap.path)
    }
    // The focus filter, user code, may have taken the node out of the tree meanwhile.
    guard state.setFocus(target, reason: .programmatic) else { throw .nodeNotInTree(node: target.path) }
  }

  /// Focuses the first node with the given id (see ``focus(_:)``).
  ///
  /// - Parameter id: The node's id.
  /// - Throws: ``ViewTreeError/noNodeWithID(_:)`` when no node in the tree has that id, or what
  ///   ``focus(_:)`` throws.
  public func focus(id: String) throws(ViewTreeError) {
    guard let node = node(id: id) else { throw .noNodeWithID(id) }
    try focus(node)
  }

  /// Removes focus: actions sent to the tree start at the root. Allowed inside a trapping scope.
  public func clearFocus() { state.setFocus(nil, reason: .programmatic) }

  /// Moves the focus as Tab, Shift-Tab or an arrow key does.
  ///
  /// The move is first triggered as a ``FocusMove`` action from the ``firstResponder``: a node
  /// that handles it keeps the focus. Otherwise the tree moves it:
  /// - ``FocusMove/next`` and ``FocusMove/previous`` follow Tab order: tree order (depth-first
  ///   pre-order), or the declared order in a scope declared `ordered`; a group scope is entered
  ///   at the node it remembers; Tab wraps at the root, or at the ends of a trapping scope.
  /// - Directions go to the nearest focusable node that way, by the frames of the focusable nodes
  ///   in the focused node's nearest scope (or the tree), preferring nodes in line with it. When
  ///   the focused node has no frame, right and down move as Tab does, left and up as Shift-Tab.
  ///
  /// Nodes declared with a negative `order`, nodes that are not ``Node/isFocusable`` and nodes the
  /// ``focusFilter`` skips are passed over.
  ///
  /// Inside ``performUpdates(_:)``, a focused node that has left the tree keeps the focus until
  /// the update ends, but has no place in the tree to move from: a move then goes where it goes
  /// with nothing focused (Tab, right and down to the first tab stop; Shift-Tab, left and up to
  /// the last).
  ///
  /// - Parameter move: The move.
  /// - Returns: Whether a node handled the move, where focus moved, or that it stayed.
  /// - Complexity: Tab: O(*k*·*d*) for the *k* nodes between the two, at depth *d*; O(*n* log *n*)
  ///   in a scope declared `ordered` of *n* nodes. A direction: O(*n*) in the scope's size, and
  ///   O(*n* log *n*) with one filter call per candidate when the filter refuses the nearest.
  @discardableResult
  public func moveFocus(_ move: FocusMove) -> FocusMoveResult {
    let outcome = firstResponder.trigger(move)
    switch outcome {
    case .unhandled: break
    // A tree that requires handling makes an unhandled move a failure: the tree is its handler.
    case .failed(ViewTreeError.unhandledAction, _): break
    default: return .intercepted(outcome)
    }
    // The target is checked once more when a focus filter ran: one that broke its contract may
    // have removed it.
    guard let target = state.focusTarget(for: move), state.focus.filter == nil || contains(target) else {
      return .stayed
    }
    state.setFocus(target, reason: move.isTraversal ? .traversal : .direction)
    return .moved(to: target)
  }
}

extension Node {
  /// For the root of a tree: the modal scope that holds its focus, if any (see ``isInert``).
  package var activeModal: Node? { isInactive ? nil : treeState?.focus.modal }
}

/// A tree's focus: the node actions sent to the tree start from, who hears of its changes, and
/// what its scopes remember.
struct TreeFocus {
  /// Unowned: the root owns the tree's state, and may be the focused node itself. A focused node
  /// that leaves the tree loses focus at once (see `repairFocus`), so this reference is never
  /// read after its node is gone. (A `weak` one would give the focused node a side table, which
  /// makes every later retain and release of it take the runtime's slow path.)
  unowned var node: Node?
  /// The innermost trap around the focused node, which makes the rest of the tree inert (see
  /// `TreeState.updateModal`): unowned as `node` is, and forgotten or replaced whenever the
  /// focus or its ancestry changes. Read through `modal`, which tests `isModal` first: every
  /// pointer event and key press asks, and reading an unowned reference takes a strong one.
  private unowned var modalScope: Node?
  private(set) var isModal = false
  var modal: Node? {
    get { isModal ? modalScope : nil }
    set {
      modalScope = newValue
      isModal = newValue != nil
    }
  }
  var onChange: ((FocusChange) -> Void)?
  var filter: ((Node) -> Bool)?
  /// What each scope remembers, by the scope's identity (checked against `ScopeMemory.scope`,
  /// as an identifier may be reused once its node is gone).
  var scopes: [ObjectIdentifier: ScopeMemory] = [:]
  /// The scope memories kept after the last pruning: pruning again when the table doubles keeps
  /// it proportional to the live scopes.
  var scopesAfterPruning = 8
  /// The walk a move starts from the focused node, kept so that moving allocates nothing.
  var walk = FocusWalk()
  /// Changes waiting to be reported, while `onChange` runs (see `TreeState.setFocus`).
  var reports: [FocusChange] = []
  var isReporting = false
  /// Scopes declared with `autofocus` that appeared and wait for focus (see `serveAutofocus`).
  var autofocus: [WeakNode] = []
  var isServingAutofocus = false
}

/// A node held weakly, in a list.
struct WeakNode {
  weak var node: Node?
}

/// What a focus scope remembers.
struct ScopeMemory {
  weak var scope: Node?
  /// The node focused in it when focus last left it.
  weak var lastFocused: Node?
  /// For a trap: the node focused before focus entered it, and where it was if it left the tree
  /// since (see `TreeState.noteOpenerLeaving`).
  weak var opener: Node?
  var openerLeft: OpenerLeft?

  /// Whether the trap knows where to send the focus when it goes with the focus in it: to its
  /// opener, or, when the opener left the tree (and may be gone since), near where it was.
  var knowsOpener: Bool { opener != nil || openerLeft != nil }
}

extension TreeState {
  /// Moves focus to `node` and reports the change; scopes the focus leaves remember the node, and
  /// traps it enters remember the node it came from, unless the focused node left the tree
  /// (`oldLeftTree`): then no scope records anything (see `repairFocus`).
  ///
  /// A change made while `onFocusChange` runs (by the callback, or by what it calls) is queued
  /// and reported after the callback returns, in order: the callback is never re-entered.
  ///
  /// Returns `false`, and changes nothing, when `node` is no longer in the tree: the callers
  /// chose it before asking the focus filter about it, and the filter, user code, may have moved
  /// it out.
  @discardableResult
  func setFocus(_ node: Node?, reason: FocusChangeReason, oldLeftTree: Bool = false) -> Bool {
    let old = focus.node
    guard old !== node else { return true }
    if let node, focus.filter != nil, !node.isDescendant(of: root) { return false }
    // A focus moved while an update holds a repair for it needs the repair no more.
    var oldLeftTree = oldLeftTree
    if let left = updates.focusLeft, left.node === old {
      updates.focusLeft = nil
      oldLeftTree = true
    }
    // The new modal scope: the innermost trap around the new focus, which is in the tree.
    let modal =
      oldLeftTree ? node?.firstAncestor(within: root) { $0.isFocusTrap } : rememberScopes(from: old, to: node)
    focus.node = node
    // A modal scope that opens or closes moves what the pointer can be over.
    defer { if setModal(modal) { layoutChanged() } }
    guard focus.onChange != nil else { return true }
    focus.reports.append(FocusChange(old: old, new: node, reason: reason))
    guard !focus.isReporting else { return true }
    focus.isReporting = true
    var next = 0
    while next < focus.reports.count {
      let change = focus.reports[next]
      next += 1
      if let onChange = focus.onChange { onChange(change) }
    }
    // The queue holds nodes, among them possibly the root, which owns this state: emptied at once.
    focus.reports.removeAll(keepingCapacity: true)
    focus.isReporting = false
    return true
  }

  /// Finds the modal scope anew, after the focus or its ancestry changed: the innermost trap
  /// around the focused node, whose outside is inert. Returns whether it changed.
  @discardableResult
  func updateModal() -> Bool {
    // Two walks that only read (invariant 10 of `INVARIANTS.md`): the innermost trap, when the
    // focus is in the tree at all.
    let modal = focus.node.flatMap { node in
      node.isDescendant(of: root) ? node.firstAncestor(within: root) { $0.isFocusTrap } : nil
    }
    return setModal(modal)
  }

  /// Makes `modal` the modal scope; returns whether it changed.
  private func setModal(_ modal: Node?) -> Bool {
    if modal == nil, !focus.isModal { return false }
    guard modal !== focus.modal else { return false }
    // Where the opener of the scope that stops being modal left from matters only while that
    // scope holds the focus; kept, it would keep the nodes beside that place alive.
    if let old = focus.modal, memory(of: old)?.openerLeft != nil {
      updateMemory(of: old) { $0.openerLeft = nil }
    }
    focus.modal = modal
    return true
  }

  /// The memory of `scope`, if it has any.
  func memory(of scope: Node) -> ScopeMemory? {
    guard let memory = focus.scopes[ObjectIdentifier(scope)], memory.scope === scope else { return nil }
    return memory
  }

  /// Records what the scopes around the focus remember when it moves from `old`, a node in the
  /// tree (or none), to `new`.
  /// Returns the innermost trap around `new`, the modal scope it makes (see `updateModal`).
  private func rememberScopes(from old: Node?, to new: Node?) -> Node? {
    // NB: a local, since passing the unretained `root` to a call copies (retains) it each time.
    let root = root
    var scope = old?.firstAncestor(within: root) { $0.isFocusScope }
    while let found = scope {
      if new.map({ !$0.isDescendant(of: found) }) ?? true { remember(old, asLastFocusedIn: found) }
      scope = found.parent(within: root)?.firstAncestor(within: root) { $0.isFocusScope }
    }
    let innermost = new?.firstAncestor(within: root) { $0.isFocusTrap }
    var trap = innermost
    while let found = trap {
      if old.map({ !$0.isDescendant(of: found) }) ?? true { remember(old, asOpenerOf: found) }
      trap = found.parent(within: root)?.firstAncestor(within: root) { $0.isFocusTrap }
    }
    return innermost
  }

  private func remember(_ node: Node?, asLastFocusedIn scope: Node) {
    updateMemory(of: scope) { $0.lastFocused = node }
  }

  private func remember(_ node: Node?, asOpenerOf trap: Node) {
    updateMemory(of: trap) {
      $0.opener = node
      $0.openerLeft = nil
    }
  }

  func updateMemory(of scope: Node, _ body: (inout ScopeMemory) -> Void) {
    let key = ObjectIdentifier(scope)
    var memory = focus.scopes[key] ?? ScopeMemory()
    if memory.scope !== scope { memory = ScopeMemory(scope: scope) }
    body(&memory)
    focus.scopes[key] = memory
    if focus.scopes.count > focus.scopesAfterPruning * 2 {
      // Structurally: the scopes of an inactive branch keep what they remember.
      focus.scopes = focus.scopes.filter { $0.value.scope?.isStructurallyInside(root) ?? false }
      focus.scopesAfterPruning = max(8, focus.scopes.count)
    }
  }

  /// After nodes left `formerParent`, moves focus that is no longer in the tree: to the opener of
  /// a trapping scope that left with it, or else, when the scope it was in repairs to a neighbour
  /// (`neighbours` says, asked only then), to that neighbour, or else to the nearest focusable ancestor still in the
  /// tree, or else to none.
  ///
  /// - Complexity: O(*d*) in the depths of the focused node and of `formerParent`, whatever the
  ///   scopes around them: one walk up from the focus, one from `formerParent` (plus the
  ///   openers' depths for traps that left with the focus).
  ///
  /// With `keepingScopeMemories` (the nodes were made inactive, not removed), the scopes the focus
  /// leaves remember it, so that focus entering them again when they are active finds it.
  func repairFocus(
    formerParent: Node, keepingScopeMemories: Bool = false, neighbours: () -> FocusNeighbours? = { nil }
  ) {
    guard let focused = focus.node else { return }
    let root = root
    // One walk up from the focus, the removed chain's only one: it reaches the root unless the
    // focused node left, and notes on the way the nearest trap that left with it and remembers
    // an opener, and the scopes that left, when they are to remember the focus.
    var trap: Node?
    var underTrap = false
    var scopesLeft: [Node] = []
    let isInTree =
      focused.firstAncestor { node in
        if node === root { return true }
        if node.isFocusTrap {
          underTrap = true
          if trap == nil, self.memory(of: node)?.knowsOpener == true { trap = node }
        }
        if keepingScopeMemories, node.isFocusScope { scopesLeft.append(node) }
        return false
      } != nil
    guard !isInTree else {
      // The focus stayed, but may have moved into or out of a modal scope.
      if underTrap || focus.isModal, updateModal() { layoutChanged() }
      return
    }
    // Until a new focus is set, the focus names the node that left: what a focus filter called
    // meanwhile sees (see `TreeUpdates.repairs`).
    updates.repairs += 1
    defer { updates.repairs -= 1 }
    for scope in scopesLeft { updateMemory(of: scope) { $0.lastFocused = focused } }
    // Focus cannot have left a trap, so the traps it comes back into keep their openers, and the
    // scopes that left with it record nothing.
    while let found = trap {
      let memory = memory(of: found)
      if let opener = memory?.opener, opener.isDescendant(of: root),
        opener.focusBlocker(within: root) == nil, setFocus(opener, reason: .restore, oldLeftTree: true)
      {
        return
      }
      // The opener left while the trap held the focus: near where it was, by its scope's rule.
      if let left = memory?.openerLeft, let formerParent = left.formerParent,
        formerParent.isDescendant(of: root)
      {
        let near = left.neighbours.flatMap { neighbour($0, formerParent: formerParent) }
        if setFocus(near ?? nearestFocusable(from: formerParent), reason: .repair, oldLeftTree: true) {
          return
        }
      }
      trap = found.activeParent?.firstAncestor { $0.isFocusTrap && self.memory(of: $0)?.knowsOpener == true }
    }
    // Asked only now, when the focus has left: finding the scope walks up from the former parent.
    if let neighbours = neighbours(), let next = neighbour(neighbours, formerParent: formerParent),
      setFocus(next, reason: .repair, oldLeftTree: true)
    {
      return
    }
    if !setFocus(nearestFocusable(from: formerParent), reason: .repair, oldLeftTree: true) {
      // The filter took the node it accepted out of the tree: no focus rather than one outside.
      setFocus(nil, reason: .repair, oldLeftTree: true)
    }
  }

  /// At the end of an update during which the focused node `node` left the tree from
  /// `formerParent`: back in the tree and still focusable, it keeps the focus and nobody hears of
  /// anything; back but blocked there, the focus goes to its nearest focusable ancestor; gone,
  /// the focus is repaired as for a removal.
  func settleFocus(
    _ node: Node, formerParent: Node, keepingScopeMemories: Bool, neighbours: FocusNeighbours?
  ) {
    guard focus.node === node else { return }
    if node.isDescendant(of: root) {
      let blocker = node.parent(within: root)?.firstAncestor(within: root) { $0.blocksDescendants }
      if !node.declaresFocusable || blocker != nil { setFocus(nearestFocusable(from: node), reason: .repair) }
      return
    }
    // Where the node left from may have left too: the nearest of its former ancestors still here.
    var from = formerParent
    while !from.isDescendant(of: root), let parent = from.parent { from = parent }
    repairFocus(formerParent: from, keepingScopeMemories: keepingScopeMemories) { neighbours }
  }

  /// Records that `scope`, which declares `autofocus`, appeared: the end of the change serves it.
  func requestAutofocus(_ scope: Node) {
    if !focus.autofocus.contains(where: { $0.node === scope }) {
      focus.autofocus.append(WeakNode(node: scope))
    }
  }

  /// Moves focus into the scopes that asked for it, in the order they asked: a scope that left
  /// the tree, stopped declaring `autofocus`, or has the focus already is forgotten; one that
  /// focus may not enter (focus is in a trap it is not in) reports it and is forgotten; one with
  /// nothing that can take focus waits for the next change.
  func serveAutofocus() {
    guard !focus.autofocus.isEmpty, !focus.isServingAutofocus else { return }
    focus.isServingAutofocus = true
    defer { focus.isServingAutofocus = false }
    var index = 0
    // User code (the filter, `onFocusChange`) runs in between: the list is read afresh each turn.
    while index < focus.autofocus.count {
      guard let scope = focus.autofocus[index].node, scope.isDescendant(of: root),
        scope.inputTraits?.autofocus == true,
        !(focus.node?.isDescendant(of: scope) ?? false)
      else {
        focus.autofocus.remove(at: index)
        continue
      }
      if let trap = focus.node?.enclosingTrap(within: root), !scope.isDescendant(of: trap) {
        focus.autofocus.remove(at: index)
        scope.reporting(ViewTreeError.outsideFocusTrap(node: scope.path, trap: trap.path))
        continue
      }
      guard let target = scope.focusBlocker(within: root) == nil ? scope : enter(scope, forward: true) else {
        index += 1
        continue
      }
      focus.autofocus.remove(at: index)
      // Refused when the filter took the target out of the tree: the scope is served no more.
      setFocus(target, reason: .autofocus)
    }
  }

  /// The nearest node from `start` up to the root that can take focus, or `nil` (also when
  /// `start` is not in the tree).
  ///
  /// One walk, to the root, finds the nearest node that declares itself focusable at or above
  /// the top-most ancestor that makes its descendants unfocusable (every node below that one is
  /// blocked); the filter, user code, is asked only after it, about that node and then those
  /// above it that declare themselves focusable.
  ///
  /// - Complexity: O(*d*) in the depth of `start`, plus a filter call per focusable candidate.
  func nearestFocusable(from start: Node) -> Node? {
    let root = root
    var candidate: Node?
    let reached = start.firstAncestor(within: root) { node in
      if let traits = node.inputTraits {
        // A blocker blocks the nodes below it, not itself.
        if !traits.descendantsFocusable, node !== start { candidate = nil }
        if traits.isFocusable, candidate == nil { candidate = node }
      }
      return node === root
    }
    guard reached != nil else { return nil }
    while let found = candidate {
      // The filter is user code: asked between walks, about the node the walk returned.
      if focus.filter.map({ $0(found) }) ?? true { return found }
      candidate = found.parent(within: root)?.firstAncestor(within: root) { $0.declaresFocusable }
    }
    return nil
  }
}
