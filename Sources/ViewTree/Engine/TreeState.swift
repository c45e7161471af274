/// A tree: what its dispatches read and write on every run, with its settings and its focus
/// (defined with ``NodeTree``, outside the engine). The tree's root owns it (`Node.treeState`);
/// ``NodeTree`` objects are handles to it.
///
/// The dispatch fields skip dynamic exclusivity checks (invariant 4 of `INVARIANTS.md`): the
/// dispatcher reads and writes them only between calls into user code. (User code reaches them
/// only through the tree's properties, which are plain accessors.)
final class TreeState {
  @exclusivity(unchecked) var _dispatchDepth = 0
  /// Advances whenever a node leaves this tree: while it holds, every node a running dispatch
  /// started with is still attached. Per tree, so a change in one tree costs others nothing.
  @exclusivity(unchecked) var _structureVersion: UInt64 = 0
  /// What the tree's owner set (see ``NodeTree``); the dispatch reads it on every run.
  @exclusivity(unchecked) var _settings = TreeSettings()
  /// The nesting level of the dispatch, running or about to start, whose ending unhandled is no
  /// report for `onUnhandled` or `requiresHandling` (a click that an item's default action takes);
  /// -1 for none. The router sets it around that one dispatch.
  @exclusivity(unchecked) var _unreportedLevel = -1
  /// Nodes that left this tree during a dispatch, kept alive until it ends (see `pin`).
  @exclusivity(unchecked) var _pinned: [Node] = []
  /// What the runtime's casts said of pairs of an action type and a modifier's class or protocol
  /// type (see `isInstance`): a small table indexed by the pair, so bounded whatever the types.
  @exclusivity(unchecked) private var _instanceCache = ContiguousArray<InstanceCacheEntry>()

  /// The root, which owns this state: unretained, as it outlives it (invariant 13).
  unowned(unsafe) let root: Node
  /// The focus and who hears of its changes (see `NodeTree+Focus.swift`). Read and written
  /// between calls into user code only (invariant 4): a callback or a filter is copied out of it
  /// before it is called.
  @exclusivity(unchecked) var focus = TreeFocus()
  /// The pointer: hover, capture, buttons and clicks (see `PointerRouting.swift`). Read and
  /// written between calls into user code only (invariant 4): the router holds no access to it
  /// across a dispatch.
  @exclusivity(unchecked) var pointer = TreePointer()
  /// What the tree puts off until the update that changes it ends (see `TreeUpdates`). Read and
  /// written between calls into user code only (invariant 4).
  @exclusivity(unchecked) var updates = TreeUpdates()
  /// The stack hit tests walk in (see `HitTest.swift`), allocated at the first hit test, grown
  /// as deep as the tree is hit-tested, freed with the state; and the children of the nodes on
  /// it that sort theirs by `zIndex`. Only the walk touches them, and it calls no user code
  /// (invariant 4).
  @exclusivity(unchecked) var _hitStack = UnsafeMutableBufferPointer<HitFrame>(start: nil, count: 0)
  @exclusivity(unchecked) var _hitOrder = ContiguousArray<(zIndex: Int, index: Int)>()
  /// The handle user code holds, if any is alive.
  private(set) weak var handle: NodeTree?
  /// Whether a live handle holds the root: then a dispatch need not retain the root to keep its
  /// path alive, as the handle outlives it or, released during it, leaves the root to
  /// `_heldRoot` until the outermost dispatch ends. (A plain flag: reading `handle`, a weak
  /// reference, would cost what the retain it saves costs.)
  @exclusivity(unchecked) private(set) var _handleHoldsRoot = false
  /// The root, held for the running dispatches by a handle released while they ran.
  @exclusivity(unchecked) private var _heldRoot: Node?

  init(root: Node) { self.root = root }

  // The engine's fields as the rest of the package sees them: plain reads and writes, each over
  // at once, so that no access outside the engine can overlap another (invariant 4).

  /// What the tree's owner set (see ``NodeTree``).
  var settings: TreeSettings {
    get { _settings }
    set { _settings = newValue }
  }
  /// How many dispatches of this tree are running, one inside the other.
  var dispatchDepth: Int { _dispatchDepth }
  /// The nodes kept alive until the outermost dispatch ends (see `pin`).
  var pinnedNodes: [Node] { _pinned }

  /// Runs `dispatch`, whose ending unhandled is no report for `onUnhandled` or
  /// `requiresHandling` (see `_unreportedLevel`).
  func withoutUnhandledReport<R>(_ dispatch: () -> R) -> R {
    let outer = _unreportedLevel
    _unreportedLevel = _dispatchDepth
    defer { _unreportedLevel = outer }
    return dispatch()
  }

  /// Whether `action`, of dynamic type `actionType`, is an instance of `matchType` (a class it
  /// may subclass, a protocol it may conform to): a cast the first time a pair of types meets,
  /// then the table's answer. Whether a value is an instance depends on its type only.
  func isInstance(
    _ action: UnsafeMutablePointer<any Action>, type actionType: ObjectIdentifier, of matchType: Any.Type
  ) -> Bool {
    let matchID = ObjectIdentifier(matchType)
    if _instanceCache.isEmpty {
      _instanceCache = ContiguousArray(repeating: InstanceCacheEntry(), count: InstanceCacheEntry.tableSize)
    }
    let slot = InstanceCacheEntry.slot(actionType, matchID)
    let entry = _instanceCache[slot]
    if entry.actionType == actionType, entry.matchType == matchID { return entry.isInstance }
    let answer = ViewTree.isInstance(action.pointee, of: matchType)
    _instanceCache[slot] = InstanceCacheEntry(actionType: actionType, matchType: matchID, isInstance: answer)
    return answer
  }

  /// Records `handle` as the tree's live handle.
  func adopt(handle: NodeTree) {
    self.handle = handle
    _handleHoldsRoot = true
  }

  /// The live handle is going away: dispatches running now, which did not retain the root, keep it
  /// through `_heldRoot` until the outermost ends.
  func release(handle: NodeTree) {
    _handleHoldsRoot = false
    if _dispatchDepth > 0, _heldRoot == nil { _heldRoot = handle.root }
  }

  deinit {
    for node in _pinned { node.unpin(from: self) }
    _hitStack.baseAddress?.deallocate()
  }

  /// Keeps a node that left this tree during a dispatch alive until the outermost dispatch ends,
  /// so that the dispatch's unretained path stays valid; the dispatch skips it.
  ///
  /// A node may be pinned by several trees (a tree whose root another tree adopted, or trees that
  /// dispatch one inside the other while the node moves between them); each keeps it alive until
  /// its own dispatch ends, and nodes later removed from under it are pinned by each of them.
  func pin(_ node: Node) {
    if node.isPinned(by: self) { return }
    node.extras.pinningStates.append(.passUnretained(self))
    _pinned.append(node)
  }

  /// Ends one level of dispatch nesting, releasing pinned nodes when none is left. Returns the
  /// root a released handle left to the dispatches, for the caller to release once this method
  /// has returned: the root owns this state.
  @inline(__always)
  func leaveDispatch() -> Node? {
    _dispatchDepth -= 1
    guard _dispatchDepth == 0 else { return nil }
    if !_pinned.isEmpty { releasePinned() }
    return _heldRoot.take()
  }

  /// Whether a released handle left the root to the running dispatches.
  var holdsRootForDispatches: Bool { _heldRoot != nil }

  func releasePinned() {
    let nodes = _pinned
    _pinned = []
    for node in nodes { node.unpin(from: self) }
  }
}

extension Node {
  /// Bookkeeping after `nodes` left `formerParent`: nodes leaving a dispatching tree, or a subtree
  /// that dispatching trees pinned, are kept alive until those dispatches end, and focus that left
  /// a tree moves to the nearest ancestor still in it.
  ///
  /// Every tree root on the way up counts, not only the top-most: a tree whose root was adopted by
  /// another node still has its focus and may still be dispatching. Two passes: the first, which
  /// calls no user code, advances every tree's version and pins what it must (invariant 3); only
  /// then does the second repair each tree's focus, which calls the focus filter and
  /// `onFocusChange`. A tree that an update is changing (a node below it on the way up is being
  /// updated, or `performUpdates` runs) puts its repairs off until the update ends (see
  /// `TreeUpdates`), so that a node that leaves and comes back in it keeps its focus.
  ///
  /// `keepingScopeMemories` is for nodes made inactive rather than removed (see
  /// `TreeState.repairFocus`).
  /// `site` says where the nodes were among the former parent's children, for a scope that
  /// repairs the focus to a neighbour.
  func didDetach(
    _ nodes: some Collection<Node>, formerParent: Node, keepingScopeMemories: Bool = false,
    site: RemovalSite = .unknown
  ) {
    // The roots of the trees whose focus may need repair, held so that a callback of one tree
    // cannot free another before its turn. Almost always one: no list unless there are more.
    var firstRoot: Node?
    var moreRoots: [Node] = []
    // The outermost node being updated on the way up, whose update's end settles the trees above.
    var updating: Node?
    var current: Node? = formerParent
    while let node = current {
      if node.isBeingUpdated { updating = node }
      if !node._pinningStates.isEmpty {
        // Removed from inside a subtree that left dispatching trees: keep it for each of their
        // dispatches (a subtree may sit inside another that a different tree pinned).
        for tree in node.pinningStates {
          for removed in nodes { tree.pin(removed) }
        }
      }
      if let tree = node.treeState {
        // Dispatches in this tree that started before now must check whether their nodes are
        // still attached (see `DispatchRun.isAttached`).
        tree._structureVersion &+= 1
        if tree._dispatchDepth > 0 {
          for removed in nodes { tree.pin(removed) }
        }
        if tree.focus.node != nil || tree.pointer.isTracking || tree.pointer.hasLocation {
          if let updating { tree.settle(after: updating) }
          // Its repair waits for the trees before it, whose callbacks may look at it meanwhile.
          tree.updates.repairs += 1
          if firstRoot == nil { firstRoot = node } else { moreRoots.append(node) }
        }
      }
      current = node._parent
    }
    func repair(_ root: Node) {
      guard let tree = root.treeState else { return }
      tree.nodesLeft(
        nodes, formerParent: formerParent, keepingScopeMemories: keepingScopeMemories, site: site)
      tree.updates.repairs -= 1
    }
    if let firstRoot { repair(firstRoot) }
    for root in moreRoots { repair(root) }
  }

  /// Whether `state` keeps this node alive (see `TreeState.pin`).
  func isPinned(by state: TreeState) -> Bool {
    _pinningStates.contains { $0.toOpaque() == Unmanaged.passUnretained(state).toOpaque() }
  }

  /// The trees that keep this node alive after it left them during their dispatch.
  var pinningStates: [TreeState] { _pinningStates.map { $0.takeUnretainedValue() } }

  /// Removes `state` from the trees keeping this node alive.
  func unpin(from state: TreeState) {
    _extras?.pinningStates.removeAll { $0.toOpaque() == Unmanaged.passUnretained(state).toOpaque() }
  }
}

/// One answer of `TreeState.isInstance`: the pair of types and what the cast said.
struct InstanceCacheEntry {
  /// Entries in the table; a pair that lands on an occupied slot replaces its entry.
  static let tableSize = 64

  var actionType: ObjectIdentifier?
  var matchType: ObjectIdentifier?
  var isInstance = false

  /// The pair's slot in the table.
  static func slot(_ actionType: ObjectIdentifier, _ matchType: ObjectIdentifier) -> Int {
    // Metadata addresses are at least 8-byte aligned: the low bits carry nothing.
    let mixed = UInt(bitPattern: Int(bitPattern: actionType) &* 31 &+ Int(bitPattern: matchType))
    return Int((mixed >> 4 ^ mixed >> 10) % UInt(tableSize))
  }
}
