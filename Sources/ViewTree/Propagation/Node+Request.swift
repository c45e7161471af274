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
    let (end, answer) = Dispatcher.requestAnswer(request, from: self, trace: trace)
    guard let answer else { throw RequestError(Q.self, from: self, end: end) }
    return answer
  }

  /// The same, awaiting asynchronous modifiers and responders on the caller's actor, with the
  /// outcome (see `requestWithOutcome(_:tracing:)`).
  nonisolated(nonsending) package func requestWithOutcome<Q: Request>(
    _ request: Q, tracing trace: ActionTrace?
  )
    async -> (outcome: ActionOutcome, answer: Q.Result?)
  {
    await Dispatcher.requestAwaiting(request, from: self, trace: trace)
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
    let (outcome, answer) = await requestWithOutcome(request, tracing: trace)
    guard let answer else { throw RequestError(Q.self, from: self, outcome: outcome) }
    return answer
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
    await Dispatcher.dispatchAsync(action, from: self, trace: trace, slot: nil)
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
    guard let node else {
      throw RequestError(
        requestType: Q.self, path: [], reason: .notDispatched(noNodeReason), outcome: "not dispatched")
    }
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

extension RequestError {
  /// The error for a request from `start` that ended so without an answer.
  @usableFromInline
  init(_ type: Any.Type, from start: Node, end: consuming RequestEnd) {
    switch end {
    case .unanswered(let outcome): self.init(type, from: start, outcome: outcome)
    // Not reached: a responder that answers writes its answer.
    case .answered(let node):
      self.init(
        requestType: type, path: [start.path], reason: .unanswered, outcome: "handled by \(node.path)")
    }
  }

  /// The error for a request from `start` that ended in `outcome` without an answer.
  @usableFromInline
  init(_ type: Any.Type, from start: Node, outcome: ActionOutcome) {
    var path: [String] = []
    var node: Node? = start
    while let current = node {
      path.append(current.path)
      node = current.parent
    }
    let reason: Reason
    switch outcome {
    case .notDispatched(let why):
      reason = .notDispatched(why)
    case .failed(let error as ResultTypeMismatch, _), .caught(let error as ResultTypeMismatch, _, _):
      reason = .resultTypeMismatch(expected: error.expected, found: error.found)
    case .failed(let error, _), .caught(let error, _, _):
      reason = .threw(error)
    case .handled, .unhandled:
      reason = .unanswered
    }
    self.init(requestType: type, path: path, reason: reason, outcome: outcome.description)
  }
}

extension Node {
  /// Sends a request and returns both the outcome of its dispatch and the answer (`nil` when
  /// nobody answered), for callers that report why a request got no answer, such as the
  /// ViewTreeActions adapter and testing tools.
  @inlinable
  package func requestWithOutcome<Q: Request>(_ request: consuming Q, tracing trace: ActionTrace?) -> (
    outcome: ActionOutcome, answer: Q.Result?
  ) {
    Dispatcher.request(request, from: self, trace: trace)
  }

  /// Sends a request and returns how it ended and the answer: the node that answered, or why
  /// nobody did, for callers that want the answer first, such as the ViewTreeActions adapter.
  @inlinable
  package func requestAnswer<Q: Request>(_ request: consuming Q, tracing trace: ActionTrace?) -> (
    end: RequestEnd, answer: Q.Result?
  ) {
    Dispatcher.requestAnswer(request, from: self, trace: trace)
  }
}
