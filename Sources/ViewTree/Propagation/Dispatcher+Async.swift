extension Dispatcher {
  /// Runs a dispatch that may await asynchronous modifiers, on the caller's actor.
  ///
  /// The path holds strong references, so nodes removed while a modifier is suspended stay valid
  /// until the dispatch ends; between suspensions the dispatch counts as nested in its tree only
  /// while it runs, so a suspended dispatch does not count against the reentrancy limit.
  nonisolated(nonsending) static func dispatchAsync<A: Action>(
    _ action: A, from target: Node, trace: ActionTrace?, slot: RequestSlot?
  ) async -> ActionOutcome {
    let actionType = ObjectIdentifier(type(of: action))
    let mask = TypeFilter.bit(for: actionType)
    var nodes: ContiguousArray<Node> = []
    var firstBubble = -1
    var captureBits: UInt64 = 0
    var current: Node? = target
    while let node = current {
      if firstBubble < 0, node.bubbleFilter & mask != 0 { firstBubble = nodes.count }
      captureBits |= node.captureFilter
      nodes.append(node)
      current = node._parent
    }
    // `nodes` is never empty: it holds at least the target.
    let top = nodes[nodes.count - 1]
    guard let tree = top.treeRootedHere else { return .notDispatched(.notInTree) }
    guard tree.dispatchDepth < tree.reentrancyLimit else {
      return .notDispatched(.reentrancyLimit(tree.reentrancyLimit))
    }
    let path = UnsafeMutableBufferPointer<Unmanaged<Node>>.allocate(capacity: nodes.count)
    defer { path.deallocate() }
    for (index, node) in nodes.enumerated() { path.initializeElement(at: index, to: .passUnretained(node)) }

    tree.dispatchDepth += 1
    var run = DispatchRun(
      path: UnsafeBufferPointer(path), tree: tree, action: action, type: actionType, trace: trace, slot: slot,
      firstBubble: firstBubble, capture: captureBits & mask != 0)
    var step = run.run()
    while case .suspended(let suspension) = step {
      tree.leaveDispatch()
      let reply: Swift.Result<ModifierReply, any Error>
      do {
        // Cancellation of the awaiting task reaches the handlers as a thrown error.
        try Task.checkCancellation()
        reply = .success(try await suspension.body(suspension.action, suspension.slot))
      } catch {
        reply = .failure(error)
      }
      tree.dispatchDepth += 1
      step = run.resume(suspension, with: reply)
    }
    tree.leaveDispatch()
    withExtendedLifetime(nodes) {}
    return run.outcome
  }
}
