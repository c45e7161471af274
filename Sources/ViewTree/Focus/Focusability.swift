/// What a focus scope does when Tab reaches its ends (see ``ModifierHost/focusScope(_:defaultFocus:ordered:autofocus:repair:)``).
public enum FocusScopeKind: Equatable, Sendable {
  /// Tab leaves the scope at its ends, as it leaves a toolbar or a sidebar.
  case group
  /// Tab wraps inside the scope, and focus cannot be moved out of it: a modal dialog. When the
  /// scope leaves the tree, focus returns to the node that had it before it entered the scope.
  case trap
}

/// The id of a scope's default node, apart from the traits: only entering a scope reads it.
enum FocusDefaultKey: NodeAttachmentKey {
  static var defaultValue: String? { nil }
}

extension ModifierHost {
  /// Declares whether this node can take focus, where Tab puts it, and whether a press of the
  /// pointer on it gives it focus.
  ///
  /// ```swift
  /// Node("name").focusable()
  /// Node("help").focusable(order: -1)  // focusable, but Tab skips it
  /// Node("bold").focusable(focusOnPress: false)  // a toolbar button that leaves focus in the editor
  /// ```
  ///
  /// Only a node that declares itself focusable can take focus: ``NodeTree/focus(_:)`` reports
  /// ``ViewTreeError/notFocusable(node:reason:)`` for any other. Declaring it again replaces the
  /// three values. The rectangle that direction moves measure is the node's frame (see
  /// ``frame(_:zIndex:hitBehavior:)``).
  ///
  /// - Parameters:
  ///   - isFocusable: Whether the node can take focus.
  ///   - order: Where Tab puts the node in a scope declared `ordered` (lowest first, ties in tree
  ///     order, `0` after every positive order, as HTML's `tabindex`); a negative order keeps the
  ///     node focusable by ``NodeTree/focus(_:)`` but out of Tab's way, in every scope.
  ///   - focusOnPress: Whether a press of the pointer on the node, or on a node below it that
  ///     cannot take focus, focuses it (see <doc:RoutingThePointer>); `false` leaves the focus
  ///     where it is.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func focusable(_ isFocusable: Bool = true, order: Int = 0, focusOnPress: Bool = true)
    -> Self
  {
    var traits = self[attachment: InputTraitsKey.self] ?? InputTraits()
    traits.isFocusable = isFocusable
    traits.order = order
    traits.focusOnPress = focusOnPress
    return settingAttachment(InputTraitsKey.self, to: traits)
  }

  /// Makes this node a focus scope: a group (a toolbar, a panel) or a trap (a modal dialog).
  ///
  /// A scope remembers the last node focused in it. When focus enters it from outside, by Tab or
  /// by ``NodeTree/focus(_:)`` on the scope node itself, it goes to that node if it is still
  /// there and focusable, else to `defaultFocus`, else to the scope's first focusable node in
  /// Tab order (its last, for Shift-Tab).
  ///
  /// ```swift
  /// Node("dialog") {
  ///   Node("cancel").focusable()
  ///   Node("delete").focusable()
  /// }
  /// .focusScope(.trap, defaultFocus: "cancel", autofocus: true)
  /// ```
  ///
  /// With `autofocus`, focus enters the scope when it appears, as ``NodeTree/focus(_:)`` on it
  /// would: once the change that put it in a tree (an update, an insertion, the tree's creation)
  /// or that made it declare `autofocus` is complete, so that the nodes declared with it count.
  /// A scope with nothing that can take focus by then keeps asking: it is served again at the
  /// end of each later update of the scope or of an ancestor, until focus enters it or it leaves
  /// the tree. Focus inside a trap the scope is not in stays there, and the scope reports
  /// ``ViewTreeError/outsideFocusTrap(node:trap:)``. The change is reported as
  /// ``FocusChangeReason/autofocus``.
  ///
  /// - Parameters:
  ///   - kind: ``FocusScopeKind/group`` (Tab leaves it at its ends) or ``FocusScopeKind/trap``
  ///     (Tab wraps inside it, and focus cannot leave it until it leaves the tree).
  ///   - defaultFocus: The id of the node inside the scope that takes focus when the scope
  ///     remembers none.
  ///   - ordered: Whether Tab follows the `order` the nodes of the scope declared (see
  ///     ``focusable(_:order:focusOnPress:)``) instead of tree order.
  ///   - autofocus: Whether focus enters the scope when it appears (a dialog that opens).
  ///   - repair: Where the focus goes when the focused node in the scope leaves the tree: the
  ///     nearest node above that can take it (``FocusRepair/ancestor``), or its neighbour in
  ///     the scope (``FocusRepair/neighbor``), as a list whose focused row is deleted wants.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func focusScope(
    _ kind: FocusScopeKind = .group, defaultFocus: String? = nil, ordered: Bool = false,
    autofocus: Bool = false, repair: FocusRepair = .ancestor
  ) -> Self {
    var traits = self[attachment: InputTraitsKey.self] ?? InputTraits()
    traits.scope = kind
    traits.ordered = ordered
    traits.autofocus = autofocus
    traits.repair = repair
    return settingAttachment(InputTraitsKey.self, to: traits).settingAttachment(
      FocusDefaultKey.self, to: defaultFocus)
  }

  /// Declares whether the nodes below this one can take focus: `false` makes a subtree (a
  /// disabled panel) unfocusable as a whole, whatever its nodes declare. This node itself is not
  /// affected.
  ///
  /// - Parameter allowed: Whether the descendants can take focus.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func descendantsFocusable(_ allowed: Bool) -> Self {
    var traits = self[attachment: InputTraitsKey.self] ?? InputTraits()
    traits.descendantsFocusable = allowed
    return settingAttachment(InputTraitsKey.self, to: traits)
  }
}

extension Node {
  /// What this node declared about focus, if anything.
  var inputTraits: InputTraits? { existingExtras?.inputTraits }

  /// Whether a modal scope makes this node inert: the focus of its tree is inside a trapping
  /// scope (a modal dialog) and this node is outside it. An inert node takes no pointer event
  /// and no hover (hit testing passes over it), and its key bindings do not resolve but for
  /// those declared to pass the modal (see <doc:RoutingThePointer> and, in ViewTreeActions,
  /// `bindKey(_:to:shownAs:passesModal:on:)`): what HTML's modal `<dialog>` does to the page
  /// behind it. A toolkit dims what is inert.
  ///
  /// - Complexity: O(*d*) in the node's depth.
  public var isInert: Bool {
    guard let tree, let modal = tree.state.focus.modal else { return false }
    return !isDescendant(of: modal)
  }

  /// After this node started or stopped being a trap: the tree finds its modal scope anew.
  func trapDidChange() {
    guard let state = tree?.state, state.updateModal() else { return }
    state.layoutChanged()
  }

  /// Whether this node can take focus now: it declares itself focusable, no ancestor makes its
  /// descendants unfocusable, and its tree's ``NodeTree/focusFilter`` (if any) accepts it.
  ///
  /// The tree is the node's ``Node/tree``, the top-most one it is in. A tree whose root another
  /// node adopted applies, for its own focus, the ancestors up to its root and its own filter.
  ///
  /// - Complexity: O(*d*) in the node's depth, plus the filter.
  public var isFocusable: Bool { focusBlocker() == nil }

  /// What keeps this node from taking focus in the tree whose root is `root` (by default the
  /// top-most tree it is in), or `nil` when nothing does.
  func focusBlocker(within root: Node? = nil) -> FocusBlocker? {
    guard inputTraits?.isFocusable == true else { return .undeclared }
    return blockerAbove(within: root)
  }

  /// What keeps this node from taking focus besides its own declaration: an ancestor that makes
  /// its descendants unfocusable, or the filter of the tree whose root is `root`.
  ///
  /// Ancestors count up to `root`, not above it: a tree whose root another node adopted keeps
  /// its own rules, while the adopter's tree, asking with its own root, applies its rules too.
  /// Without `root`, up to the top-most node.
  func blockerAbove(within root: Node? = nil) -> FocusBlocker? {
    if let blocker = parent(within: root)?.firstAncestor(within: root, where: { $0.blocksDescendants }) {
      return .ancestor(blocker)
    }
    if let filter = (root ?? self.root).treeState?.focus.filter, !filter(self) { return .filter }
    return nil
  }

  /// Whether this node declares itself focusable (whatever blocks it).
  var declaresFocusable: Bool { inputTraits?.isFocusable == true }

  /// Whether this node makes its descendants unfocusable.
  var blocksDescendants: Bool { inputTraits?.descendantsFocusable == false }

  /// Whether this node is a focus scope, a group or a trap.
  var isFocusScope: Bool { inputTraits?.scope != nil }

  /// Whether this node is a trapping focus scope.
  var isFocusTrap: Bool { inputTraits?.scope == .trap }

  /// Whether Tab stops at this node in the tree whose root is `root`: it can take focus and its
  /// order is not negative.
  func isTabStop(within root: Node) -> Bool {
    guard let traits = inputTraits else { return false }
    return isTabStop(traits, within: root)
  }

  /// Whether Tab stops at this node, which declared `traits`, in the tree whose root is `root`.
  func isTabStop(_ traits: InputTraits, within root: Node) -> Bool {
    traits.isFocusable && traits.order >= 0 && blockerAbove(within: root) == nil
  }
}

/// What keeps a node from taking focus.
enum FocusBlocker {
  case undeclared
  case ancestor(Node)
  case filter

  /// The reason ``ViewTreeError/notFocusable(node:reason:)`` gives.
  var reason: String {
    switch self {
    case .undeclared: "it does not declare focusable()"
    case .ancestor(let node): "\(node.path) declares descendantsFocusable(false)"
    case .filter: "the tree's focusFilter skips it"
    }
  }
}

/// How a declaration names a node's input traits: a field key, whose value is the node's
/// `inputTraits` field.
@usableFromInline
enum InputTraitsKey: NodeFieldKey {
  @usableFromInline static var defaultValue: InputTraits? { nil }

  @usableFromInline static func value<V>(of node: Node, as type: V.Type) -> V { node.inputTraits as! V }

  @usableFromInline static func set<V>(_ value: V, on node: Node) {
    let traits = value as! InputTraits?
    // A scope that starts to declare `autofocus` while in a tree asks for focus, as one that
    // enters a tree does.
    let startsAutofocus = traits?.autofocus == true && node.inputTraits?.autofocus != true
    let wasTrap = node.isFocusTrap
    if traits != nil || node.existingExtras != nil { node.extras.inputTraits = traits }
    node.lifecycleCallbacksChanged()
    if startsAutofocus { node.root.treeState?.requestAutofocus(node) }
    if wasTrap != node.isFocusTrap { node.trapDidChange() }
  }
}
