/// A tree of nodes with a focused node (the first responder), and the settings that apply to
/// every action dispatched in it.
///
/// Actions triggered from a node travel within its tree; a node triggers only while it is in a
/// `NodeTree` (otherwise the outcome is ``ActionOutcome/notDispatched(_:)``). Actions sent to the
/// tree from outside (a menu bar, a key press, a timer) start at the focused node, or at the root
/// when nothing is focused.
///
/// ```swift
/// let tree = NodeTree(root: window)
/// try tree.focus(id: "editor")
/// tree.send(Save())
/// ```
public final class NodeTree {
  /// The root node. It stays the root: ``Node/removeFromParent()`` on it does nothing.
  ///
  /// If the root is added as a child of another node, this tree is no longer rooted: `send(_:tracing:)`
  /// reports ``NotDispatchedReason/notInTree`` until it is removed from that parent again.
  public let root: Node

  /// The focused node (the first responder), or `nil`.
  ///
  /// When the focused node leaves the tree, focus moves to its nearest ancestor still in the tree.
  public internal(set) var focusedNode: Node?

  /// The greatest number of dispatches that may be nested in one another (an action triggered by a
  /// handler of an action, and so on), counting the outermost. Default: 64.
  ///
  /// A trigger beyond the limit is not dispatched and reports
  /// ``NotDispatchedReason/reentrancyLimit(_:)``, so a cycle of handlers re-triggering each other
  /// ends cleanly instead of overflowing the stack. Set it with ``setReentrancyLimit(_:)``.
  public var reentrancyLimit: Int { state.reentrancyLimit }

  /// Whether every action dispatched in this tree must be handled: one that nobody handles ends
  /// as ``ActionOutcome/failed(_:thrownBy:)`` with ``ViewTreeError/unhandledAction(action:path:)``
  /// instead of ``ActionOutcome/unhandled(_:)``. ``Node/requiresHandling`` does the same for a
  /// subtree.
  public var requiresHandling: Bool {
    get { state.requiresHandling }
    set { state.requiresHandling = newValue }
  }

  /// Called with every action that nobody handled, and the node it was triggered from.
  ///
  /// Nothing asserts by default: an unhandled action is a normal outcome.
  public var onUnhandled: ((any Action, Node) -> Void)? {
    get { state.onUnhandled }
    set { state.onUnhandled = newValue }
  }

  /// Called with every mistake a modifier method finds in a declaration made on a node of this
  /// tree, such as a second responder for one request type or a key chord that does not parse,
  /// and the node. See ``ModifierHost/reporting(_:)``.
  ///
  /// Modifier methods do not throw, so that a toolkit's `body` can declare them; set this to log
  /// or assert in debug builds. Each node also keeps its own in ``Node/problems``.
  public var onProblem: ((any Error, Node) -> Void)?

  /// Called with every step of every dispatch in this tree, for debugging tools.
  ///
  /// While it is set, dispatches record steps as if traced (see ``ActionTrace``).
  public var stepObserver: ((ActionStep) -> Void)? {
    get { state.stepObserver }
    set { state.stepObserver = newValue }
  }

  /// What dispatches read and write on every run: the settings above, the nesting depth, the
  /// structure version and the pinned nodes (see `DispatchState`).
  let state = DispatchState()

  /// How many dispatches in this tree are running, nested in one another (an awaited dispatch
  /// counts while it is suspended too).
  var dispatchDepth: Int {
    get { state.depth }
    set { state.depth = newValue }
  }
  /// Advances whenever a node leaves this tree: while it holds, every node a running dispatch
  /// started with is still attached. Per tree, so a change in one tree costs others nothing.
  var structureVersion: UInt64 {
    get { state.structureVersion }
    set { state.structureVersion = newValue }
  }
  /// Nodes that left this tree during a dispatch, kept alive until it ends (see `pin`).
  var pinned: [Node] {
    get { state.pinned }
    set { state.pinned = newValue }
  }

  /// Creates a tree with an existing root.
  ///
  /// - Parameter root: The root node.
  /// - Throws: ``ViewTreeError/rootHasParent(node:)`` or ``ViewTreeError/alreadyTreeRoot(node:)``.
  public init(root: Node) throws(ViewTreeError) {
    if root._parent != nil { throw .rootHasParent(node: root.path) }
    if let other = root._tree, other.root === root { throw .alreadyTreeRoot(node: root.path) }
    self.root = root
    root._tree = self
  }

  /// Creates a tree and its root from a declaration.
  ///
  /// - Parameters:
  ///   - id: The root's identifier.
  ///   - children: The root's children.
  public init(_ id: String? = nil, @NodeBuilder children: () throws -> [Node]) rethrows {
    let root = try Node(id, children: children)
    self.root = root
    root._tree = self
  }

  /// Creates a tree with a root that nothing else has adopted: it has no parent and no tree.
  init(freshRoot root: Node) {
    self.root = root
    root._tree = self
  }

  deinit {
    if root._tree === self { root._tree = nil }
    for node in pinned where node._pinningTree === self { node._pinningTree = nil }
  }

  /// Sets ``reentrancyLimit``.
  ///
  /// - Parameter limit: At least 1.
  /// - Throws: ``ViewTreeError/invalidReentrancyLimit(_:)`` when `limit` is less than 1.
  public func setReentrancyLimit(_ limit: Int) throws(ViewTreeError) {
    guard limit >= 1 else { throw .invalidReentrancyLimit(limit) }
    state.reentrancyLimit = limit
  }

  /// Whether the root has no parent, so that dispatches in this tree can run.
  public var isRooted: Bool { root._parent == nil }

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

  /// Sends an action from outside the tree: it starts at the focused node, or at the root when
  /// nothing is focused.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - trace: A trace that records every step, or `nil`.
  /// - Returns: What happened to the action.
  @discardableResult @inlinable
  public func send(_ action: some Action, tracing trace: ActionTrace? = nil) -> ActionOutcome {
    guard isRooted else { return .notDispatched(.notInTree) }
    return Dispatcher.dispatch(
      action, type: ObjectIdentifier(type(of: action)), from: sendTarget, trace: trace)
  }

  /// Where ``send(_:tracing:)`` starts: the focused node, or the root when nothing is focused.
  @usableFromInline
  var sendTarget: Node { focusedNode ?? root }

  /// Keeps a node that left this tree during a dispatch alive until the outermost dispatch ends,
  /// so that the dispatch's unretained path stays valid; the dispatch skips it.
  ///
  /// A node may be pinned by several trees (a tree whose root another tree adopted); each keeps it
  /// alive until its own dispatch ends.
  func pin(_ node: Node) {
    if node._pinningTree === self { return }
    if node._pinningTree == nil { node._pinningTree = self }
    state.pinned.append(node)
  }

  /// Ends one level of dispatch nesting, releasing pinned nodes when none is left.
  @inline(__always)
  func leaveDispatch() {
    state.depth -= 1
    if state.depth == 0, !state.pinned.isEmpty { releasePinned() }
  }

  func releasePinned() {
    let nodes = pinned
    pinned = []
    for node in nodes where node._pinningTree === self { node._pinningTree = nil }
  }
}

extension NodeTree: CustomDebugStringConvertible {
  /// The tree drawn as indented text, with each node's modifiers and the focus marked.
  public var debugDescription: String { root.treeDescription(focused: focusedNode) }
}
