/// A tree of nodes with a focused node (the first responder), and the settings that apply to
/// every action dispatched in it.
///
/// Actions triggered from a node travel within its tree; a node triggers only while it is in a
/// `NodeTree` (otherwise the outcome is ``ActionOutcome/notDispatched(_:)``). Actions sent to the
/// tree from outside (a menu bar, a key press, a timer) start at its ``firstResponder``: the
/// focused node, or the root when nothing is focused.
///
/// ```swift
/// let tree = NodeTree(root: window)
/// try tree.focus(id: "editor")
/// tree.firstResponder.trigger(Save())
/// ```
///
/// A `NodeTree` object is a handle: the tree itself (its focus, settings and dispatch state) lives
/// in its root node, as long as the root does. Dropping the handle while keeping the root changes
/// nothing: the nodes go on dispatching, and ``Node/tree`` gives a handle again (the same object
/// while one is alive). Each node is owned by its parent, and the root by whoever holds it or a
/// handle.
///
/// Keeping a handle makes dispatches a little cheaper: while one is alive, a dispatch relies on it
/// to keep the root alive instead of retaining the root itself.
public final class NodeTree {
  /// The root node. It stays the root: ``Node/removeFromParent()`` on it does nothing.
  ///
  /// If the root is added as a child of another node, this tree is no longer rooted (see
  /// ``isRooted``): its nodes are in that node's tree until the root is removed from it again.
  public let root: Node

  /// The tree's state, which its root owns.
  let state: TreeState

  /// The focused node (the first responder), or `nil`.
  ///
  /// When the focused node leaves the tree, focus moves to the node that opened a trapping scope
  /// that left with it, or to the nearest node that can take focus above the cut (the rule is in
  /// <doc:MovingFocus#The-rules>). Every change is reported to ``onFocusChange``.
  public var focusedNode: Node? { state.focus.node }

  /// Called after the focused node changed, with the node that had focus, the one that has it now
  /// and why: ``focus(_:)``, ``moveFocus(_:)``, a trapping scope that left the tree, a focused
  /// node that left it, or a scope that took focus when it appeared.
  ///
  /// Toolkits mirror focus from here instead of tracking it by hand. The callback may change the
  /// tree and the focus, and is never re-entered: a change made while it runs is queued and
  /// reported after it returns, in order (see <doc:MovingFocus#The-rules>).
  public var onFocusChange: ((FocusChange) -> Void)? {
    get { state.focus.onChange }
    set { state.focus.onChange = newValue }
  }

  /// Decides which focusable nodes can take focus now; `nil` (the default) accepts every one.
  ///
  /// Traversal passes over the nodes it rejects, and ``focus(_:)`` reports them as
  /// ``ViewTreeError/notFocusable(node:reason:)``: skip a button whose action is disabled, or a
  /// row scrolled out of view. It is called with nodes that declare themselves focusable, and
  /// should not change the tree.
  public var focusFilter: ((Node) -> Bool)? {
    get { state.focus.filter }
    set { state.focus.filter = newValue }
  }

  /// The greatest number of dispatches that may be nested in one another (an action triggered by a
  /// handler of an action, and so on), counting the outermost. Default: 64.
  ///
  /// A trigger beyond the limit is not dispatched and reports
  /// ``NotDispatchedReason/reentrancyLimit(_:)``, so a cycle of handlers re-triggering each other
  /// ends cleanly instead of overflowing the stack. Set it with ``setReentrancyLimit(_:)``.
  public var reentrancyLimit: Int { state.settings.reentrancyLimit }

  /// Whether every action dispatched in this tree must be handled: one that nobody handles ends
  /// as ``ActionOutcome/failed(_:thrownBy:)`` with ``ViewTreeError/unhandledAction(action:path:)``
  /// instead of ``ActionOutcome/unhandled(_:)``. ``Node/requiresHandling`` does the same for a
  /// subtree.
  public var requiresHandling: Bool {
    get { state.settings.requiresHandling }
    set { state.settings.requiresHandling = newValue }
  }

  /// Called with every action that nobody handled, and the node it was triggered from.
  ///
  /// Nothing asserts by default: an unhandled action is a normal outcome.
  public var onUnhandled: ((any Action, Node) -> Void)? {
    get { state.settings.onUnhandled }
    set { state.settings.onUnhandled = newValue }
  }

  /// Called with every mistake a modifier method finds in a declaration made on a node of this
  /// tree, such as a second responder for one request type or a key chord that does not parse,
  /// and the node. See ``ModifierHost/reporting(_:)``.
  ///
  /// Modifier methods do not throw, so that a toolkit's `body` can declare them; set this to log
  /// or assert in debug builds. Each node also keeps its own in ``Node/problems``.
  public var onProblem: ((any Error, Node) -> Void)? {
    get { state.settings.onProblem }
    set { state.settings.onProblem = newValue }
  }

  /// Called with every step of every dispatch in this tree, for debugging tools.
  ///
  /// While it is set, dispatches record steps as if traced (see ``ActionTrace``).
  public var stepObserver: ((ActionStep) -> Void)? {
    get { state.settings.stepObserver }
    set { state.settings.stepObserver = newValue }
  }

  /// Creates a tree with an existing root.
  ///
  /// A node that was the root of a tree whose handles were all released is still that tree's
  /// root: this gives a handle to it again, with its focus and settings.
  ///
  /// - Parameter root: The root node.
  /// - Throws: ``ViewTreeError/rootHasParent(node:)``, or ``ViewTreeError/alreadyTreeRoot(node:)``
  ///   while another handle to the tree rooted at `root` is alive (use ``Node/tree``).
  public init(root: Node) throws(ViewTreeError) {
    if root.parent != nil { throw .rootHasParent(node: root.path) }
    let created: Bool
    if let state = root.treeState {
      if state.handle != nil { throw .alreadyTreeRoot(node: root.path) }
      self.state = state
      created = false
    } else {
      state = TreeState(root: root)
      root.treeState = state
      created = true
    }
    self.root = root
    state.adopt(handle: self)
    if created {
      root.notifyLifecycle(.attach)
      state.serveAutofocus()
    }
  }

  /// Creates a tree and its root from a declaration.
  ///
  /// - Parameters:
  ///   - id: The root's identifier.
  ///   - children: The root's children.
  public init(_ id: String? = nil, @NodeBuilder children: () throws -> [Node]) rethrows {
    root = try Node(id, children: children)
    state = TreeState(root: root)
    root.treeState = state
    state.adopt(handle: self)
    root.notifyLifecycle(.attach)
    state.serveAutofocus()
  }

  /// Creates a tree rooted at a node that belongs to no tree and has no parent.
  init(freshRoot root: Node) {
    self.root = root
    state = TreeState(root: root)
    root.treeState = state
    state.adopt(handle: self)
    root.notifyLifecycle(.attach)
    state.serveAutofocus()
  }

  /// Creates a handle to the tree `state` belongs to, which has none alive.
  private init(state: TreeState) {
    root = state.root
    self.state = state
    state.adopt(handle: self)
  }

  deinit {
    // A dispatch running now may rely on this handle to keep the root alive (see
    // `TreeState.adopt(handle:)`).
    state.release(handle: self)
  }

  /// The live handle to the tree `state` belongs to, or a new one.
  static func handle(for state: TreeState) -> NodeTree { state.handle ?? NodeTree(state: state) }

  /// Sets ``reentrancyLimit``.
  ///
  /// - Parameter limit: At least 1.
  /// - Throws: ``ViewTreeError/invalidReentrancyLimit(_:)`` when `limit` is less than 1.
  public func setReentrancyLimit(_ limit: Int) throws(ViewTreeError) {
    guard limit >= 1 else { throw .invalidReentrancyLimit(limit) }
    state.settings.reentrancyLimit = limit
  }

  /// Whether the root has no parent: `false` while the root is a child in another tree, whose
  /// focus and settings then apply to what its nodes send.
  public var isRooted: Bool { root.activeParent == nil }

  /// Returns whether a node is in this tree: the root or one of its descendants.
  ///
  /// - Complexity: O(*d*) in the node's depth.
  public func contains(_ node: Node) -> Bool { node.isDescendant(of: root) }

  /// The first node with the given id, in depth-first pre-order.
  ///
  /// Ids need not be unique; see ``Node/id``.
  ///
  /// - Parameter id: The id to look for.
  /// - Returns: The node, or `nil`.
  public func node(id: String) -> Node? { root.firstNode(withID: id) }

  /// Where what comes from outside the tree starts (an action from a menu bar, a key press, a
  /// timer): the focused node, or the root when nothing is focused.
  ///
  /// ```swift
  /// tree.firstResponder.trigger(Save())
  /// tree.firstResponder.handleKey(chord)  // ViewTreeActions
  /// ```
  ///
  /// Every entry point of a node starts from it this way: `trigger`, `request`, and in
  /// ViewTreeActions `perform`, `validate`, `handleKey` and `bindingsInEffect`. If this tree's root
  /// has been added as a child of another node, its nodes are in that node's tree, and what they
  /// send travels there.
  public var firstResponder: Node { focusedNode ?? root }
}

extension NodeTree: CustomDebugStringConvertible {
  /// The tree drawn as indented text, with each node's modifiers and the focus marked.
  public var debugDescription: String { root.treeDescription(focused: focusedNode) }
}
