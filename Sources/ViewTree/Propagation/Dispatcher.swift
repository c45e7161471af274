/// Runs dispatches: computes the path once, then the capture, bubble and error phases.
///
/// The hot loops read nodes through `Unmanaged` references and each node's `ModifierKeys` with
/// plain loads: no reference counting, no dynamic cast and no allocation per hop. Only a modifier
/// that might run takes the slow path through `runModifiers`.
enum Dispatcher {
  /// Paths up to this many nodes live in a fixed buffer on the stack; deeper ones on the heap.
  static let inlinePathCapacity = 128

  static func dispatch<A: Action>(
    _ action: A, from target: Node, trace: ActionTrace?, slot: RequestSlot? = nil
  ) -> ActionOutcome {
    let actionType = ObjectIdentifier(type(of: action))
    return withPath(from: target, type: actionType) { path, firstBubble, capture in
      run(
        action, type: actionType, path: path, firstBubble: firstBubble, capture: capture, trace: trace,
        slot: slot)
    }
  }

  /// Dispatches a synchronous request sent by `Node.request`; throws when it got no answer.
  ///
  /// When the first modifier on the path that might see the request is a synchronous responder
  /// for exactly its type, and nothing watches (no capture modifier for it, no trace, no step
  /// observer), the dispatch would consist of calling that responder; so it is called directly,
  /// with the request and the answer passed by pointer, and nothing is boxed. Otherwise the
  /// request goes through `run` like any action, boxed by `boxed`.
  ///
  /// - Parameters:
  ///   - request: The request, of type `requestType`.
  ///   - slot: Where the answer goes, of the request's `Result` type.
  static func dispatchRequest(
    _ request: UnsafeRawPointer, type requestType: any Action.Type, from target: Node, trace: ActionTrace?,
    slot: RequestSlot, boxed: () -> any Action
  ) throws(RequestError) {
    if trace == nil {
      let answered = try withPath(from: target, type: ObjectIdentifier(requestType)) {
        path, firstBubble, capture throws(RequestError) in
        guard !capture, firstBubble >= 0 else { return false }
        return try respondDirectly(
          request, type: requestType, path: path, firstBubble: firstBubble, slot: slot, boxed: boxed)
      }
      if answered { return }
    }
    // Walking the path again costs little next to the general dispatch.
    let outcome = dispatch(boxed(), from: target, trace: trace, slot: slot)
    if !slot.answered.pointee { throw RequestError(requestType, from: target, outcome: outcome) }
  }

  /// Calls `body` with the path from `target` to the top-most node, the position on it of the
  /// first node whose bubble filter admits `actionType` (-1 if none), and whether any capture
  /// filter on it does.
  @inline(__always)
  static func withPath<R, E: Error>(
    from target: Node, type actionType: ObjectIdentifier,
    _ body: (UnsafeBufferPointer<Unmanaged<Node>>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    let mask = TypeFilter.bit(for: actionType)
    return try withUnsafeTemporaryAllocation(of: Unmanaged<Node>.self, capacity: inlinePathCapacity) {
      inline throws(E) in
      // One walk records the path, notes the first node whose bubble filter admits the action and
      // whether any capture filter does. No handler runs during the walk, so nothing can change
      // under it.
      var node = Unmanaged.passUnretained(target)
      var depth = 0
      var firstBubble = -1
      var captureBits: UInt64 = 0
      while true {
        if depth == inlinePathCapacity {
          return try withDeepPath(from: target, type: actionType, body)
        }
        inline.initializeElement(at: depth, to: node)
        let (up, bubble, capture) = node._withUnsafeGuaranteedRef {
          ($0._up, $0.bubbleFilter, $0.captureFilter)
        }
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

  /// The same for a path longer than the inline buffer: held on the heap.
  @inline(never)
  static func withDeepPath<R, E: Error>(
    from target: Node, type actionType: ObjectIdentifier,
    _ body: (UnsafeBufferPointer<Unmanaged<Node>>, _ firstBubble: Int, _ capture: Bool) throws(E) -> R
  ) throws(E) -> R {
    let mask = TypeFilter.bit(for: actionType)
    var path = ContiguousArray<Unmanaged<Node>>()
    var firstBubble = -1
    var captureBits: UInt64 = 0
    var current: Node? = target
    while let node = current {
      if firstBubble < 0, node.bubbleFilter & mask != 0 { firstBubble = path.count }
      captureBits |= node.captureFilter
      path.append(.passUnretained(node))
      current = node._parent
    }
    return try path.withUnsafeBufferPointer { buffer throws(E) in
      try body(buffer, firstBubble, captureBits & mask != 0)
    }
  }

  /// The tree a dispatch along `path` runs in: the tree whose root is the path's top-most node.
  @inline(__always)
  static func tree(of path: UnsafeBufferPointer<Unmanaged<Node>>) -> NodeTree? {
    // `path` is never empty: it holds at least the target.
    path[path.count - 1]._withUnsafeGuaranteedRef { $0.treeRootedHere }
  }

  /// The fast path of `dispatchRequest`: calls the responder directly if it is the first modifier
  /// on the path that might run; returns `false`, having run nothing, if not.
  private static func respondDirectly(
    _ request: UnsafeRawPointer, type requestType: any Action.Type,
    path: UnsafeBufferPointer<Unmanaged<Node>>, firstBubble: Int, slot: RequestSlot, boxed: () -> any Action
  ) throws(RequestError) -> Bool {
    let identity = ObjectIdentifier(requestType)
    guard let tree = tree(of: path) else { return false }
    // A step observer must see the step; at the reentrancy limit, the general path reports it.
    let general = Unmanaged.passUnretained(tree)._withUnsafeGuaranteedRef {
      $0.stepObserver != nil || $0.dispatchDepth >= $0.reentrancyLimit
    }
    guard !general else { return false }
    // The same search `DispatchRun.run` makes in the bubble phase, stopping at the first candidate.
    let generation = Generation.current
    let mask = TypeFilter.bit(for: identity)
    var index = firstBubble
    var position = -1
    while index < path.count {
      position = path[index]._withUnsafeGuaranteedRef { node in
        guard node.bubbleFilter & mask != 0 else { return -1 }
        return node._keys.firstCandidate(from: 0, in: .bubble, for: identity, addedBy: generation)
      }
      if position >= 0 { break }
      index += 1
    }
    // No candidate at all: the general path reports the request unhandled.
    guard position >= 0 else { return false }
    // An exact-only candidate matches `requestType` itself, so a responder's direct body may take
    // the request and the slot as its own types.
    let direct = path[index]._withUnsafeGuaranteedRef { node in
      node._keys.key(at: position).exactOnly ? node._modifiers[position].directResponder : nil
    }
    guard let direct else { return false }
    tree.dispatchDepth += 1
    defer { tree.leaveDispatch() }
    do {
      try direct(request, slot.pointer)
      slot.answered.pointee = true
    } catch {
      // The error goes outward from the responder as in the general path, which is where the
      // dispatch now continues (it may have changed the tree: it starts from `generation`).
      let node = path[index].takeUnretainedValue()
      var run = DispatchRun(
        path: path, tree: tree, action: boxed(), type: identity, trace: nil, slot: slot,
        firstBubble: firstBubble, capture: false, startGeneration: generation)
      let serial = node._keys.serial(at: position)
      _ = run.fail(error, node: node, index: index, serial: serial, phase: .bubble, info: nil, before: nil)
      throw RequestError(requestType, from: path[0].takeUnretainedValue(), outcome: run.outcome)
    }
    return true
  }

  @inline(__always)
  static func run(
    _ action: some Action, type actionType: ObjectIdentifier, path: UnsafeBufferPointer<Unmanaged<Node>>,
    firstBubble: Int, capture: Bool, trace: ActionTrace?, slot: RequestSlot?
  ) -> ActionOutcome {
    guard let tree = tree(of: path) else { return .notDispatched(.notInTree) }
    guard tree.dispatchDepth < tree.reentrancyLimit else {
      return .notDispatched(.reentrancyLimit(tree.reentrancyLimit))
    }
    // `tree` (a strong reference) keeps the root, and so every node on the path, alive; nodes
    // that leave the tree during the dispatch are pinned by it (see `NodeTree.pin`). That is what
    // lets the path hold its nodes unretained.
    tree.dispatchDepth += 1
    defer { tree.leaveDispatch() }
    var run = DispatchRun(
      path: path, tree: tree, action: action, type: actionType, trace: trace, slot: slot,
      firstBubble: firstBubble, capture: capture)
    var step = run.run()
    // A synchronous dispatch cannot wait: an asynchronous modifier throws instead, and the error
    // travels outward like any other.
    while case .suspended(let suspension) = step {
      let node = run.node(at: suspension.index)
      step = run.resume(suspension, with: .failure(ViewTreeError.asynchronousHandler(node: node.path)))
    }
    return run.outcome
  }
}

/// The state of one dispatch. `path[0]` is the target, `path[path.count - 1]` the root.
///
/// The dispatch is a cursor over (phase, node, modifier) so that it can stop at an asynchronous
/// modifier, let an `async` driver await it, and go on from there (see `resume`).
struct DispatchRun {
  var path: UnsafeBufferPointer<Unmanaged<Node>>
  unowned(unsafe) let tree: NodeTree
  var action: any Action
  var actionType: ObjectIdentifier
  /// `TypeFilter.bit(for: actionType)`.
  var mask: UInt64
  let startGeneration: UInt64
  let trace: ActionTrace?
  let recording: Bool
  let nestingLevel: Int
  /// Where a responder writes its answer, when the caller awaits one.
  let slot: RequestSlot?
  /// The outcome, once the dispatch ended. Not an `Optional`: copying an `Optional` of a
  /// multi-payload enum instantiates generic metadata on every dispatch.
  var outcome: ActionOutcome = .notDispatched(.notInTree)

  // The cursor.
  var phase: ModifierPhase
  var index: Int
  var position = 0

  // The last attachment check, reused while the generation has not moved.
  var checkedGeneration: UInt64 = 0
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
    path: UnsafeBufferPointer<Unmanaged<Node>>, tree: NodeTree, action: any Action, type: ObjectIdentifier,
    trace: ActionTrace?, slot: RequestSlot?, firstBubble: Int, capture: Bool,
    startGeneration: UInt64 = Generation.current
  ) {
    self.path = path
    self.tree = tree
    self.action = action
    self.actionType = type
    self.mask = TypeFilter.bit(for: actionType)
    self.startGeneration = startGeneration
    self.trace = trace
    self.recording = trace != nil || tree.stepObserver != nil
    self.nestingLevel = tree.dispatchDepth - 1
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
  func node(at index: Int) -> Node { path[index].takeUnretainedValue() }

  /// The position of the first modifier of `path[index]`, at or after `start`, that might run in
  /// `phase` for the current action; -1 if none. Reference-count free.
  @inline(__always)
  func candidate(at index: Int, from start: Int, in phase: ModifierPhase) -> Int {
    let actionType = actionType
    let mask = mask
    let generation = startGeneration
    return path[index]._withUnsafeGuaranteedRef { node in
      let filter =
        phase == .bubble ? node.bubbleFilter : phase == .capture ? node.captureFilter : TypeFilter.everything
      guard filter & mask != 0 else { return -1 }
      return node._keys.firstCandidate(from: start, in: phase, for: actionType, addedBy: generation)
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
    let node = node(at: suspension.index)
    let before = recording ? suspension.action : nil
    let ended: Bool
    switch reply {
    case .success(let reply):
      ended = apply(
        reply, node: node, index: suspension.index, serial: suspension.serial, phase: suspension.phase,
        info: suspension.info, before: before)
    case .failure(let error):
      ended = fail(
        error, node: node, index: suspension.index, serial: suspension.serial, phase: suspension.phase,
        info: suspension.info, before: before)
    }
    if ended { return .finished }
    position = Self.position(in: node, after: suspension.serial, hint: suspension.hint)
    return run()
  }

  private mutating func finishUnhandled() {
    let target = node(at: 0)
    tree.onUnhandled?(action, target)
    if requiresHandling() {
      let error = ViewTreeError.unhandledAction(action: "\(action)", path: target.path)
      outcome = .failed(error, thrownBy: target)
    } else {
      outcome = .unhandled(action)
    }
  }

  /// Whether the tree, or a node on the path, turns unhandled actions into errors.
  private func requiresHandling() -> Bool {
    if tree.requiresHandling { return true }
    for index in 0..<path.count where node(at: index).requiresHandling { return true }
    return false
  }

  /// Runs the modifiers of `path[index]` for `phase`, from the candidate at `start`; returns
  /// `nil` when the node has no more to run, `.finished` when the dispatch ended here (with
  /// `outcome` set), or the asynchronous modifier it stopped at.
  mutating func runModifiers(at index: Int, from start: Int, in phase: ModifierPhase) -> Step? {
    let node = node(at: index)
    var position = start
    while position >= 0 {
      guard isAttached(index) else {
        record(node, phase, nil, before: action, .skippedDetachedNode)
        return nil
      }
      let serial = node._keys.serial(at: position)
      let ended: Bool
      if recording {
        // A copy of the action only when a trace will show it: copying an existential costs
        // reference counting through value witnesses.
        let info = node._modifiers[position].info
        let before = action
        switch call(node._modifiers[position].body) {
        case .reply(let reply):
          ended = apply(
            reply, node: node, index: index, serial: serial, phase: phase, info: info, before: before)
        case .threw(let error):
          ended = fail(
            error, node: node, index: index, serial: serial, phase: phase, info: info, before: before)
        case .suspend(let body):
          return suspend(body, at: index, position: position, serial: serial, phase: phase, info: info)
        }
      } else {
        switch call(node._modifiers[position].body) {
        case .reply(let reply):
          ended = apply(reply, node: node, index: index, serial: serial, phase: phase, info: nil, before: nil)
        case .threw(let error):
          ended = fail(error, node: node, index: index, serial: serial, phase: phase, info: nil, before: nil)
        case .suspend(let body):
          return suspend(body, at: index, position: position, serial: serial, phase: phase, info: nil)
        }
      }
      if ended { return .finished }
      // The handler may have changed the node's modifiers: find the next one by serial.
      let next = Self.position(in: node, after: serial, hint: position)
      position = candidate(at: index, from: next, in: phase)
    }
    return nil
  }

  /// What calling a modifier's body gave.
  enum Call {
    case reply(ModifierReply)
    case threw(any Error)
    case suspend(AsyncModifierBody)
  }

  @inline(__always)
  func call(_ body: ModifierBody) -> Call {
    do {
      switch body {
      case .action(let body): return .reply(try body(action))
      case .respond(let body, _): return .reply(try body(action, slot))
      case .asynchronous(let body): return .suspend(body)
      case .error: return .reply(.skipped)
      }
    } catch {
      return .threw(error)
    }
  }

  mutating func suspend(
    _ body: @escaping AsyncModifierBody, at index: Int, position: Int, serial: UInt64, phase: ModifierPhase,
    info: ModifierInfo?
  ) -> Step {
    self.position = position
    return .suspended(
      Suspension(
        body: body, action: action, slot: slot, index: index, serial: serial, hint: position, phase: phase,
        info: info))
  }

  /// Applies what a modifier answered; returns `true`, with `outcome` set, when the dispatch ends.
  @inline(__always)
  mutating func apply(
    _ reply: ModifierReply, node: Node, index: Int, serial: UInt64, phase: ModifierPhase, info: ModifierInfo?,
    before: (any Action)?
  ) -> Bool {
    switch reply {
    case .skipped:
      return false
    case .passed:
      record(node, phase, info, before: before, .passed)
      return false
    case .handled:
      record(node, phase, info, before: before, .handled)
      outcome = .handled(by: node, action: action)
      return true
    case .transformed(let replacement):
      action = replacement
      actionType = ObjectIdentifier(type(of: replacement))
      mask = TypeFilter.bit(for: actionType)
      record(node, phase, info, before: before, .transformed)
      return false
    }
  }

  /// Records a modifier's error and sends it outward; the dispatch ends.
  mutating func fail(
    _ error: any Error, node: Node, index: Int, serial: UInt64, phase: ModifierPhase, info: ModifierInfo?,
    before: (any Action)?
  ) -> Bool {
    record(node, phase, info, before: before, .threw(error))
    outcome = propagate(error, from: index, after: serial)
    return true
  }

  /// Sends an error outward from the modifier with serial `after` on `path[index]`.
  mutating func propagate(_ thrown: any Error, from start: Int, after startSerial: UInt64) -> ActionOutcome {
    var error = thrown
    var thrower = node(at: start)
    var after = startSerial
    for index in start..<path.count {
      defer { after = 0 }
      let node = node(at: index)
      guard node.catchModifierCount > 0 else { continue }
      var position = candidate(at: index, from: Self.position(in: node, after: after, hint: -1), in: .error)
      while position >= 0 {
        guard isAttached(index) else {
          record(node, .error, nil, before: action, .skippedDetachedNode)
          break
        }
        let serial = node._keys.serial(at: position)
        guard case .error(let body) = node._modifiers[position].body else { break }
        let info = recording ? node._modifiers[position].info : nil
        do {
          if case .caught = try body(error) {
            record(node, .error, info, before: action, .caught(error))
            return .caught(error, by: node, thrownBy: thrower)
          }
        } catch let rethrown {
          record(node, .error, info, before: action, .threw(rethrown))
          error = rethrown
          thrower = node
        }
        let next = Self.position(in: node, after: serial, hint: position)
        position = candidate(at: index, from: next, in: .error)
      }
    }
    return .failed(error, thrownBy: thrower)
  }

  /// Whether `path[index]` is still in the tree the dispatch started in: the root or one of its
  /// descendants.
  mutating func isAttached(_ index: Int) -> Bool {
    let generation = Generation.current
    if generation == startGeneration { return true }
    if generation == checkedGeneration, checkedIndex == index { return checkedResult }
    let node = node(at: index)
    let result: Bool
    if generation == checkedGeneration, checkedIndex == index - 1, checkedResult,
      self.node(at: index - 1)._parent === node
    {
      result = true
    } else {
      result = node.isDescendant(of: self.node(at: path.count - 1))
    }
    checkedGeneration = generation
    checkedIndex = index
    checkedResult = result
    return result
  }

  /// The position of the first modifier with a serial above `serial`; `hint` is where the modifier
  /// with `serial` was, if the list has not changed.
  static func position(in node: Node, after serial: UInt64, hint: Int) -> Int {
    let count = node._keys.count
    if hint >= 0, hint < count, node._keys.serial(at: hint) == serial { return hint + 1 }
    // The list changed under a handler (or there is no hint): serials increase along it, so the
    // first later modifier is found by bisection.
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if node._keys.serial(at: middle) <= serial { low = middle + 1 } else { high = middle }
    }
    return low
  }

  @inline(__always)
  func record(
    _ node: Node, _ phase: ModifierPhase, _ modifier: ModifierInfo?, before: (any Action)?,
    _ result: StepResult
  ) {
    guard recording, let before else { return }
    let phase: ActionPhase =
      switch phase {
      case .capture: .capture
      case .bubble: .bubble
      case .error: .error
      }
    let step = ActionStep(
      node: node, phase: phase, modifier: modifier, actionBefore: before, actionAfter: action,
      result: result, nestingLevel: nestingLevel)
    trace?.record(step)
    tree.stepObserver?(step)
  }
}
