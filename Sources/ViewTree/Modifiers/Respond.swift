extension ModifierHost {
  // NB: `@inlinable`, so that the responder closure is specialized for `Q` in the caller's module.

  /// Answers requests of one type: the nearest node that responds to a request answers it, and
  /// the request stops there.
  ///
  /// ```swift
  /// Node("session").respond(to: FetchUser.self) { request in
  ///   try database.user(id: request.id)
  /// }
  /// ```
  ///
  /// A node responds to a request type once, so that which responder answers is never in doubt:
  /// a second responder for the same type is not attached, and is reported as
  /// ``ViewTreeError/duplicateResponder(requestType:node:)`` (see ``ModifierHost/reporting(_:)``).
  ///
  /// - Parameters:
  ///   - type: The request type.
  ///   - body: Produces the answer. A thrown error stops the request and goes to the
  ///     `catchError` modifiers outward from here; the caller of `request` gets it too.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func respond<Q: Request>(to type: Q.Type, with body: @escaping (Q) throws -> Q.Result)
    -> Self
  {
    attachResponder(type, body)
  }

  /// Answers requests of one type with a synchronous responder, and with an asynchronous one when
  /// the caller awaits the dispatch.
  ///
  /// A synchronous request (or trigger) runs `body`; an awaited one (`try await
  /// node.request(...)`) runs `whenAwaited` on the caller's actor. Use it for responders whose
  /// work is sometimes asynchronous, such as an action manager whose actions may be.
  ///
  /// - Parameters:
  ///   - type: The request type.
  ///   - body: Produces the answer synchronously.
  ///   - whenAwaited: Produces the answer in an awaited dispatch.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func respond<Q: Request>(
    to type: Q.Type, with body: @escaping (Q) throws -> Q.Result,
    whenAwaited: nonisolated(nonsending) @escaping (Q) async throws -> Q.Result
  ) -> Self {
    respondSeeingPassage(
      to: type, with: { request, _ in try body(request) },
      whenAwaited: { request, _ in try await whenAwaited(request) })
  }

  /// The same, for a responder that reads the nodes the request passed to reach it (see
  /// `RequestPassage`), such as an action manager reading the context its nodes provide.
  @inlinable
  package consuming func respondSeeingPassage<Q: Request>(
    to type: Q.Type, with body: @escaping (Q, borrowing RequestPassage) throws -> Q.Result,
    whenAwaited: nonisolated(nonsending) @escaping (Q, borrowing RequestPassage) async throws -> Q.Result
  ) -> Self {
    if let problem = duplicateResponder(for: type) { return reporting(problem) }
    let respond: PassageRespondBody = { action, actionType, slot, passage in
      try withMatchInPlace(&action, type: actionType, as: Q.self) { request in
        let answer = try body(request, passage)
        // Moved into the slot: `slot?.write(answer)` would copy it.
        if let slot { try slot.write(consume answer) }
        return .handled
      }
    }
    let awaiting: AsyncModifierBody = { action, slot, passage in
      guard let request = Node.match(action, as: Q.self) else { return .skipped }
      let answer = try await whenAwaited(request, passage)
      if let slot { try slot.write(consume answer) }
      return .handled
    }
    return attach(
      .respond, matching: type, body: .respondEitherWay(EitherWayResponder(body: respond, awaiting: awaiting))
    )
  }

  /// Attaches a synchronous responder for `type` whose body is `body`.
  @inlinable @inline(__always)
  consuming func attachResponder<Q: Request>(_ type: Q.Type, _ body: @escaping (Q) throws -> Q.Result) -> Self
  {
    if let problem = duplicateResponder(for: type) { return reporting(problem) }
    let respond: RespondBody = { action, actionType, slot in
      try withMatchInPlace(&action, type: actionType, as: Q.self) { request in
        let answer = try body(request)
        // Moved into the slot: `slot?.write(answer)` would copy it.
        if let slot { try slot.write(consume answer) }
        return .handled
      }
    }
    return attach(.respond, matching: type, body: .respond(respond))
  }

  /// Answers requests of one type asynchronously, on the caller's actor.
  ///
  /// Only an awaited request (`try await node.request(...)`) or an awaited trigger can reach an
  /// asynchronous responder; a synchronous one reports ``ViewTreeError/asynchronousHandler(node:)``.
  ///
  /// - Parameters:
  ///   - type: The request type.
  ///   - body: Produces the answer.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func respond<Q: Request>(
    to type: Q.Type, with body: nonisolated(nonsending) @escaping (Q) async throws -> Q.Result
  ) -> Self {
    if let problem = duplicateResponder(for: type) { return reporting(problem) }
    return attach(
      .respond, matching: type,
      body: .asynchronous { action, slot, _ in
        guard let request = Node.match(action, as: Q.self) else { return .skipped }
        let answer = try await body(request)
        if let slot { try slot.write(consume answer) }
        return .handled
      })
  }

  /// The problem a second responder for `type` is, if this host already responds to it.
  @usableFromInline
  func duplicateResponder<Q: Request>(for type: Q.Type) -> ViewTreeError? {
    guard hasModifier(.respond, matching: type) else { return nil }
    return .duplicateResponder(requestType: "\(type)", node: hostDescription)
  }

  /// The node's path, or a declaration's id, for error messages.
  package var hostDescription: String {
    switch self {
    case let node as Node: node.path
    case let declaration as NodeDeclaration: declaration.id.map { "declaration \($0)" } ?? "a declaration"
    default: "\(Self.self)"
    }
  }
}
