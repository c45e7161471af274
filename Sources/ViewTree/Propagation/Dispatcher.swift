/// Runs dispatches: computes the path once, then the capture, bubble and error phases.
enum Dispatcher {
  static func dispatch(_ action: some Action, from target: Node, trace: ActionTrace?) -> ActionOutcome {
    var depth = 1
    var top = target
    while let parent = top._parent {
      top = parent
      depth += 1
    }
    guard let tree = top._tree, tree.root === top else { return .notDispatched(.notInTree) }
    guard tree.dispatchDepth < tree.reentrancyLimit else {
      return .notDispatched(.reentrancyLimit(tree.reentrancyLimit))
    }
    // `tree` (a strong reference) keeps the root, and so every node on the path, alive; nodes
    // that leave the tree during the dispatch are pinned by it (see `NodeTree.pin`). That is what
    // lets the path hold its nodes unretained.
    tree.dispatchDepth += 1
    defer {
      tree.dispatchDepth -= 1
      if tree.dispatchDepth == 0, !tree.pinned.isEmpty { tree.releasePinned() }
    }
    return withUnsafeTemporaryAllocation(of: Unmanaged<Node>.self, capacity: depth) { buffer in
      var node = target
      for index in 0..<depth {
        buffer.initializeElement(at: index, to: .passUnretained(node))
        if let parent = node._parent { node = parent }
      }
      var run = DispatchRun(path: UnsafeBufferPointer(buffer), tree: tree, action: action, trace: trace)
      return run.execute()
    }
  }
}

/// The state of one dispatch. `path[0]` is the target, `path[path.count - 1]` the root.
struct DispatchRun {
  let path: UnsafeBufferPointer<Unmanaged<Node>>
  unowned(unsafe) let tree: NodeTree
  var action: any Action
  var actionType: ObjectIdentifier
  let startGeneration: UInt64
  let trace: ActionTrace?
  let recording: Bool
  let nestingLevel: Int

  // The last attachment check, reused while the generation has not moved.
  var checkedGeneration: UInt64 = 0
  var checkedIndex = Int.min
  var checkedResult = false

  init(path: UnsafeBufferPointer<Unmanaged<Node>>, tree: NodeTree, action: any Action, trace: ActionTrace?) {
    self.path = path
    self.tree = tree
    self.action = action
    self.actionType = ObjectIdentifier(type(of: action))
    self.startGeneration = Generation.current
    self.trace = trace
    self.recording = trace != nil || tree.stepObserver != nil
    self.nestingLevel = tree.dispatchDepth - 1
  }

  @inline(__always)
  func node(at index: Int) -> Node { path[index].takeUnretainedValue() }

  mutating func execute() -> ActionOutcome {
    var index = path.count - 1
    while index >= 0 {
      if node(at: index).captureModifierCount > 0, let outcome = runModifiers(at: index, phase: .capture) {
        return outcome
      }
      index -= 1
    }
    for index in 0..<path.count where !node(at: index)._modifiers.isEmpty {
      if let outcome = runModifiers(at: index, phase: .bubble) { return outcome }
    }
    let target = node(at: 0)
    tree.onUnhandled?(action, target)
    return .unhandled(action)
  }

  /// Runs the node's modifiers of one phase; returns an outcome when the dispatch ends here.
  mutating func runModifiers(at index: Int, phase: ActionPhase) -> ActionOutcome? {
    let node = node(at: index)
    var position = 0
    while position < node._modifiers.count {
      let serial = node._modifiers[position].serial
      // Added during this dispatch, and so is every modifier after it.
      if serial > startGeneration { break }
      guard Self.runs(node._modifiers[position].kind, in: phase) else {
        position += 1
        continue
      }
      if let matchType = node._modifiers[position].matchType, ObjectIdentifier(matchType) != actionType,
        node._modifiers[position].exactOnly
      {
        position += 1
        continue
      }
      guard isAttached(index) else {
        record(node, phase, nil, before: action, .skippedDetachedNode)
        return nil
      }
      guard case .action(let body) = node._modifiers[position].body else {
        position += 1
        continue
      }
      let info = recording ? node._modifiers[position].info : nil
      let before = action
      do {
        switch try body(before) {
        case .skipped:
          break
        case .passed:
          record(node, phase, info, before: before, .passed)
        case .handled:
          record(node, phase, info, before: before, .handled)
          return .handled(by: node, action: before)
        case .transformed(let replacement):
          action = replacement
          actionType = ObjectIdentifier(type(of: replacement))
          record(node, phase, info, before: before, .transformed)
        }
      } catch {
        record(node, phase, info, before: before, .threw(error))
        return propagate(error, from: index, after: serial)
      }
      position = Self.position(in: node, after: serial, hint: position)
    }
    return nil
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
      var position = Self.position(in: node, after: after, hint: -1)
      while position < node._modifiers.count {
        let serial = node._modifiers[position].serial
        if serial > startGeneration { break }
        guard node._modifiers[position].kind == .catchError,
          case .error(let body) = node._modifiers[position].body
        else {
          position += 1
          continue
        }
        guard isAttached(index) else {
          record(node, .error, nil, before: action, .skippedDetachedNode)
          break
        }
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
        position = Self.position(in: node, after: serial, hint: position)
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
    let count = node._modifiers.count
    if hint >= 0, hint < count, node._modifiers[hint].serial == serial { return hint + 1 }
    // The list changed under a handler (or there is no hint): serials increase along it, so the
    // first later modifier is found by bisection.
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if node._modifiers[middle].serial <= serial { low = middle + 1 } else { high = middle }
    }
    return low
  }

  @inline(__always)
  static func runs(_ kind: ModifierKind, in phase: ActionPhase) -> Bool {
    switch kind {
    case .capture: phase == .capture
    case .catchError: false
    case .receive, .transform, .lift, .handle, .observe: phase == .bubble
    }
  }

  @inline(__always)
  func record(
    _ node: Node, _ phase: ActionPhase, _ modifier: ModifierInfo?, before: any Action, _ result: StepResult
  ) {
    guard recording else { return }
    let step = ActionStep(
      node: node, phase: phase, modifier: modifier, actionBefore: before, actionAfter: action,
      result: result, nestingLevel: nestingLevel)
    trace?.record(step)
    tree.stepObserver?(step)
  }
}
