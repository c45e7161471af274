/// A tree: what its dispatches read and write on every run, its focus and its settings. The
/// tree's root owns it (`Node._state`); ``NodeTree`` objects are handles to it.
///
/// The dispatch fields skip dynamic exclusivity checks, which would cost more than the dispatch's
/// own work: the dispatcher reads and writes them only between calls into user code, never holding
/// an access across one, so no two accesses can overlap. (User code reaches them only through the
/// tree's properties, which are plain accessors.)
final class TreeState {
  @exclusivity(unchecked) var dispatchDepth = 0
  /// Advances whenever a node leaves this tree: while it holds, every node a running dispatch
  /// started with is still attached. Per tree, so a change in one tree costs others nothing.
  @exclusivity(unchecked) var structureVersion: UInt64 = 0
  @exclusivity(unchecked) var reentrancyLimit = 64
  @exclusivity(unchecked) var requiresHandling = false
  @exclusivity(unchecked) var onUnhandled: ((any Action, Node) -> Void)?
  @exclusivity(unchecked) var stepObserver: ((ActionStep) -> Void)?
  /// Nodes that left this tree during a dispatch, kept alive until it ends (see `pin`).
  @exclusivity(unchecked) var pinned: [Node] = []
  /// What the runtime's casts said of pairs of an action type and a modifier's class or protocol
  /// type (see `isInstance`): a small table indexed by the pair, so bounded whatever the types.
  @exclusivity(unchecked) private var instanceCache = ContiguousArray<InstanceCacheEntry>()

  /// A buffer for paths deeper than the inline one, lent to one dispatch at a time (see
  /// `Dispatcher.withDeepPath`): as large as the deepest path dispatched so far, freed with the
  /// tree. Its entries are trivial, so it is never initialized or cleared as a whole.
  @exclusivity(unchecked) private var spareDeepPath: UnsafeMutableBufferPointer<PathEntry>?

  /// The root, which owns this state: unretained, as it outlives it.
  unowned(unsafe) let root: Node
  /// Weak: the root owns this state, and may be the focused node itself. A focused node that
  /// leaves the tree loses focus at once (see `repairFocus`), so it never needs this reference.
  private(set) weak var focusedNode: Node?
  var onFocusChange: ((Node?, Node?) -> Void)?
  var onProblem: ((any Error, Node) -> Void)?
  /// The handle user code holds, if any is alive.
  private(set) weak var handle: NodeTree?
  /// Whether a live handle holds the root: then a dispatch need not retain the root to keep its
  /// path alive, as the handle outlives it or, released during it, leaves the root to
  /// `heldRoot` until the outermost dispatch ends. (A plain flag: reading `handle`, a weak
  /// reference, would cost what the retain it saves costs.)
  @exclusivity(unchecked) private(set) var handleHoldsRoot = false
  /// The root, held for the running dispatches by a handle released while they ran.
  @exclusivity(unchecked) private var heldRoot: Node?

  init(root: Node) { self.root = root }

  /// Whether `action`, of dynamic type `actionType`, is an instance of `matchType` (a class it
  /// may subclass, a protocol it may conform to): a cast the first time a pair of types meets,
  /// then the table's answer. Whether a value is an instance depends on its type only.
  func isInstance(
    _ action: UnsafeMutablePointer<any Action>, type actionType: ObjectIdentifier, of matchType: Any.Type
  ) -> Bool {
    let matchID = ObjectIdentifier(matchType)
    if instanceCache.isEmpty {
      instanceCache = ContiguousArray(repeating: InstanceCacheEntry(), count: InstanceCacheEntry.tableSize)
    }
    let slot = InstanceCacheEntry.slot(actionType, matchID)
    let entry = instanceCache[slot]
    if entry.actionType == actionType, entry.matchType == matchID { return entry.isInstance }
    let answer = ViewTree.isInstance(action.pointee, of: matchType)
    instanceCache[slot] = InstanceCacheEntry(actionType: actionType, matchType: matchID, isInstance: answer)
    return answer
  }

  /// A buffer of at least `capacity` entries for a deep path: the spare one, which the tree no
  /// longer holds, or a new one when it is too small or a dispatch further out has it.
  func takeSpareDeepPath(capacity: Int) -> UnsafeMutableBufferPointer<PathEntry> {
    guard let spare = spareDeepPath, spare.count >= capacity else { return .allocate(capacity: capacity) }
    spareDeepPath = nil
    return spare
  }

  /// Takes back a deep-path buffer, keeping the larger of it and the one the tree has.
  func keepSpareDeepPath(_ buffer: UnsafeMutableBufferPointer<PathEntry>) {
    guard let spare = spareDeepPath else {
      spareDeepPath = buffer
      return
    }
    if spare.count >= buffer.count {
      buffer.deallocate()
    } else {
      spare.deallocate()
      spareDeepPath = buffer
    }
  }

  /// Records `handle` as the tree's live handle.
  func adopt(handle: NodeTree) {
    self.handle = handle
    handleHoldsRoot = true
  }

  /// The live handle is going away: dispatches running now, which did not retain the root, keep it
  /// through `heldRoot` until the outermost ends.
  func release(handle: NodeTree) {
    handleHoldsRoot = false
    if dispatchDepth > 0, heldRoot == nil { heldRoot = handle.root }
  }

  deinit {
    for node in pinned { node.unpin(from: self) }
    spareDeepPath?.deallocate()
  }

  /// Moves focus to `node` and reports the change.
  func setFocus(_ node: Node?) {
    let old = focusedNode
    focusedNode = node
    if old !== node, let onFocusChange { onFocusChange(old, node) }
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
    pinned.append(node)
  }

  /// Ends one level of dispatch nesting, releasing pinned nodes when none is left. Returns the
  /// root a released handle left to the dispatches, for the caller to release once this method
  /// has returned: the root owns this state.
  @inline(__always)
  func leaveDispatch() -> Node? {
    dispatchDepth -= 1
    guard dispatchDepth == 0 else { return nil }
    if !pinned.isEmpty { releasePinned() }
    return heldRoot.take()
  }

  /// Whether a released handle left the root to the running dispatches.
  var holdsRootForDispatches: Bool { heldRoot != nil }

  func releasePinned() {
    let nodes = pinned
    pinned = []
    for node in nodes { node.unpin(from: self) }
  }

  /// After nodes left `formerParent`, moves focus that is no longer in the tree to the nearest
  /// ancestor still in it.
  func repairFocus(formerParent: Node) {
    guard let focused = focusedNode, !focused.isDescendant(of: root) else { return }
    var candidate: Node? = formerParent
    while let node = candidate, !node.isDescendant(of: root) { candidate = node._parent }
    setFocus(candidate)
  }
}

extension Node {
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

/// One node of a dispatch's path, and the serial its next modifier would have had when the
/// dispatch started: modifiers at or above it were added during the dispatch and do not run.
struct PathEntry {
  let node: Unmanaged<Node>
  let limit: UInt64
}

/// Runs dispatches: computes the path once, then the capture, bubble and error phases.
///
/// Every entry point (trigger from a node or from the focus, request, the adapter's perform, validate, items and keys,
/// synchronous or awaited) comes here: there is one route, and what makes it fast serves all of
/// them. The hot loops read nodes through `Unmanaged` references and each node's `ModifierStore`
/// with plain loads: no reference counting, no dynamic cast and no allocation per hop. Only a
/// modifier that might run takes the slow path through `runModifiers`.
///
/// Safety: the path holds its nodes unretained. The dispatch holds its root strongly, the root
/// holds every attached node (and the tree's state), and a node that leaves the tree while a dispatch
/// runs is pinned by the tree (`TreeState.pin`) until the outermost dispatch ends; an awaited
/// dispatch also holds its path's nodes strongly. A modifier's body is copied out of its node
/// before it is called, so a body that removes its own modifier (or node, or tree) stays alive
/// until it returns. Whatever user code does, no node on the path is freed before the dispatch
/// is done with it. The run reaches the action and the error through pointers to the dispatching
/// function's variables (heap memory for an awaited dispatch), which outlive the run; the outcome
/// is built from them after the run and before the dispatch lets its nodes go.
@usableFromInline
enum Dispatcher {
  /// Paths up to this many nodes live in a fixed buffer on the stack; deeper ones on the heap.
  /// (64 entries of 16 bytes: `withUnsafeTemporaryAllocation` keeps at most 1 KiB on the stack.)
  static let inlinePathCapacity = 64

  /// Dispatches `action`, whose dynamic type is `actionType`, from `target`.
  ///
  /// Not generic: the public entry points are inlinable and box the action in their caller,
  /// where its type is known, so that no dispatch pays for unspecialized generic code.
  @usableFromInline
  static func dispatch(
    _ action: consuming any Action, type actionType: ObjectIdentifier, from target: Node, trace: ActionTrace?,
    slot: RequestSlot? = nil
  ) -> ActionOutcome {
    // The run works on these variables in place, so that the action is never copied: it arrives
    // here moved, and is moved into the outcome.
    var error: (any Error)?
    let (ending, held) = run(&action, &error, type: actionType, from: target, trace: trace, slot: slot)
    // Built before the dispatch ends, while the nodes the ending names are still held.
    let outcome = ending.outcome(with: consume action, error: consume error)
    held?.end()
    return outcome
  }

  /// Dispatches a request whose answer goes to `slot`: the node that answered, or, when nobody
  /// did, the outcome. An answered request's outcome is not built, as its caller wants the answer.
  @usableFromInline
  static func dispatchRequest(
    _ action: consuming any Action, type actionType: ObjectIdentifier, from target: Node, trace: ActionTrace?,
    slot: RequestSlot
  ) -> RequestEnd {
    var error: (any Error)?
    let (ending, held) = run(&action, &error, type: actionType, from: target, trace: trace, slot: slot)
    let end: RequestEnd
    if slot.answered.pointee, case .handled(let node) = ending {
      // The node is on the path, still held: retained here for the caller.
      end = .answered(by: node.takeUnretainedValue())
      _ = consume action
      _ = consume error
    } else {
      end = .unanswered(ending.outcome(with: consume action, error: consume error))
    }
    held?.end()
    return end
  }

  /// Runs the dispatch of the action and error in `action` and `error`, in place; returns how it
  /// ended and the dispatch's hold on its tree, for the caller to end once it has read the ending.
  @inline(__always)
  static func run(
    _ action: inout any Action, _ error: inout (any Error)?, type actionType: ObjectIdentifier,
    from target: Node, trace: ActionTrace?, slot: RequestSlot?
  ) -> (DispatchRun.Ending, HeldTree?) {
    // Unretained: the caller holds the trace for the whole dispatch. (A `ActionTrace?` passed on
    // would be retained and released, a call even for `nil`, on every dispatch.)
    let trace = trace.map(Unmanaged.passUnretained)
    return withUnsafeMutablePointer(to: &action) { action in
      withUnsafeMutablePointer(to: &error) { error in
        withPath(from: target, type: actionType) { path, firstBubble, capture in
          run(
            action, error: error, type: actionType, path: path, firstBubble: firstBubble, capture: capture,
            trace: trace, slot: slot)
        }
      }
    }
  }

  /// Dispatches a request with memory set aside for its answer, of exactly `Q.Result`; returns
  /// the outcome and the answer, `nil` when nobody answered.
  @inlinable
  static func request<Q: Request>(_ request: consuming Q, from target: Node, trace: ActionTrace?) -> (
    outcome: ActionOutcome, answer: Q.Result?
  ) {
    let type = dynamicType(of: request)
    var pending: Q? = consume request
    return withAnswerSlot(for: Q.self) { slot in
      // `pending` holds the request until this line, which runs once.
      dispatch(pending.take().unsafelyUnwrapped, type: type, from: target, trace: trace, slot: slot)
    }
  }

  /// The same, for a caller that wants the answer: returns how the request ended (the outcome is
  /// built only when nobody answered) and the answer.
  @inlinable
  static func requestAnswer<Q: Request>(_ request: consuming Q, from target: Node, trace: ActionTrace?) -> (
    end: RequestEnd, answer: Q.Result?
  ) {
    let type = dynamicType(of: request)
    var pending: Q? = consume request
    return withAnswerSlot(for: Q.self) { slot in
      dispatchRequest(pending.take().unsafelyUnwrapped, type: type, from: target, trace: trace, slot: slot)
    }
  }

  /// The identity of a request's dynamic type: `Q` for a struct or enum, which cannot be
  /// subclassed, so that only a class's request is read.
  @inlinable @inline(__always)
  static func dynamicType<Q: Request>(of request: borrowing Q) -> ObjectIdentifier {
    Q.self is AnyObject.Type ? ObjectIdentifier(Swift.type(of: copy request)) : ObjectIdentifier(Q.self)
  }

  /// Calls `body` with a slot for an answer of exactly `Q.Result`, and returns what it returned
  /// and the answer, `nil` when nobody wrote one.
  ///
  /// Inlinable, so that the caller specializes it for `Q`. The answer's memory is a stack buffer
  /// of one `Q.Result`; a responder writes it only after checking that its answer is of that
  /// type (`RequestSlot.write`), and `answered` says whether it did. (A request is moved into the
  /// dispatch through an optional the closure takes it from: closures cannot consume a capture.)
  @inlinable @inline(__always)
  static func withAnswerSlot<Q: Request, R>(for type: Q.Type, _ body: (RequestSlot) -> R) -> (R, Q.Result?) {
    var answered = false
    return withUnsafeMutablePointer(to: &answered) { flag in
      withUnsafeTemporaryAllocation(of: Q.Result.self, capacity: 1) { buffer in
        // A buffer of capacity 1 always has a base address.
        let base = buffer.baseAddress.unsafelyUnwrapped
        let result = body(
          RequestSlot(pointer: UnsafeMutableRawPointer(base), resultType: Q.Result.self, answered: flag))
        let answer = flag.pointee ? base.move() : nil
        return (result, answer)
      }
    }
  }

  /// The same for an awaited request: the answer's memory is on the heap, as the dispatch may be
  /// suspended.
  nonisolated(nonsending) static func requestAwaiting<Q: Request>(
    _ request: Q, from target: Node, trace: ActionTrace?
  ) async -> (outcome: ActionOutcome, answer: Q.Result?) {
    let answered = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    answered.initialize(to: false)
    let storage = UnsafeMutablePointer<Q.Result>.allocate(capacity: 1)
    defer {
      answered.deallocate()
      storage.deallocate()
    }
    let slot = RequestSlot(
      pointer: UnsafeMutableRawPointer(storage), resultType: Q.Result.self, answered: answered)
    let outcome = await dispatchAsync(request, from: target, trace: trace, slot: slot)
    return (outcome, answered.pointee ? storage.move() : nil)
  }

  /// Calls `body` with the path from `target` to the top-most node, the position on it of the
  /// first node whose bubble filter admits `actionType` (-1 if none), and whether any capture
  /// filter on it does.
  @inline(__always)
  static func withPath<R, E: Error>(
    from target: Node, type actionType: ObjectIdentifier,
    _ body: (UnsafeBufferPointer<PathEntry>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    let mask = TypeFilter.bit(for: actionType)
    return try withUnsafeTemporaryAllocation(of: PathEntry.self, capacity: inlinePathCapacity) {
      inline throws(E) in
      // One walk records the path with each node's serial limit, notes the first node whose
      // bubble filter admits the action and whether any capture filter does. No handler runs
      // during the walk, so nothing can change under it.
      var node = Unmanaged.passUnretained(target)
      var depth = 0
      var firstBubble = -1
      var captureBits: UInt64 = 0
      while true {
        if depth == inlinePathCapacity {
          return try withDeepPath(
            continuing: UnsafeBufferPointer(inline), from: node, firstBubble: firstBubble,
            captureBits: captureBits,
            mask: mask, body)
        }
        let (up, bubble, capture, limit) = node._withUnsafeGuaranteedRef {
          ($0._up, $0.bubbleFilter, $0.captureFilter, $0.nextSerial)
        }
        inline.initializeElement(at: depth, to: PathEntry(node: node, limit: limit))
        if firstBubble < 0, bubble & mask != 0 { firstBubble = depth }
        captureBits |= capture
        depth += 1
        guard let up else { break }
        node = up
      }
      return try body(
        UnsafeBufferPointer(start: inline.baseAddress, count: depth), firstBubble, captureBits & mask != 0)
    }
  }

  /// The same for a path longer than the inline buffer, whose first entries `inline` holds and
  /// which goes on at `next`: held on the heap, in a buffer the tree lends and takes back, so that
  /// a tree that has dispatched once from that depth allocates no path again. The walks read
  /// parents unretained, as the inline one does.
  @inline(never)
  static func withDeepPath<R, E: Error>(
    continuing inline: UnsafeBufferPointer<PathEntry>, from next: Unmanaged<Node>, firstBubble: Int,
    captureBits: UInt64, mask: UInt64,
    _ body: (UnsafeBufferPointer<PathEntry>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    // A first walk finds the depth and the top, whose tree (if any) lends the buffer. The tree's
    // state outlives the dispatch's use of the buffer: the dispatch holds the root, which owns it,
    // until after this function returns (see `HeldTree`).
    var top = next
    var depth = inline.count + 1
    while let up = top._withUnsafeGuaranteedRef({ $0._up }) {
      top = up
      depth += 1
    }
    let state = top._withUnsafeGuaranteedRef { $0._state.map(Unmanaged.passUnretained) }
    let buffer =
      state?._withUnsafeGuaranteedRef { $0.takeSpareDeepPath(capacity: depth) }
      ?? .allocate(capacity: depth)
    defer {
      if let state {
        state._withUnsafeGuaranteedRef { $0.keepSpareDeepPath(buffer) }
      } else {
        buffer.deallocate()
      }
    }
    // `PathEntry` is trivial: entries are written over whatever an earlier path left.
    var count = 0
    for entry in inline {
      buffer.initializeElement(at: count, to: entry)
      count += 1
    }
    var firstBubble = firstBubble
    var captureBits = captureBits
    var node: Unmanaged<Node>? = next
    while let current = node {
      let (up, bubble, capture, limit) = current._withUnsafeGuaranteedRef {
        ($0._up, $0.bubbleFilter, $0.captureFilter, $0.nextSerial)
      }
      if firstBubble < 0, bubble & mask != 0 { firstBubble = count }
      captureBits |= capture
      buffer.initializeElement(at: count, to: PathEntry(node: current, limit: limit))
      count += 1
      node = up
    }
    return try body(UnsafeBufferPointer(rebasing: buffer[..<count]), firstBubble, captureBits & mask != 0)
  }

  /// The path from `target` up, on the heap, with the first node whose bubble filter admits
  /// `actionType` and whether any capture filter does.
  static func heapPath(from target: Node, type actionType: ObjectIdentifier) -> (
    path: ContiguousArray<PathEntry>, firstBubble: Int, capture: Bool
  ) {
    let mask = TypeFilter.bit(for: actionType)
    var path = ContiguousArray<PathEntry>()
    var firstBubble = -1
    var captureBits: UInt64 = 0
    var current: Node? = target
    while let node = current {
      if firstBubble < 0, node.bubbleFilter & mask != 0 { firstBubble = path.count }
      captureBits |= node.captureFilter
      path.append(PathEntry(node: .passUnretained(node), limit: node.nextSerial))
      current = node._parent
    }
    return (path, firstBubble, captureBits & mask != 0)
  }

  /// The top-most node of `path` and the tree it is the root of, if any (unretained: a node's
  /// tree state, once set, is never replaced, and the node owns it).
  @inline(__always)
  static func top(of path: UnsafeBufferPointer<PathEntry>) -> (Unmanaged<Node>, Unmanaged<TreeState>?) {
    // `path` is never empty: it holds at least the target.
    let top = path[path.count - 1].node
    return (top, top._withUnsafeGuaranteedRef { $0._state.map(Unmanaged.passUnretained) })
  }

  @inline(__always)
  static func run(
    _ action: UnsafeMutablePointer<any Action>, error: UnsafeMutablePointer<(any Error)?>,
    type actionType: ObjectIdentifier, path: UnsafeBufferPointer<PathEntry>, firstBubble: Int, capture: Bool,
    trace: Unmanaged<ActionTrace>?, slot: RequestSlot?
  ) -> (DispatchRun.Ending, HeldTree?) {
    let (top, state) = top(of: path)
    guard let tree = state else { return (.notDispatched(.notInTree), nil) }
    let limit = tree._withUnsafeGuaranteedRef {
      $0.dispatchDepth < $0.reentrancyLimit ? nil : $0.reentrancyLimit
    }
    if let limit { return (.notDispatched(.reentrancyLimit(limit)), nil) }
    // The root keeps every node on the path, and the tree's state it owns, alive; nodes that
    // leave the tree during the dispatch are pinned by it (see `TreeState.pin`). That is what
    // lets the path hold its nodes unretained. The root is retained unless a live handle holds it
    // (a handle released during the dispatch leaves it to the state until the dispatch ends).
    // The caller ends the dispatch (`HeldTree.end`) once it has built the outcome.
    let root = tree._withUnsafeGuaranteedRef { $0.handleHoldsRoot } ? nil : top.retain()
    tree._withUnsafeGuaranteedRef { $0.dispatchDepth += 1 }
    var run = DispatchRun(
      path: path, tree: tree, action: action, error: error, type: actionType, trace: trace, slot: slot,
      firstBubble: firstBubble, capture: capture, awaits: false)
    var step = run.run()
    // A synchronous dispatch cannot wait: an asynchronous modifier throws instead, and the error
    // travels outward like any other.
    while case .suspended(let suspension) = step {
      let node = run.node(at: suspension.index)
      step = run.resume(suspension, with: .failure(ViewTreeError.asynchronousHandler(node: node.path)))
    }
    return (run.ending, HeldTree(root: root, state: tree))
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

/// A running dispatch's hold on its tree: the root, which keeps the path's nodes alive (`nil`
/// while a live handle holds it), and the tree's state, whose dispatch depth it raised.
struct HeldTree {
  /// Retained by the dispatch, and released by `end()`; `nil` when a live handle holds it. (Not
  /// a `Node?`: releasing one that is `nil` would still be a call, on every dispatch.)
  let root: Unmanaged<Node>?
  /// Unretained: the root owns it.
  let state: Unmanaged<TreeState>

  /// Ends the dispatch: one level of nesting less, and the nodes it pinned released when none
  /// is left.
  @inline(__always)
  func end() {
    let left = state._withUnsafeGuaranteedRef { $0.leaveDispatch() }
    root?.release()
    // Released last, outside the state's method: the root owns the state.
    withExtendedLifetime(left) {}
  }
}

/// The state of one dispatch. `path[0]` is the target, `path[path.count - 1]` the root.
///
/// The dispatch is a cursor over (phase, node, modifier) so that it can stop at an asynchronous
/// modifier, let an `async` driver await it, and go on from there (see `resume`).
struct DispatchRun: ~Copyable {
  var path: UnsafeBufferPointer<PathEntry>
  /// Unretained: the dispatch holds the root, which owns it.
  let treeRef: Unmanaged<TreeState>
  /// The tree, for the slow paths.
  var tree: TreeState { treeRef.takeUnretainedValue() }
  /// Where the action is: the dispatching function's variable, which outlives the run.
  let actionPointer: UnsafeMutablePointer<any Action>
  var actionType: ObjectIdentifier
  /// `TypeFilter.bit(for: actionType)`.
  var mask: UInt64
  /// The tree's `structureVersion` when the dispatch started.
  let startVersion: UInt64
  /// Whether the caller awaits the dispatch, so that responders with an awaiting form use it.
  let awaits: Bool
  /// Unretained: the caller holds the trace for the whole dispatch.
  let traceRef: Unmanaged<ActionTrace>?
  /// The trace, if any.
  var trace: ActionTrace? { traceRef?.takeUnretainedValue() }
  let recording: Bool
  let nestingLevel: Int
  /// Where a responder writes its answer, when the caller awaits one.
  let slot: RequestSlot?
  /// How the dispatch ended so far. The outcome is built from it once, by the dispatching
  /// function (`Ending.outcome(with:error:)`): an `ActionOutcome` kept here would be copied and
  /// destroyed through its value witnesses.
  var ending = Ending.unhandled
  /// Where the error of a `caught` or `failed` ending goes: the dispatching function's variable,
  /// like the action's, so that the run itself is trivial to copy and to drop.
  let errorPointer: UnsafeMutablePointer<(any Error)?>

  /// How a dispatch ended, with its nodes unretained (they are on the path, held until the
  /// dispatch ends).
  enum Ending {
    case notDispatched(NotDispatchedReason)
    case unhandled
    case handled(by: Unmanaged<Node>)
    case caught(by: Unmanaged<Node>, thrownBy: Unmanaged<Node>)
    case failed(thrownBy: Unmanaged<Node>)

    /// The outcome of a dispatch that ended so with `action` and, if it ended with one, `error`.
    /// Called while the dispatch still holds its nodes.
    @inline(__always)
    func outcome(with action: consuming any Action, error: consuming (any Error)?) -> ActionOutcome {
      // The force unwraps: `propagate` and `finishUnhandled` set the error with every `caught`
      // and `failed` ending.
      switch self {
      case .notDispatched(let reason): .notDispatched(reason)
      case .handled(let node): .handled(by: node.takeUnretainedValue(), action: action)
      case .unhandled: .unhandled(action)
      case .caught(let catcher, let thrower):
        .caught(error!, by: catcher.takeUnretainedValue(), thrownBy: thrower.takeUnretainedValue())
      case .failed(let thrower): .failed(error!, thrownBy: thrower.takeUnretainedValue())
      }
    }
  }

  // The cursor.
  var phase: ModifierPhase
  var index: Int
  var position = 0

  // The last attachment check, reused while the tree's structure has not changed.
  var checkedVersion: UInt64 = 0
  var checkedIndex = Int.min
  var checkedResult = false

  /// What `run` and `resume` stopped at.
  enum Step {
    /// The dispatch ended; `outcome` is set.
    case finished
    /// An asynchronous modifier is waiting to be awaited.
    case suspended(Suspension)
  }

  /// An asynchronous modifier the dispatch stopped at. A class, so that `Step` stays one word and
  /// the synchronous path pays nothing for it.
  final class Suspension {
    let body: AsyncModifierBody
    let action: any Action
    let slot: RequestSlot?
    let index: Int
    let serial: UInt64
    let hint: Int
    let phase: ModifierPhase
    let info: ModifierInfo?

    init(
      body: @escaping AsyncModifierBody, action: any Action, slot: RequestSlot?, index: Int, serial: UInt64,
      hint: Int, phase: ModifierPhase, info: ModifierInfo?
    ) {
      self.body = body
      self.action = action
      self.slot = slot
      self.index = index
      self.serial = serial
      self.hint = hint
      self.phase = phase
      self.info = info
    }
  }

  init(
    path: UnsafeBufferPointer<PathEntry>, tree: Unmanaged<TreeState>,
    action: UnsafeMutablePointer<any Action>,
    error: UnsafeMutablePointer<(any Error)?>, type: ObjectIdentifier, trace: Unmanaged<ActionTrace>?,
    slot: RequestSlot?, firstBubble: Int, capture: Bool,
    awaits: Bool
  ) {
    self.path = path
    self.treeRef = tree
    self.actionPointer = action
    self.errorPointer = error
    self.actionType = type
    self.mask = TypeFilter.bit(for: actionType)
    self.startVersion = tree._withUnsafeGuaranteedRef { $0.structureVersion }
    self.awaits = awaits
    self.traceRef = trace
    self.recording = trace != nil || tree._withUnsafeGuaranteedRef { $0.stepObserver != nil }
    self.nestingLevel = tree._withUnsafeGuaranteedRef { $0.dispatchDepth } - 1
    self.slot = slot
    if capture {
      phase = .capture
      index = path.count - 1
    } else {
      // Skipping the nodes below `firstBubble` is right: they have no modifier that could run.
      phase = .bubble
      index = firstBubble < 0 ? path.count : firstBubble
    }
    self.firstBubble = firstBubble
  }

  private let firstBubble: Int

  @inline(__always)
  func node(at index: Int) -> Node { path[index].node.takeUnretainedValue() }

  /// The nodes from the target up to `path[index]`, for a responder there.
  @inline(__always)
  func passage(upTo index: Int) -> RequestPassage {
    RequestPassage(
      path: UnsafeBufferPointer(start: path.baseAddress, count: index + 1), root: path[path.count - 1].node,
      tree: treeRef, startVersion: startVersion)
  }

  /// The action, read and written in place.
  var action: any Action {
    unsafeAddress { UnsafePointer(actionPointer) }
    nonmutating unsafeMutableAddress { actionPointer }
  }

  /// The error of a `caught` or `failed` ending.
  var error: (any Error)? {
    unsafeAddress { UnsafePointer(errorPointer) }
    nonmutating unsafeMutableAddress { errorPointer }
  }

  /// The position of the first modifier of `path[index]`, at or after `start`, that might run in
  /// `phase` for the current action; -1 if none. Reference-count free.
  @inline(__always)
  func candidate(at index: Int, from start: Int, in phase: ModifierPhase) -> Int {
    let actionType = actionType
    let mask = mask
    let entry = path[index]
    let (tree, action) = (treeRef, actionPointer)
    return entry.node._withUnsafeGuaranteedRef { node in
      let filter =
        phase == .bubble ? node.bubbleFilter : phase == .capture ? node.captureFilter : TypeFilter.everything
      guard filter & mask != 0 else { return -1 }
      return node._store.firstCandidate(
        from: start, in: phase, for: actionType, below: entry.limit, tree: tree, action: action)
    }
  }

  /// Runs from the cursor until the dispatch ends or reaches an asynchronous modifier.
  mutating func run() -> Step {
    if phase == .capture {
      while index >= 0 {
        let found = candidate(at: index, from: position, in: .capture)
        if found >= 0, let step = runModifiers(at: index, from: found, in: .capture) { return step }
        index -= 1
        position = 0
      }
      // Skipping the nodes below `firstBubble` stays right after capture handlers ran: a modifier
      // added since does not see this action, and one removed cannot add a candidate.
      phase = .bubble
      index = firstBubble < 0 ? path.count : firstBubble
      position = 0
    }
    while index < path.count {
      let found = candidate(at: index, from: position, in: .bubble)
      if found >= 0, let step = runModifiers(at: index, from: found, in: .bubble) { return step }
      index += 1
      position = 0
    }
    finishUnhandled()
    return .finished
  }

  /// Goes on after the asynchronous modifier `suspension` returned `reply`.
  mutating func resume(_ suspension: Suspension, with reply: Swift.Result<ModifierReply, any Error>) -> Step {
    let node = path[suspension.index].node
    switch reply {
    case .success(let reply):
      if recording {
        record(node, suspension.phase, suspension.info, before: suspension.action, reply: reply)
      }
      if apply(reply, at: suspension.index) { return .finished }
    case .failure(let error):
      if recording {
        record(node, suspension.phase, suspension.info, before: suspension.action, .threw(error))
      }
      propagate(error, from: suspension.index, after: suspension.serial)
      return .finished
    }
    position = node._withUnsafeGuaranteedRef {
      Self.position(in: $0, after: suspension.serial, hint: suspension.hint)
    }
    return run()
  }

  // Out of line: the unhandled ending is rare, and inlined it made `run` heavier for every action.
  @inline(never)
  private mutating func finishUnhandled() {
    let target = node(at: 0)
    tree.onUnhandled?(action, target)
    if requiresHandling() {
      let error = ViewTreeError.unhandledAction(action: "\(action)", path: target.path)
      self.error = error
      ending = .failed(thrownBy: path[0].node)
    }
  }

  /// Whether the tree, or a node on the path, turns unhandled actions into errors.
  private func requiresHandling() -> Bool {
    if tree.requiresHandling { return true }
    for index in 0..<path.count where node(at: index).requiresHandling { return true }
    return false
  }

  /// Runs the modifiers of `path[index]` for `phase`, from the candidate at `start`; returns
  /// `nil` when the node has no more to run, `.finished` when the dispatch ended here, or the
  /// asynchronous modifier it stopped at.
  ///
  /// The node is held unretained: the dispatch's root holds it while it is in the tree, and the
  /// tree pins it if a modifier removes it (see `Dispatcher`).
  mutating func runModifiers(at index: Int, from start: Int, in phase: ModifierPhase) -> Step? {
    let node = path[index].node
    var position = start
    while position >= 0 {
      guard isAttached(index) else {
        if recording { record(node, phase, nil, before: action, .skippedDetachedNode) }
        return nil
      }
      let serial = node._withUnsafeGuaranteedRef { $0._store[position].serial }
      let result: ModifierResult
      if recording {
        result = runModifierRecording(at: index, position: position, phase: phase)
      } else {
        result = runModifier(at: index, position: position)
      }
      switch result {
      case .replied(let reply):
        if apply(reply, at: index) { return .finished }
      case .threw:
        // `runModifier` put the error where the ending's goes.
        propagate(error!, from: index, after: serial)
        return .finished
      case .suspended:
        let info = recording ? node._withUnsafeGuaranteedRef { $0.modifierInfo(at: position) } : nil
        return .suspended(
          suspend(
            asynchronousBody(at: index, position: position), at: index, position: position, serial: serial,
            phase: phase, info: info))
      }
      // The modifier may have changed the node's modifiers: find the next one by serial.
      let next = node._withUnsafeGuaranteedRef { Self.position(in: $0, after: serial, hint: position) }
      position = candidate(at: index, from: next, in: phase)
    }
    return nil
  }

  /// What running one modifier gave. Trivial, so that passing it costs nothing.
  enum ModifierResult {
    case replied(ModifierReply)
    /// The modifier threw; the error is in `error`.
    case threw
    /// An asynchronous modifier (or a responder's awaiting form) is to be awaited; nothing ran
    /// (see `asynchronousBody`).
    case suspended
  }

  /// The body to await for the modifier at `position` of `path[index]`, for which `runModifier`
  /// answered `.suspended`: it ran no code, so the modifier is still there.
  func asynchronousBody(at index: Int, position: Int) -> AsyncModifierBody {
    let body = path[index].node._withUnsafeGuaranteedRef { $0._store[position].body }
    switch body {
    case .respondEitherWay(let responder): return responder.awaiting
    case .asynchronous(let body): return body
    default: preconditionFailure("runModifier suspends only at asynchronous modifiers and responders")
    }
  }

  /// Runs the modifier at `position` of `path[index]` and records what it did (but for an
  /// asynchronous one, which records when it has finished). Apart from `runModifiers`, so that
  /// the untraced path stays small.
  @inline(never)
  mutating func runModifierRecording(at index: Int, position: Int, phase: ModifierPhase) -> ModifierResult {
    let node = path[index].node
    let info = node._withUnsafeGuaranteedRef { $0.modifierInfo(at: position) }
    // A copy of the action only when a trace will show it: copying an existential costs
    // reference counting through value witnesses.
    let before = action
    let result = runModifier(at: index, position: position)
    switch result {
    case .replied(let reply): record(node, phase, info, before: before, reply: reply)
    // `runModifier` put the error where the ending's goes.
    case .threw: record(node, phase, info, before: before, .threw(error!))
    case .suspended: break
    }
    return result
  }

  /// Runs the modifier at `position` of `path[index]`.
  @inline(__always)
  mutating func runModifier(at index: Int, position: Int) -> ModifierResult {
    // The body is copied out of the node before it runs, so that it stays alive when it removes
    // its own modifier (or node, or tree).
    // The candidate search has decided that a typed modifier matches: by type identity, or by the
    // tree's table of what casts said for a class or a protocol (`TreeState.isInstance`).
    let body = path[index].node._withUnsafeGuaranteedRef { $0._store[position].body }
    do {
      switch consume body {
      case .action(let body):
        // NB: through a local copy of the pointer: `&` on the run's own accessor or field makes
        // the compiler (6.3.1) emit invalid IR under ThreadSanitizer ("Invalid bitcast").
        let action = actionPointer
        return .replied(try body(&action.pointee, actionType))
      case .observeAll(let body):
        body(action)
        return .replied(.passed)
      case .handleAll(let body):
        try body(action)
        return .replied(.handled)
      case .decideAll(let body):
        return .replied(try body(action) == .handled ? .handled : .passed)
      case .observeTyped(let body):
        body()
        return .replied(.passed)
      case .handleTyped(let body):
        try body()
        return .replied(.handled)
      case .decideTyped(let body):
        return .replied(try body() == .handled ? .handled : .passed)
      case .respond(let body):
        // The request in place, as for `.action`: passing `action` would copy it.
        let action = actionPointer
        return .replied(try body(&action.pointee, actionType, slot))
      case .respondEitherWay(let responder):
        if awaits { return .suspended }
        let action = actionPointer
        return .replied(try responder.body(&action.pointee, actionType, slot, passage(upTo: index)))
      case .asynchronous:
        return .suspended
      case .error:
        return .replied(.skipped)
      }
    } catch {
      self.error = error
      return .threw
    }
  }

  mutating func suspend(
    _ body: @escaping AsyncModifierBody, at index: Int, position: Int, serial: UInt64, phase: ModifierPhase,
    info: ModifierInfo?
  ) -> Suspension {
    self.position = position
    return Suspension(
      body: body, action: action, slot: slot, index: index, serial: serial, hint: position, phase: phase,
      info: info)
  }

  /// Applies what a modifier of `path[index]` answered; returns `true` when the dispatch ends.
  @inline(__always)
  mutating func apply(_ reply: ModifierReply, at index: Int) -> Bool {
    switch reply {
    case .skipped, .passed:
      return false
    case .handled:
      ending = .handled(by: path[index].node)
      return true
    case .transformed:
      // The modifier wrote the replacement to `action`.
      actionType = ObjectIdentifier(type(of: action))
      mask = TypeFilter.bit(for: actionType)
      return false
    }
  }

  /// Sends an error a modifier of `path[start]` threw outward, from the modifier with serial
  /// `startSerial`; the dispatch ends, caught or failed.
  mutating func propagate(_ thrown: any Error, from start: Int, after startSerial: UInt64) {
    var error = thrown
    var thrower = path[start].node
    var after = startSerial
    for index in start..<path.count {
      defer { after = 0 }
      let node = node(at: index)
      guard node.catchModifierCount > 0 else { continue }
      var position = candidate(at: index, from: Self.position(in: node, after: after, hint: -1), in: .error)
      while position >= 0 {
        guard isAttached(index) else {
          if recording { record(path[index].node, .error, nil, before: action, .skippedDetachedNode) }
          break
        }
        let serial = node._store[position].serial
        guard case .error(let body) = node._store[position].body else { break }
        let info = recording ? node.modifierInfo(at: position) : nil
        do {
          if case .caught = try body(error) {
            if recording { record(path[index].node, .error, info, before: action, .caught(error)) }
            self.error = error
            ending = .caught(by: path[index].node, thrownBy: thrower)
            return
          }
        } catch let rethrown {
          if recording { record(path[index].node, .error, info, before: action, .threw(rethrown)) }
          error = rethrown
          thrower = path[index].node
        }
        let next = Self.position(in: node, after: serial, hint: position)
        position = candidate(at: index, from: next, in: .error)
      }
    }
    self.error = error
    ending = .failed(thrownBy: thrower)
  }

  /// Whether `path[index]` is still in the tree the dispatch started in: the root or one of its
  /// descendants.
  @inline(__always)
  mutating func isAttached(_ index: Int) -> Bool {
    treeRef._withUnsafeGuaranteedRef { $0.structureVersion } == startVersion || isStillAttached(index)
  }

  /// `isAttached` after the tree's structure changed during the dispatch.
  mutating func isStillAttached(_ index: Int) -> Bool {
    let version = tree.structureVersion
    if version == checkedVersion, checkedIndex == index { return checkedResult }
    let node = node(at: index)
    let result: Bool
    if version == checkedVersion, checkedIndex == index - 1, checkedResult,
      self.node(at: index - 1)._parent === node
    {
      result = true
    } else {
      result = node.isDescendant(of: self.node(at: path.count - 1))
    }
    checkedVersion = version
    checkedIndex = index
    checkedResult = result
    return result
  }

  /// The position of the first modifier with a serial above `serial`; `hint` is where the modifier
  /// with `serial` was, if the list has not changed.
  static func position(in node: Node, after serial: UInt64, hint: Int) -> Int {
    let count = node._store.count
    if hint >= 0, hint < count, node._store[hint].serial == serial { return hint + 1 }
    // The list changed under a handler (or there is no hint): serials increase along it, so the
    // first later modifier is found by bisection.
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if node._store[middle].serial <= serial { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Records what a bubble or capture modifier answered (nothing for `.skipped`: not a visit).
  func record(
    _ node: Unmanaged<Node>, _ phase: ModifierPhase, _ modifier: ModifierInfo?, before: any Action,
    reply: ModifierReply
  ) {
    switch reply {
    case .skipped: return
    case .passed: record(node, phase, modifier, before: before, .passed)
    case .handled: record(node, phase, modifier, before: before, .handled)
    case .transformed: record(node, phase, modifier, before: before, .transformed)
    }
  }

  /// Gives a step to the trace and the tree's step observer. Called only when `recording`.
  func record(
    _ node: Unmanaged<Node>, _ phase: ModifierPhase, _ modifier: ModifierInfo?, before: any Action,
    _ result: StepResult
  ) {
    let phase: ActionPhase =
      switch phase {
      case .capture: .capture
      case .bubble: .bubble
      case .error: .error
      }
    let step = ActionStep(
      node: node.takeUnretainedValue(), phase: phase, modifier: modifier, actionBefore: before,
      actionAfter: action, result: result, nestingLevel: nestingLevel)
    trace?.record(step)
    tree.stepObserver?(step)
  }
}

extension Dispatcher {
  /// Runs a dispatch that may await asynchronous modifiers, on the caller's actor.
  ///
  /// The same dispatch as the synchronous one, except that it stops at an asynchronous modifier
  /// (or a responder's awaiting form), awaits it, and goes on. The dispatch holds its path's nodes
  /// strongly, so nodes removed while a modifier is suspended stay valid until it ends. It counts
  /// as one nested dispatch in its tree until it finishes, suspended or not, so an asynchronous
  /// handler that triggers its own action again stops at the reentrancy limit like a synchronous
  /// one.
  nonisolated(nonsending) static func dispatchAsync<A: Action>(
    _ action: A, from target: Node, trace: ActionTrace?, slot: RequestSlot?
  ) async -> ActionOutcome {
    let actionType = ObjectIdentifier(type(of: action))
    let (entries, firstBubble, capture) = heapPath(from: target, type: actionType)
    // Strong references to the path's nodes for as long as the dispatch may be suspended.
    let nodes = entries.map { $0.node.takeUnretainedValue() }
    // `nodes` is never empty: it holds at least the target.
    guard let tree = nodes[nodes.count - 1]._state else { return .notDispatched(.notInTree) }
    guard tree.dispatchDepth < tree.reentrancyLimit else {
      return .notDispatched(.reentrancyLimit(tree.reentrancyLimit))
    }
    let path = UnsafeMutableBufferPointer<PathEntry>.allocate(capacity: entries.count)
    defer { path.deallocate() }
    _ = path.initialize(from: entries)
    // On the heap, as the dispatch may be suspended while modifiers write to it.
    let actionStorage = UnsafeMutablePointer<any Action>.allocate(capacity: 1)
    defer { actionStorage.deallocate() }
    actionStorage.initialize(to: action)
    let errorStorage = UnsafeMutablePointer<(any Error)?>.allocate(capacity: 1)
    defer { errorStorage.deallocate() }
    errorStorage.initialize(to: nil)

    tree.dispatchDepth += 1
    var run = DispatchRun(
      path: UnsafeBufferPointer(path), tree: .passUnretained(tree), action: actionStorage,
      error: errorStorage,
      type: actionType,
      trace: trace.map(Unmanaged.passUnretained), slot: slot, firstBubble: firstBubble, capture: capture,
      awaits: true)
    var step = run.run()
    while case .suspended(let suspension) = step {
      let reply: Swift.Result<ModifierReply, any Error>
      do {
        // Cancellation of the awaiting task reaches the handlers as a thrown error.
        try Task.checkCancellation()
        reply = .success(
          try await suspension.body(suspension.action, suspension.slot, run.passage(upTo: suspension.index)))
      } catch {
        reply = .failure(error)
      }
      step = run.resume(suspension, with: reply)
    }
    let outcome = run.ending.outcome(with: actionStorage.move(), error: errorStorage.move())
    let left = tree.leaveDispatch()
    withExtendedLifetime(nodes) {}
    withExtendedLifetime(left) {}
    return outcome
  }
}

// MARK: - Answers and matching

/// The nodes a request passed on its way to the responder answering it: from the node it was sent
/// from up to the responder's own, as the dispatch's path holds them. Valid only while the
/// responder that was given it runs (it reads the dispatch's path, which ends with the dispatch).
@usableFromInline
package struct RequestPassage {
  let path: UnsafeBufferPointer<PathEntry>
  let root: Unmanaged<Node>
  let tree: Unmanaged<TreeState>
  let startVersion: UInt64

  /// Calls `body` with each node the request passed that is still in the tree, nearest first,
  /// ending with the responder's node: a node removed from the tree during the dispatch is
  /// skipped, as its modifiers are.
  ///
  /// Only nodes with attachments (see ``Node/hasAttachments``) are given: what a responder reads
  /// from the nodes it was passed.
  ///
  /// `body` may change the tree: each node's turn checks that it is still in it.
  package func forEachNodeWithAttachments(_ body: (Node) throws -> Void) rethrows {
    for index in 0..<count {
      // The dispatch keeps every node of its path alive, pinning those that leave the tree (see
      // `Dispatcher`), so the node needs no retain.
      try node(at: index)._withUnsafeGuaranteedRef { node in
        guard node.hasAttachments, isUnchanged || isAttached(node) else { return }
        try body(node)
      }
    }
  }

  private var count: Int { path.count }
  private func node(at index: Int) -> Unmanaged<Node> { path[index].node }

  /// Whether the tree's structure is as it was when the dispatch started: then every node of the
  /// path is still in it.
  private var isUnchanged: Bool {
    tree._withUnsafeGuaranteedRef { $0.structureVersion } == startVersion
  }

  /// Whether `node` is still in the tree the dispatch started in.
  private func isAttached(_ node: Node) -> Bool {
    root._withUnsafeGuaranteedRef { node.isDescendant(of: $0) }
  }
}

/// Where a responder writes its answer: memory the caller of `request` set aside for a value of
/// one type.
@usableFromInline
struct RequestSlot {
  /// Uninitialized memory for one `resultType` value.
  @usableFromInline let pointer: UnsafeMutableRawPointer
  @usableFromInline let resultType: Any.Type
  /// Set to `true` once the answer is written.
  @usableFromInline let answered: UnsafeMutablePointer<Bool>

  @usableFromInline
  init(pointer: UnsafeMutableRawPointer, resultType: Any.Type, answered: UnsafeMutablePointer<Bool>) {
    self.pointer = pointer
    self.resultType = resultType
    self.answered = answered
  }

  /// Writes a responder's answer, checking that it is of the type the caller expects.
  /// The answer is moved in, not copied.
  @inlinable
  func write<Result>(_ answer: consuming Result) throws {
    guard ObjectIdentifier(resultType) == ObjectIdentifier(Result.self) else {
      throw ResultTypeMismatch(expected: resultType, found: Result.self)
    }
    // The caller allocated the memory for exactly one `resultType`, which is `Result`.
    pointer.assumingMemoryBound(to: Result.self).initialize(to: answer)
    answered.pointee = true
  }
}

/// How a request's dispatch ended: answered by a node, or not, with the outcome that says why.
@usableFromInline
package enum RequestEnd {
  case answered(by: Node)
  case unanswered(ActionOutcome)
}

/// Calls `body` with the action as a `T` when its dynamic type is `T` or converts to `T`;
/// returns `.skipped` otherwise. `actionType` is the identity of the action's dynamic type, which
/// the dispatcher passes along.
///
/// The identities are compared first: for a modifier of a concrete struct or enum type, the only
/// kind the dispatcher calls with a matching identity alone (see `ModifierEntry.exactOnly`), that
/// decides without asking the runtime. It never forms a `T?`: the modifier closures that call it
/// run unspecialized, and instantiating `Optional<T>`'s metadata on every call would cost more
/// than the whole hop.
@inlinable @inline(__always)
func withMatch<T>(
  _ action: any Action, type actionType: ObjectIdentifier, as type: T.Type,
  _ body: (T) throws -> ModifierReply
) rethrows -> ModifierReply {
  if actionType == ObjectIdentifier(T.self) {
    // The types are identical. A value the existential stores in its inline buffer (at most
    // three words, word-aligned, bitwise takable: the runtime's rule) is read in place,
    // borrowed: no copy, so no reference counting through value witnesses.
    if MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size,
      MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment, _isBitwiseTakable(T.self)
    {
      return try withUnsafePointer(to: action) { container in
        try UnsafeRawPointer(container).withMemoryRebound(to: T.self, capacity: 1) { try body($0.pointee) }
      }
    }
    // Otherwise this opens the existential and reinterprets the value.
    func open<A: Action>(_ value: A) throws -> ModifierReply {
      try body(unsafeBitCast(value, to: T.self))
    }
    return try open(action)
  }
  guard action is T else { return .skipped }
  // `is` just succeeded, so the forced cast cannot fail.
  return try body(action as! T)
}

/// `withMatch` for a body that reads the action in place: a value stored inline in the
/// existential is lent to `body` rather than copied out of it (responders use it; a transform,
/// which writes the action while it runs, cannot).
@inlinable @inline(__always)
func withMatchInPlace<T>(
  _ action: inout any Action, type actionType: ObjectIdentifier, as type: T.Type,
  _ body: (inout T) throws -> ModifierReply
) rethrows -> ModifierReply {
  if actionType == ObjectIdentifier(T.self), MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size,
    MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment, _isBitwiseTakable(T.self)
  {
    // The same layout rule as `withMatch`: the value is the existential's inline buffer.
    return try withUnsafeMutablePointer(to: &action) { container in
      try UnsafeMutableRawPointer(container).withMemoryRebound(to: T.self, capacity: 1) {
        try body(&$0.pointee)
      }
    }
  }
  return try withMatch(action, type: actionType, as: type) { value in
    var value = value
    return try body(&value)
  }
}

/// Whether the action is a `T`, for the modifier forms that do not read it: by type identity
/// first, by a dynamic cast otherwise.
@inline(__always)
func isMatch<T>(_ action: any Action, _ actionType: ObjectIdentifier, _ type: T.Type) -> Bool {
  actionType == ObjectIdentifier(T.self) || action is T
}

/// Whether the action is an instance of `type` (a subclass, a conforming type): the dispatcher's
/// check for a value-less typed modifier whose type is a class or a protocol existential.
func isInstance<M>(_ action: any Action, of type: M.Type) -> Bool { action is M }

extension Node {
  /// The action as a `T`, for asynchronous bodies (which cannot use the synchronous `withMatch`).
  @usableFromInline
  static func match<T>(_ action: any Action, as type: T.Type) -> T? {
    func open<A: Action>(_ value: A) -> T? { A.self == T.self ? unsafeBitCast(value, to: T.self) : nil }
    return open(action) ?? action as? T
  }
}
