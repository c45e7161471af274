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
    slot: RequestSlot?, firstBubble: Int, capture: Bool, bubbleEnd: Int,
    awaits: Bool
  ) {
    self.bubbleEnd = bubbleEnd
    self.path = path
    self.treeRef = tree
    self.actionPointer = action
    self.errorPointer = error
    self.actionType = type
    self.mask = TypeFilter.bit(for: actionType)
    self.startVersion = tree._withUnsafeGuaranteedRef { $0._structureVersion }
    self.awaits = awaits
    self.traceRef = trace
    self.recording = trace != nil || tree._withUnsafeGuaranteedRef { $0._settings.stepObserver != nil }
    self.nestingLevel = tree._withUnsafeGuaranteedRef { $0._dispatchDepth } - 1
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
  /// The bubble phase runs up to this position of the path, excluded: the path's length, or 1
  /// for an action delivered to its target only.
  private let bubbleEnd: Int

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
        phase == .bubble
        ? node._bubbleFilter : phase == .capture ? node._captureFilter : TypeFilter.everything
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
    while index < bubbleEnd {
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
    // A notification nobody took (a pointer move over a label) is the usual case, not a report.
    guard action.typeExpectsHandler, nestingLevel != tree._unreportedLevel else { return }
    if let onUnhandled = treeRef._withUnsafeGuaranteedRef({ $0._settings.onUnhandled }) {
      onUnhandled(action, node(at: 0))
    }
    if requiresHandling() {
      let error = ViewTreeError.unhandledAction(action: "\(action)", path: node(at: 0).path)
      self.error = error
      ending = .failed(thrownBy: path[0].node)
    }
  }

  /// Whether the tree, or a node on the path, turns unhandled actions into errors.
  private func requiresHandling() -> Bool {
    if treeRef._withUnsafeGuaranteedRef({ $0._settings.requiresHandling }) { return true }
    // Read in place: the path holds its nodes unretained, and no user code runs here.
    for index in 0..<path.count where path[index].node._withUnsafeGuaranteedRef({ $0.requiresHandling }) {
      return true
    }
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
      let reply: ModifierReply
      if recording {
        reply = runModifierRecording(at: index, position: position, phase: phase)
      } else {
        reply = runModifier(at: index, position: position)
      }
      switch reply {
      case .skipped, .passed, .handled, .transformed:
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
  mutating func runModifierRecording(at index: Int, position: Int, phase: ModifierPhase) -> ModifierReply {
    let node = path[index].node
    let info = node._withUnsafeGuaranteedRef { $0.modifierInfo(at: position) }
    // A copy of the action only when a trace will show it: copying an existential costs
    // reference counting through value witnesses.
    let before = action
    let reply = runModifier(at: index, position: position)
    record(node, phase, info, before: before, reply: reply)
    return reply
  }

  /// Runs the modifier at `position` of `path[index]`.
  @inline(__always)
  mutating func runModifier(at index: Int, position: Int) -> ModifierReply {
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
        return try body(&action.pointee, actionType)
      case .targeted(let body):
        let action = actionPointer
        // The target is the path's first node, alive while the dispatch runs (invariant 2).
        return try body(&action.pointee, actionType, path[0].node.takeUnretainedValue())
      case .observeAll(let body):
        body(action)
        return .passed
      case .handleAll(let body):
        try body(action)
        return .handled
      case .decideAll(let body):
        return try body(action) == .handled ? .handled : .passed
      case .respond(let body):
        // The request in place, as for `.action`: passing `action` would copy it.
        let action = actionPointer
        return try body(&action.pointee, actionType, slot)
      case .respondEitherWay(let responder):
        if awaits { return .suspended }
        let action = actionPointer
        return try responder.body(&action.pointee, actionType, slot, passage(upTo: index))
      case .asynchronous:
        return .suspended
      case .error:
        return .skipped
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
    // `runModifiers` ends the dispatch on `.threw` and stops at `.suspended` before it applies a
    // reply, and an awaited body answers neither: they change nothing here.
    case .skipped, .passed, .threw, .suspended:
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
    treeRef._withUnsafeGuaranteedRef { $0._structureVersion } == startVersion || isStillAttached(index)
  }

  /// `isAttached` after the tree's structure changed during the dispatch.
  mutating func isStillAttached(_ index: Int) -> Bool {
    let version = tree._structureVersion
    if version == checkedVersion, checkedIndex == index { return checkedResult }
    let node = node(at: index)
    let result: Bool
    if version == checkedVersion, checkedIndex == index - 1, checkedResult,
      self.node(at: index - 1).activeParent === node
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
    // `runModifier` put the error where the ending's goes.
    case .threw: record(node, phase, modifier, before: before, .threw(error!))
    // Recorded when the awaited modifier has finished.
    case .suspended: return
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
    tree._settings.stepObserver?(step)
  }
}
