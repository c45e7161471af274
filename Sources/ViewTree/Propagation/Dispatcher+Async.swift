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
    guard let tree = nodes[nodes.count - 1].treeRootedHere else { return .notDispatched(.notInTree) }
    guard tree.dispatchDepth < tree.reentrancyLimit else {
      return .notDispatched(.reentrancyLimit(tree.reentrancyLimit))
    }
    let path = UnsafeMutableBufferPointer<PathEntry>.allocate(capacity: entries.count)
    defer { path.deallocate() }
    _ = path.initialize(from: entries)

    tree.dispatchDepth += 1
    var run = DispatchRun(
      path: UnsafeBufferPointer(path), tree: tree, action: action, type: actionType, trace: trace, slot: slot,
      firstBubble: firstBubble, capture: capture, awaits: true)
    var step = run.run()
    while case .suspended(let suspension) = step {
      let reply: Swift.Result<ModifierReply, any Error>
      do {
        // Cancellation of the awaiting task reaches the handlers as a thrown error.
        try Task.checkCancellation()
        reply = .success(try await suspension.body(suspension.action, suspension.slot))
      } catch {
        reply = .failure(error)
      }
      step = run.resume(suspension, with: reply)
    }
    tree.leaveDispatch()
    withExtendedLifetime(nodes) {}
    return run.outcome
  }
}
