extension Node {
  // NB: `@inlinable`, so that the caller's module specializes it for `Q`: unspecialized, each call
  // instantiates metadata for `Q.Result` buffers and optionals, which costs more than the dispatch.

  /// Sends a request from this node and returns the answer of the nearest node that responds.
  ///
  /// ```swift
  /// let user = try editor.request(FetchUser(id: 3))
  /// ```
  ///
  /// The request travels like any action (capture, receive and transform modifiers see it). A
  /// request nobody answers throws; it never traps.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - trace: A trace that records every step, or `nil`.
  /// - Returns: The answer.
  /// - Throws: ``RequestError``, naming the request type and the path it took.
  @inlinable
  public func request<Q: Request>(_ request: Q, tracing trace: ActionTrace? = nil) throws(RequestError)
    -> Q.Result
  {
    try send(request, tracing: trace).answer(to: Q.self, from: self)
  }

  /// Sends a request from this node, awaiting asynchronous responders on the caller's actor.
  ///
  /// Cancelling the awaiting task reaches the responders: one that has not started throws
  /// `CancellationError` instead.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - trace: A trace that records every step, or `nil`.
  /// - Returns: The answer.
  /// - Throws: ``RequestError``, naming the request type and the path it took.
  nonisolated(nonsending) public func request<Q: Request>(_ request: Q, tracing trace: ActionTrace? = nil)
    async throws(RequestError) -> Q.Result
  {
    try await send(request, tracing: trace).answer(to: Q.self, from: self)
  }

  /// Sends a request from this node and returns how it ended: the answer and the node that gave
  /// it, or the outcome of a dispatch that got none. The route every request takes (`request`,
  /// the ViewTreeActions adapter's perform and validate, testing tools).
  @inlinable
  package func send<Q: Request>(_ request: consuming Q, tracing trace: ActionTrace?) -> RequestResult<
    Q.Result
  > {
    Dispatcher.request(request, from: self, trace: trace)
  }

  /// The same, awaiting asynchronous modifiers and responders on the caller's actor.
  nonisolated(nonsending) package func send<Q: Request>(_ request: Q, tracing trace: ActionTrace?) async
    -> RequestResult<Q.Result>
  {
    await Dispatcher.requestAwaiting(request, from: self, trace: trace)
  }

  /// Triggers an action from this node and awaits it: asynchronous handlers run, on the caller's
  /// actor, and their completion and errors are in the outcome.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - trace: A trace that records every step, or `nil`.
  /// - Returns: What happened to the action.
  @discardableResult
  nonisolated(nonsending) public func trigger(_ action: some Action, tracing trace: ActionTrace? = nil)
    async -> ActionOutcome
  {
    await Dispatcher.dispatchAwaiting(action, from: self, trace: trace)
  }
}

extension RequestResult {
  /// The answer, or the error for a request of type `type` sent from `start` that got none.
  @inlinable
  consuming func answer(to type: Any.Type, from start: Node) throws(RequestError) -> Answer {
    switch consume self {
    case .answered(let answer, _): return answer
    case .unanswered(let outcome): throw RequestError(type, from: start, outcome: outcome)
    }
  }
}

extension TriggerAction {
  /// Sends a request from the node; see `Node.request(_:tracing:)`.
  ///
  /// - Parameter request: The request.
  /// - Returns: The answer.
  /// - Throws: ``RequestError``; its reason is ``NotDispatchedReason/nodeReleased`` when the node
  ///   is gone, ``NotDispatchedReason/handleHasNoNode`` when the handle has none yet.
  public func request<Q: Request>(_ request: Q) throws(RequestError) -> Q.Result {
    guard let node else { throw RequestError(Q.self, from: nil, outcome: .notDispatched(noNodeReason)) }
    return try node.request(request)
  }

  /// Triggers an action from the node and awaits asynchronous handlers.
  ///
  /// - Parameter action: The action.
  /// - Returns: What happened to the action.
  @discardableResult
  nonisolated(nonsending) public func callAsFunction(_ action: some Action) async -> ActionOutcome {
    guard let node else { return .notDispatched(noNodeReason) }
    return await node.trigger(action)
  }
}
