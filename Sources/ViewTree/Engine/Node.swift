/// A node in a tree of views: the unit that triggers, transforms, handles and observes actions.
///
/// Declare trees with ``NodeBuilder``, SwiftUI style, and attach modifiers by chaining:
///
/// ```swift
/// let window = Node("window") {
///   Node("sidebar")
///   Node("editor")
///     .handleAction(Save.self) { save in document.save() }
/// }
/// ```
///
/// A node keeps its children alive; its parent is not retained, so trees have no reference
/// cycles. Building, searching and tearing down work without recursion, so a chain one million
/// nodes deep is fine.
///
/// Nodes are not `Sendable`: a tree lives in one isolation domain, such as the main actor.
public final class Node {
  // The parent link: invariant 1 of `INVARIANTS.md`, which `_parent` and `deinit` keep.
  // `Unmanaged` (rather than `weak` or `unowned`) lets the dispatcher and the walks below follow
  // parents with plain loads.
  //
  // The fields a dispatch reads on every hop (`_up`, the filters, the next serial) come first and
  // together, so that a hop touches as few cache lines as it can.
  @usableFromInline @exclusivity(unchecked) var _up: Unmanaged<Node>?

  // NB: `@exclusivity(unchecked)` because the dispatcher reads these on every hop and never holds
  // an access across a call into user code, so no two accesses can overlap. Dynamic exclusivity
  // checks would otherwise dominate the cost of a hop.
  // Summaries of the modifiers per phase (see `TypeFilter`): what the dispatcher reads on every
  // hop.
  @exclusivity(unchecked) var _bubbleFilter: UInt64 = 0
  @exclusivity(unchecked) var _captureFilter: UInt64 = 0
  // The serial the next modifier gets: serials increase along the list and are never reused, so a
  // dispatch that noted this value when it started knows which modifiers were added since. A
  // removal advances it too, so that it changes with any change to the list (see `PathStamp`).
  @exclusivity(unchecked) var _nextSerial: UInt64 = 1
  // The children's slots: a `ChildList` kept in two parts, the slots here and, in the extras, the
  // position of the first child in them, which is 0 unless children were removed from the front.
  @exclusivity(unchecked) var _childSlots = ContiguousArray<Node?>()
  // The modifiers, in order: what the dispatcher reads on a filter hit (see `ModifierStore`).
  @exclusivity(unchecked) var _store = ModifierStore()

  // NB: `@exclusivity(unchecked)`: only `update(to:)` writes it, holding no other access to it,
  // and reconciling children reads every child's, where dynamic checks would dominate an update.
  @exclusivity(unchecked) var _id: String?

  // What few nodes use (attachments, a tree's state, pins, lifecycle callbacks, the handling
  // requirement, catch counts), in one object allocated with the first of them: most nodes have
  // none of it, and keep a smaller object. Read through the properties below.
  @usableFromInline @exclusivity(unchecked) var _extras: NodeExtras?

  /// The node's children (see `_childSlots`).
  var _children: ChildList {
    get { ChildList(slots: _childSlots, head: _extras?.childHead ?? 0) }
    _modify {
      // The slots are moved out and back, never copied: a copy would make every change copy them.
      var list = ChildList(slots: [], head: _extras?.childHead ?? 0)
      list.exchangeSlots(with: &_childSlots)
      defer {
        list.exchangeSlots(with: &_childSlots)
        if list.head != 0 || _extras != nil { extras.childHead = list.head }
      }
      yield &list
    }
  }

  /// The node's identifier, used by lookups such as ``NodeTree/node(id:)`` and by ``path``.
  ///
  /// Identifiers need not be unique: lists of rows often repeat one. Lookups return the first
  /// match in depth-first pre-order; ``nodes(withID:includingInactive:)`` returns all
  /// of them.
  public internal(set) var id: String? {
    get { _id }
    set { _id = newValue }
  }

  /// The node's extras if it has any: what features read their slots through without allocating.
  var existingExtras: NodeExtras? { _extras }

  /// The node's extras, allocated if it has none yet.
  @usableFromInline var extras: NodeExtras {
    if let _extras { return _extras }
    let extras = NodeExtras()
    _extras = extras
    return extras
  }

  /// Whether an action triggered from this node or below that nobody handles ends as an error: the
  /// outcome is ``ActionOutcome/failed(_:thrownBy:)`` with ``ViewTreeError/unhandledAction(action:path:)``.
  ///
  /// Set it on the root of a subtree whose actions must all be handled exactly once; see also
  /// ``NodeTree/requiresHandling``.
  public var requiresHandling: Bool {
    get { _extras?.requiresHandling ?? false }
    set { if newValue || _extras != nil { extras.requiresHandling = newValue } }
  }

  /// The number of `catchError` modifiers on the node.
  var catchModifierCount: Int32 {
    get { _extras?.catchModifierCount ?? 0 }
    set { if newValue != 0 || _extras != nil { extras.catchModifierCount = newValue } }
  }

  // Set only on the root of a tree: the tree's state, which the root owns (see `TreeState`).
  var treeState: TreeState? {
    get { _extras?._treeState }
    set { if newValue != nil || _extras != nil { extras._treeState = newValue } }
  }

  /// What key bindings keep for the tree this node is the root of (its keymaps, a key press's
  /// scratch), which the engine holds and never reads; `nil` until they set it.
  @inlinable
  package var keyBindingsSlot: AnyObject? {
    get { _extras?._keyBindingsSlot }
    set { if newValue != nil || _extras != nil { extras._keyBindingsSlot = newValue } }
  }

  // The trees that keep this node alive after it left them during a dispatch (see
  // `TreeState.pin`); empty for almost every node. Unretained: a state removes itself from the
  // list when it lets the node go and when it is deinitialized, so no entry dangles.
  var _pinningStates: [Unmanaged<TreeState>] { _extras?.pinningStates ?? [] }

  /// Creates a node with an optional identifier and the children its builder declares.
  ///
  /// A declared child that already has a parent is moved here, as the DOM's `appendChild` does.
  /// A node declared twice appears once, at its last position.
  ///
  /// - Parameters:
  ///   - id: The node's identifier.
  ///   - children: The children, declared with ``NodeBuilder``. The builder may throw (a
  ///     declaration such as `respond(to:with:)` can), and the initializer rethrows.
  /// - Complexity: O(*n*) in the number of children, plus the depth of any moved child's old parent.
  public init(_ id: String? = nil, @NodeBuilder children: () throws -> [Node]) rethrows {
    self.id = id
    let declared = try children()
    if declared.isEmpty { return }
    var needsSlowPath = false
    for child in declared where child._parent != nil || child.treeState != nil {
      needsSlowPath = true
      break
    }
    if needsSlowPath {
      for child in declared {
        // A fresh node has no ancestors, so no declared child can create a cycle.
        adopt(child, at: _children.count)
      }
    } else {
      _children.reserveCapacity(declared.count)
      for child in declared {
        if child._parent === self {
          // Declared twice: keep the last position, as a move would.
          if let index = _children.firstIndex(where: { $0 === child }) { unlinkChild(at: index) }
        } else {
          lifecycleCount += child.lifecycleCount
        }
        linkChild(child, at: childCount)
      }
    }
  }

  /// Creates a node without children.
  ///
  /// - Parameter id: The node's identifier.
  public init(_ id: String? = nil) {
    self.id = id
  }

  deinit {
    _store.deallocate()
    // Marked hovered, this is the root of a tree going away with its pointer over it: the nodes
    // below that outlive it must not keep the marks of a pointer no tree routes any more. Cleared
    // now, while this node still holds them.
    if isHovered { clearHoverMarks() }
    // Tear down without recursion: a long chain would otherwise overflow the stack, one nested
    // deinit per level. Children that nobody else holds have their own children moved onto the
    // stack before they are released, so each release frees one node. A node that outlives its
    // parent is a root from then on, which nothing lists as placed.
    var pending = _children.takeAll()
    for case let child? in pending { child._parent = nil }
    while !pending.isEmpty {
      // Bound straight from the array, so that `node` is the only reference this loop holds.
      guard var node = pending.removeLast() else { continue }
      if !isKnownUniquelyReferenced(&node) {
        node.forgetOwnPlacement()
      } else if !node._children.isEmpty {
        let grandchildren = node._children.takeAll()
        for case let grandchild? in grandchildren { grandchild._parent = nil }
        pending.append(contentsOf: grandchildren)
      }
    }
  }

  /// The node's parent, or `nil` for a root or a detached node.
  public var parent: Node? { _parent }

  /// The parent whose children list holds this node: `_up`, or, for an inactive node, the parent
  /// it keeps aside (see ``isActive``).
  var _parent: Node? {
    get {
      if let up = _up { return up.takeUnretainedValue() }
      return _extras?.inactiveParent?.takeUnretainedValue()
    }
    set {
      let link = newValue.map(Unmanaged.passUnretained)
      if let extras = _extras, extras._isInactive {
        extras.inactiveParent = link
      } else {
        _up = link
      }
      // Hit testing sorts the children of a parent that has one with a `zIndex`.
      if let newValue, let extras = _extras, extras.pointer.geometry.zIndex != 0 {
        newValue.extras.pointer.sortsChildrenByZIndex = true
      }
    }
  }

  /// The parent as dispatches, focus and the pointer see it: `nil` for an inactive node.
  var activeParent: Node? { _up?.takeUnretainedValue() }

  /// Whether this node takes part in the tree: `true` unless set to `false`, which takes it and
  /// its subtree out of every dispatch, key resolution, focus move, hit test and list of items
  /// while keeping them where they are, as a hidden page of a stack keeps its views.
  ///
  /// ```swift
  /// settingsPage.isActive = false  // hidden: its handlers, bindings and items no longer count
  /// settingsPage.isActive = true   // shown again, exactly as it was
  /// ```
  ///
  /// An inactive node stays in its parent's ``children``, with its subtree, modifiers,
  /// attachments and what its focus scopes remember; an update of the parent keeps it (matched
  /// as before) and leaves it inactive, and so does an update of the node itself. But it is not
  /// in the tree: its ``tree`` is `nil`, an action triggered in it is
  /// ``NotDispatchedReason/inactive``, and the focus or the pointer inside it moves out as for a
  /// removal (its scopes remember the focused node, so focus entering them again finds it). No
  /// attach or detach callback runs. Made active again, the node is exactly where it was. The
  /// nodes below an inactive node keep their own setting: they are out of the tree with it.
  ///
  /// - Complexity: O(*d*) in the node's depth (the focus and pointer repairs above it), whatever
  ///   the size of its subtree.
  public var isActive: Bool {
    get { !isInactive }
    set {
      guard newValue == isInactive else { return }
      if newValue {
        let parent = extras.inactiveParent
        extras._isInactive = false
        extras.inactiveParent = nil
        _up = parent
        // What it shows may now be under the pointer.
        layoutDidChange()
      } else {
        let parent = _up
        extras._isInactive = true
        extras.inactiveParent = parent
        _up = nil
        // As for a removal: the trees above pin it if they dispatch, and repair their focus and
        // pointer.
        if let parent = parent?.takeUnretainedValue() {
          parent.didDetach(
            CollectionOfOne(self), formerParent: parent, keepingScopeMemories: true, site: .inPlace)
        }
      }
    }
  }

  /// Whether ``isActive`` was set to `false` on this node.
  var isInactive: Bool { _extras?._isInactive ?? false }

  /// The node's children, in order.
  public var children: [Node] { Array(_children) }

  /// The top-most ancestor (the node itself when it has no parent).
  ///
  /// - Complexity: O(*d*), where *d* is the node's depth.
  public var root: Node {
    var node = Unmanaged.passUnretained(self)
    while let up = node._withUnsafeGuaranteedRef({ $0._up }) { node = up }
    return node.takeUnretainedValue()
  }

  /// The node `steps` steps up from this one (this node for 0), or `nil` past the top-most node.
  ///
  /// - Complexity: O(`steps`).
  package func ancestor(_ steps: Int) -> Node? {
    var node = Unmanaged.passUnretained(self)
    for _ in 0..<steps {
      guard let up = node._withUnsafeGuaranteedRef({ $0._up }) else { return nil }
      node = up
    }
    return node.takeUnretainedValue()
  }

  /// The number of ancestors the node has; 0 for a root.
  ///
  /// - Complexity: O(*d*), where *d* is the node's depth.
  public var depth: Int {
    var count = 0
    var node = Unmanaged.passUnretained(self)
    while let up = node._withUnsafeGuaranteedRef({ $0._up }) {
      count += 1
      node = up
    }
    return count
  }

  /// The tree whose root is this node's top-most ancestor, if any.
  ///
  /// - Complexity: O(*d*), where *d* is the node's depth.
  ///
  /// The tree lives as long as its root: this gives a handle to it even when every other handle
  /// was released (the same object while one is alive).
  public var tree: NodeTree? {
    let root = root
    // A tree's root made inactive under another node is in no tree (see ``isActive``).
    return root.isInactive ? nil : root.treeState.map(NodeTree.handle(for:))
  }

  /// Returns whether `ancestor` is this node or one of its ancestors.
  ///
  /// - Complexity: O(*d*), where *d* is the node's depth.
  public func isDescendant(of ancestor: Node) -> Bool {
    var node = Unmanaged.passUnretained(self)
    while true {
      if node.toOpaque() == Unmanaged.passUnretained(ancestor).toOpaque() { return true }
      guard let up = node._withUnsafeGuaranteedRef({ $0._up }) else { return false }
      node = up
    }
  }

  /// Whether `ancestor` is this node or one of its ancestors through its parents' children lists,
  /// inactive nodes included (``isDescendant(of:)`` stops at an inactive node).
  ///
  /// - Complexity: O(*d*), where *d* is the node's depth.
  func isStructurallyInside(_ ancestor: Node) -> Bool {
    var node: Node? = self
    while let current = node {
      if current === ancestor { return true }
      node = current._parent
    }
    return false
  }

  /// A readable label for the node: its id, or `#i` (its index among its siblings) when it has none.
  public var label: String {
    if let id { return id }
    guard let parent = _parent, let index = parent._children.firstIndex(where: { $0 === self }) else {
      return "#root"
    }
    return "#\(index)"
  }

  /// The labels from the root down to this node, separated by `/`, such as `window/sidebar/#2`.
  ///
  /// - Complexity: O(*d*), where *d* is the node's depth (plus sibling searches for unnamed nodes).
  public var path: String {
    var labels: [String] = []
    var node: Node? = self
    while let current = node {
      labels.append(current.label)
      node = current._parent
    }
    return labels.reversed().joined(separator: "/")
  }
}

/// The parts of a node that few nodes use (see `Node._extras`): the engine's fields, then one
/// slot per feature, whose type and accessors the feature declares in its own folder. The engine
/// reads no slot but the pointer's, in the hit walk it keeps for its unsafe code.
@usableFromInline
final class NodeExtras {
  // NB: `@exclusivity(unchecked)`: no access calls user code (a replaced or removed attachment
  // leaves the list before it is released, see `attach` and `takeAttachment`), so no two can
  // overlap, and the dynamic checks would run on every perform (the attachments) and every
  // dispatch (the state).
  // Values other modules attach (see `Node+Attachments.swift`).
  @usableFromInline @exclusivity(unchecked) var _attachments:
    ContiguousArray<(key: ObjectIdentifier, box: AnyObject)> = []
  /// Advances whenever an attachment is set or removed (see `PathStamp`).
  @exclusivity(unchecked) var _attachmentEdits: UInt32 = 0
  @exclusivity(unchecked) var _treeState: TreeState?
  var pinningStates: [Unmanaged<TreeState>] = []
  /// The position of the first child in the node's `_childSlots`.
  var childHead = 0
  var catchModifierCount: Int32 = 0
  var requiresHandling = false
  /// Whether the node was made inactive (see `Node.isActive`): then `_up` is `nil` and its parent
  /// is kept here, unretained as `_up` is (invariant 1). Unchecked: walks read it for every node
  /// they pass, and no access calls out.
  @exclusivity(unchecked) var _isInactive = false
  var inactiveParent: Unmanaged<Node>?
  /// The handle the node is bound to (see ``NodeHandle``), which owns it: unowned, and cleared by
  /// the handle when it lets go of the node (invariant 11 of `INVARIANTS.md`).
  unowned(unsafe) var handle: NodeHandle?

  /// The pointer's: where the node is and whether the pointer is over it (`Pointer/`).
  var pointer = NodePointerState()
  /// Key bindings' (`ViewTreeActions`), on a tree's root: the tree's keymaps and a key press's
  /// scratch. Unchecked: every key press reads it, and no access calls out.
  @usableFromInline @exclusivity(unchecked) var _keyBindingsSlot: AnyObject?
  /// Focus's: what the node declared about focus (`Focus/`, see `InputTraits`).
  var inputTraits: InputTraits?
  /// The lifecycle callbacks' counts (`Node/Node+Lifecycle.swift`).
  var lifecycle = NodeLifecycle()
  // NB: `@exclusivity(unchecked)` on the two slots below, which placement and updates read for
  // every child and every ancestor they pass: lent to their feature, which keeps invariant 4's
  // second part (no access across a call out).
  /// Placement's: where the node placed itself, and its placed children (`Declaration/`).
  @exclusivity(unchecked) var placing = NodePlacing()
  /// The updates running on the node (`Tree/NodeTree+Updates.swift`).
  @exclusivity(unchecked) var updating = NodeUpdating()

  @usableFromInline init() {}
}

extension Node {
  /// Calls `body` with this node and then each ancestor, nearest first, until it returns `true`.
  ///
  /// `body` may change the tree, even remove the node it was given: the walk goes on from the
  /// parent that node has when `body` returns.
  ///
  /// ```swift
  /// var manager: Node?
  /// node.walkAncestors { ancestor in
  ///   if ancestor.hasAttachment(ManagerKey.self) { manager = ancestor }
  ///   return manager != nil
  /// }
  /// ```
  ///
  /// - Parameter body: Returns `true` to stop the walk.
  /// - Complexity: O(*d*) in the node's depth.
  public func walkAncestors(_ body: (Node) throws -> Bool) rethrows {
    var current = Unmanaged.passUnretained(self)
    while true {
      // A strong reference while `body` runs: it may remove the node from its tree, and then
      // nothing else may hold it. Its parent is read right after, with no code in between, so
      // the invariant above keeps that parent alive until the next turn takes its reference.
      let node = current.takeUnretainedValue()
      if try body(node) { return }
      guard let up = node._up else { return }
      current = up
    }
  }
  /// Calls `body` with this node and then each ancestor, nearest first, until it returns `true`,
  /// and returns the top-most node: once `body` stopped, the walk goes on to the top reading
  /// only parents, so that a caller that needs both walks the path once.
  ///
  /// `body` must not change the tree nor call code that could: the nodes are lent to it, not
  /// retained (invariant 1 of `INVARIANTS.md`), as in the dispatch's own walk.
  @inlinable
  package func walkToTop(_ body: (Node) -> Bool) -> Node {
    var current = Unmanaged.passUnretained(self)
    var searching = true
    while true {
      let up = current._withUnsafeGuaranteedRef { node in
        if searching, body(node) { searching = false }
        return node._up
      }
      guard let up else { return current.takeUnretainedValue() }
      current = up
    }
  }

}

extension Node {
  /// The first of this node and its ancestors, nearest first, up to `root` (included; the top-most
  /// node when `nil`), that `predicate` accepts, or `nil`.
  ///
  /// The nodes it passes over are not retained (invariant 10 of `INVARIANTS.md`): `predicate`
  /// only reads (a node's traits, a table the tree keeps), calls no user code, and changes
  /// nothing, so every node on the way stays alive through its child's link. Focus repairs walk a
  /// chain as deep as the tree this way at the cost of plain loads.
  ///
  /// - Complexity: O(*d*) in the node's depth.
  // NB: `@inline(never)`: inlined into the focus repair, the walk made Swift 6.3's optimizer fail
  // its ownership check (a compiler crash in CopyPropagation, release builds only).
  @inline(never)
  func firstAncestor(within root: Node? = nil, where predicate: (Node) -> Bool) -> Node? {
    var node = Unmanaged.passUnretained(self)
    let stop = root.map { Unmanaged.passUnretained($0).toOpaque() }
    while true {
      if node._withUnsafeGuaranteedRef(predicate) { return node.takeUnretainedValue() }
      if node.toOpaque() == stop { return nil }
      guard let up = node._withUnsafeGuaranteedRef({ $0._up }) else { return nil }
      node = up
    }
  }
}

extension Node {
  /// The number of children, read without copying the list.
  var childCount: Int { _childSlots.count - (_extras?.childHead ?? 0) }

  /// The child at `index`, read without copying the list.
  func child(at index: Int) -> Node { _childSlots[(_extras?.childHead ?? 0) + index]! }

  /// Visits the subtree (this node first) in depth-first pre-order with an explicit stack; `body`
  /// says whether to go on into the node's children, past them, or to stop.
  func forEachInSubtree(_ body: (Node) throws -> SubtreeVisit) rethrows {
    // One frame per level: the level's list of children, held while its nodes are visited, and
    // the next position in it. So a visit costs O(1) however many siblings wait (a search that
    // stops at the first child of a million siblings visits two nodes), and reads no more than
    // the child and what `body` reads.
    guard case .enterChildren = try body(self) else { return }
    var frames: [(slots: ContiguousArray<Node?>, next: Int)] = []
    var slots = _childSlots
    var next = _extras?.childHead ?? 0
    while true {
      guard next < slots.count else {
        guard let frame = frames.popLast() else { return }
        (slots, next) = frame
        continue
      }
      // Slots from a level's head on are all filled (see `ChildList`).
      let node = slots[next]!
      next += 1
      switch try body(node) {
      case .stop: return
      case .skipChildren: continue
      case .enterChildren:
        let head = node._extras?.childHead ?? 0
        guard node._childSlots.count > head else { continue }
        frames.append((slots, next))
        slots = node._childSlots
        next = head
      }
    }
  }
}

/// What `Node.forEachInSubtree` does after a node's visit.
enum SubtreeVisit {
  /// Visit the node's children next.
  case enterChildren
  /// Go on past the node's children.
  case skipChildren
  /// End the walk.
  case stop
}

extension Node: CustomStringConvertible {
  /// The node's ``path``.
  public var description: String { path }
}
