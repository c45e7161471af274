/// Runs dispatches: computes the path once, then the capture, bubble and error phases.
///
/// Every entry point (trigger from a node or from the focus, request, the adapter's perform, validate, items and keys,
/// synchronous or awaited) comes here: there is one route, and what makes it fast serves all of
/// them. The hot loops read nodes through `Unmanaged` references and each node's `ModifierStore`
/// with plain loads: no reference counting, no dynamic cast and no allocation per hop. Only a
/// modifier that might run takes the slow path through `runModifiers`.
///
/// Safety: the path holds its nodes unretained; invariant 2 of `INVARIANTS.md` (path liveness)
/// is what keeps them alive. The run reaches the action and the error through pointers to the
/// dispatching function's variables (heap memory for an awaited dispatch), which outlive the run;
/// the outcome is built from them after the run and before the dispatch lets its nodes go.
@usableFromInline
enum Dispatcher {
  /// Paths up to this many nodes live in a fixed buffer on the stack; deeper ones on the heap.
  /// (64 entries of 16 bytes: `withUnsafeTemporaryAllocation` keeps at most 1 KiB on the stack.)
  static let inlinePathCapacity = 64

  /// Dispatches `action`, whose dynamic type is `actionType`, from `target`.
  ///
  /// Not generic: the entry points users call are inlinable and box the action in their caller,
  /// where its type is known, so that no dispatch pays for unspecialized generic code.
  @usableFromInline
  static func dispatch(
    _ action: consuming any Action, type actionType: ObjectIdentifier, from target: Node, trace: ActionTrace?,
    slot: RequestSlot? = nil
  ) -> ActionOutcome {
    // The run works on these variables in place, so that the action is never copied: it arrives
    // here moved, and is moved into the outcome.
    var error: (any Error)?
    let (ending, held) = run(
      &action, &error, type: actionType, from: target, trace: trace, slot: slot, targetOnly: false)
    // Built before the dispatch ends, while the nodes the ending names are still held.
    let outcome = ending.outcome(with: consume action, error: consume error)
    held?.end()
    return outcome
  }

  /// The same dispatch for an action that does not bubble (a pointer entering a node): only the
  /// target's own bubble modifiers run, no capture and none above it; an error a modifier throws
  /// still travels outward to the `catchError` modifiers above. (The same `run`, given a
  /// constant, so that neither entry tests it at run time.)
  static func dispatchToTarget(
    _ action: consuming any Action, type actionType: ObjectIdentifier, from target: Node
  )
    -> ActionOutcome
  {
    var error: (any Error)?
    let (ending, held) = run(
      &action, &error, type: actionType, from: target, trace: nil, slot: nil, targetOnly: true)
    let outcome = ending.outcome(with: consume action, error: consume error)
    held?.end()
    return outcome
  }

  /// Dispatches a request whose answer goes to `slot`: the node that answered, or, when nobody
  /// did, the outcome.
  @usableFromInline
  static func dispatchRequest(
    _ action: consuming any Action, type actionType: ObjectIdentifier, from target: Node, trace: ActionTrace?,
    slot: RequestSlot
  ) -> RequestEnd {
    var error: (any Error)?
    let (ending, held) = run(
      &action, &error, type: actionType, from: target, trace: trace, slot: slot, targetOnly: false)
    let end = RequestEnd(
      ending, answered: slot.answered.pointee, action: consume action, error: consume error)
    held?.end()
    return end
  }

  /// Runs the dispatch of the action and error in `action` and `error`, in place; returns how it
  /// ended and the dispatch's hold on its tree, for the caller to end once it has read the ending.
  @inline(__always)
  static func run(
    _ action: inout any Action, _ error: inout (any Error)?, type actionType: ObjectIdentifier,
    from target: Node, trace: ActionTrace?, slot: RequestSlot?, targetOnly: Bool
  ) -> (DispatchRun.Ending, HeldTree?) {
    // Unretained: the caller holds the trace for the whole dispatch. (A `ActionTrace?` passed on
    // would be retained and released, a call even for `nil`, on every dispatch.)
    let trace = trace.map(Unmanaged.passUnretained)
    return withUnsafeMutablePointer(to: &action) { action in
      withUnsafeMutablePointer(to: &error) { error in
        withPath(from: target, type: actionType) { path, firstBubble, capture in
          run(
            action, error: error, type: actionType, path: path,
            firstBubble: targetOnly ? (firstBubble == 0 ? 0 : -1) : firstBubble,
            capture: capture && !targetOnly,
            bubbleEnd: targetOnly ? 1 : path.count, trace: trace, slot: slot)
        }
      }
    }
  }

  /// Dispatches a request with memory set aside for its answer, of exactly `Q.Result`.
  @inlinable
  static func request<Q: Request>(_ request: consuming Q, from target: Node, trace: ActionTrace?)
    -> RequestResult<Q.Result>
  {
    let type = dynamicType(of: request)
    var pending: Q? = consume request
    return withAnswerSlot(for: Q.self) { slot in
      // `pending` holds the request until this line, which runs once.
      dispatchRequest(pending.take().unsafelyUnwrapped, type: type, from: target, trace: trace, slot: slot)
    }
  }

  /// The identity of a request's dynamic type: `Q` for a struct or enum, which cannot be
  /// subclassed, so that only a class's request is read.
  @inlinable @inline(__always)
  static func dynamicType<Q: Request>(of request: borrowing Q) -> ObjectIdentifier {
    Q.self is AnyObject.Type ? ObjectIdentifier(Swift.type(of: copy request)) : ObjectIdentifier(Q.self)
  }

  /// Calls `body` with a slot for an answer of exactly `Q.Result`, and returns the request's
  /// result: the answer `body`'s dispatch wrote, or why there is none.
  ///
  /// Inlinable, so that the caller specializes it for `Q`. The answer's memory is a stack buffer
  /// of one `Q.Result`; a responder writes it only after checking that its answer is of that
  /// type (`RequestSlot.write`), and `answered` says whether it did. (A request is moved into the
  /// dispatch through an optional the closure takes it from: closures cannot consume a capture.)
  @inlinable @inline(__always)
  static func withAnswerSlot<Q: Request>(for type: Q.Type, _ body: (RequestSlot) -> RequestEnd)
    -> RequestResult<Q.Result>
  {
    var answered = false
    return withUnsafeMutablePointer(to: &answered) { flag in
      withUnsafeTemporaryAllocation(of: Q.Result.self, capacity: 1) { buffer in
        // A buffer of capacity 1 always has a base address.
        let base = buffer.baseAddress.unsafelyUnwrapped
        // A temporary, consumed where it is made: a named `RequestEnd` would be copied.
        return body(
          RequestSlot(pointer: UnsafeMutableRawPointer(base), resultType: Q.Result.self, answered: flag)
        )
        .result(movingAnswerFrom: base)
      }
    }
  }

  /// The same for an awaited request: the answer's memory is on the heap, as the dispatch may be
  /// suspended.
  nonisolated(nonsending) static func requestAwaiting<Q: Request>(
    _ request: Q, from target: Node, trace: ActionTrace?
  ) async -> RequestResult<Q.Result> {
    let answered = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    answered.initialize(to: false)
    let storage = UnsafeMutablePointer<Q.Result>.allocate(capacity: 1)
    defer {
      answered.deallocate()
      storage.deallocate()
    }
    let slot = RequestSlot(
      pointer: UnsafeMutableRawPointer(storage), resultType: Q.Result.self, answered: answered)
    let end = await runAwaiting(request, from: target, trace: trace, slot: slot) { ending, action, error in
      RequestEnd(ending, answered: answered.pointee, action: action, error: error)
    }
    return end.result(movingAnswerFrom: storage)
  }

  @inline(__always)
  static func run(
    _ action: UnsafeMutablePointer<any Action>, error: UnsafeMutablePointer<(any Error)?>,
    type actionType: ObjectIdentifier, path: UnsafeBufferPointer<PathEntry>, firstBubble: Int, capture: Bool,
    bubbleEnd: Int, trace: Unmanaged<ActionTrace>?, slot: RequestSlot?
  ) -> (DispatchRun.Ending, HeldTree?) {
    let (top, state) = top(of: path)
    guard let tree = state else { return (.notDispatched(notDispatchedReason(top: top)), nil) }
    // No modifier on the path can run, and nobody handling the action is no report: it ends
    // unhandled here, as the run would end it, without holding the tree for a run.
    if firstBubble < 0, !capture, !action.pointee.typeExpectsHandler { return (.unhandled, nil) }
    let limit = tree._withUnsafeGuaranteedRef {
      $0._dispatchDepth < $0._settings.reentrancyLimit ? nil : $0._settings.reentrancyLimit
    }
    if let limit { return (.notDispatched(.reentrancyLimit(limit)), nil) }
    // The root keeps every node on the path, and the tree's state it owns, alive; nodes that
    // leave the tree during the dispatch are pinned by it (see `TreeState.pin`). That is what
    // lets the path hold its nodes unretained. The root is retained unless a live handle holds it
    // (a handle released during the dispatch leaves it to the state until the dispatch ends).
    // The caller ends the dispatch (`HeldTree.end`) once it has built the outcome.
    let root = tree._withUnsafeGuaranteedRef { $0._handleHoldsRoot } ? nil : top.retain()
    tree._withUnsafeGuaranteedRef { $0._dispatchDepth += 1 }
    var run = DispatchRun(
      path: path, tree: tree, action: action, error: error, type: actionType, trace: trace, slot: slot,
      firstBubble: firstBubble, capture: capture, bubbleEnd: bubbleEnd, awaits: false)
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

extension Dispatcher {
  /// Dispatches `action` from `target`, awaiting asynchronous modifiers on the caller's actor.
  nonisolated(nonsending) static func dispatchAwaiting<A: Action>(
    _ action: A, from target: Node, trace: ActionTrace?
  ) async -> ActionOutcome {
    await runAwaiting(action, from: target, trace: trace, slot: nil) { ending, action, error in
      ending.outcome(with: action, error: error)
    }
  }

  /// Runs a dispatch that may await asynchronous modifiers, on the caller's actor, and returns
  /// what `finish` makes of how it ended, the action and the error; `finish` runs while the
  /// dispatch still holds its nodes.
  ///
  /// The same run as the synchronous dispatch, except that it stops at an asynchronous modifier
  /// (or a responder's awaiting form), awaits it, and goes on; the action, the error and the path
  /// are on the heap, as the dispatch may be suspended. It holds its root strongly and counts as
  /// one nested dispatch in its tree until it finishes, suspended or not: so the nodes removed
  /// meanwhile are pinned (invariant 2 of `INVARIANTS.md`), and an asynchronous handler that
  /// triggers its own action again stops at the reentrancy limit like a synchronous one.
  nonisolated(nonsending) static func runAwaiting<A: Action, R>(
    _ action: A, from target: Node, trace: ActionTrace?, slot: RequestSlot?,
    finish: (DispatchRun.Ending, consuming any Action, consuming (any Error)?) -> R
  ) async -> R {
    let actionType = ObjectIdentifier(type(of: action))
    let (path, firstBubble, capture) = allocatedPath(from: target, type: actionType)
    defer { path.deallocate() }
    let (top, state) = top(of: UnsafeBufferPointer(path))
    guard let treeRef = state else {
      return finish(.notDispatched(notDispatchedReason(top: top)), action, nil)
    }
    let root = top.takeUnretainedValue()
    let tree = treeRef.takeUnretainedValue()
    guard tree._dispatchDepth < tree._settings.reentrancyLimit else {
      return finish(.notDispatched(.reentrancyLimit(tree._settings.reentrancyLimit)), action, nil)
    }
    let actionStorage = UnsafeMutablePointer<any Action>.allocate(capacity: 1)
    defer { actionStorage.deallocate() }
    actionStorage.initialize(to: action)
    let errorStorage = UnsafeMutablePointer<(any Error)?>.allocate(capacity: 1)
    defer { errorStorage.deallocate() }
    errorStorage.initialize(to: nil)

    tree._dispatchDepth += 1
    var run = DispatchRun(
      path: UnsafeBufferPointer(path), tree: treeRef, action: actionStorage, error: errorStorage,
      type: actionType, trace: trace.map(Unmanaged.passUnretained), slot: slot, firstBubble: firstBubble,
      capture: capture, bubbleEnd: path.count, awaits: true)
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
    let result = finish(run.ending, actionStorage.move(), errorStorage.move())
    let left = tree.leaveDispatch()
    withExtendedLifetime(root) {}
    withExtendedLifetime(left) {}
    return result
  }
}

extension Dispatcher {
  /// Whether a dispatch of an action of type `A` from a path whose nodes' type filters (bubble
  /// and capture together) are `filter` might do anything but end at once: a modifier on the
  /// path might run, or nobody handling it is worth a report (`Action.expectsHandler`). A caller
  /// that learnt a path's filters on a walk of its own (the pointer's hit descent) skips the
  /// dispatch when not, as the dispatch itself would end it, unhandled, without walking.
  @inline(__always)
  static func mayRun<A: Action>(_ type: A.Type, onPathWith filter: UInt64) -> Bool {
    A.expectsHandler || filter & TypeFilter.bit(for: ObjectIdentifier(A.self)) != 0
  }
}

extension Dispatcher {
  /// Why a path whose top-most node is `top`, which is no tree's root, is not dispatched: it ends
  /// at an inactive node, or in no tree.
  static func notDispatchedReason(top: Unmanaged<Node>) -> NotDispatchedReason {
    top._withUnsafeGuaranteedRef { $0.isInactive } ? .inactive : .notInTree
  }
}

extension Node {
  /// Delivers `action` to this node alone: its own bubble modifiers run, none above or in
  /// capture (see `Dispatcher.dispatchToTarget`), for a pointer entering or leaving it.
  ///
  /// A node none of whose modifiers may take the action is passed over without walking its
  /// path, when nobody handling the action is no report (`Action.expectsHandler`): hovering over
  /// a deep chain costs a filter test per node that has no hover handler (and a look at its
  /// modifiers when the filter admits the type by a collision).
  func deliver<A: Action>(_ action: A) {
    let type = ObjectIdentifier(A.self)
    if !A.expectsHandler,
      _bubbleFilter & TypeFilter.bit(for: type) == 0 || !_store.mayRun(in: .bubble, for: type)
    {
      return
    }
    _ = Dispatcher.dispatchToTarget(action, type: type, from: self)
  }
}
