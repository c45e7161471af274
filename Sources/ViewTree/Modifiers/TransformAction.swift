extension ModifierHost {
  /// Replaces every action that bubbles through the node with the one the body returns.
  ///
  /// Later modifiers on this node and every ancestor see only the new value; a trace records both.
  /// The new action may be of another type.
  ///
  /// - Parameter body: Returns the replacement (return the argument to keep it).
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func transformAction(_ body: @escaping (any Action) throws -> any Action) -> Self {
    return attach(
      .transform, matching: nil,
      body: .action { action, _ in
        action = try body(action)
        return .transformed
      })
  }

  /// Replaces actions of one type; other actions pass by untouched.
  ///
  /// ```swift
  /// Node("row").transformAction(Delete.self) { _ in DeleteRow(index: 4) }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type of action to replace.
  ///   - body: Returns the replacement, given the action as a `T`.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func transformAction<T>(
    _ type: T.Type, perform body: @escaping (T) throws -> any Action
  ) -> Self {
    return attach(
      .transform, matching: type,
      body: .action { action, actionType in
        var replacement: (any Action)?
        let reply = try withMatch(action, type: actionType, as: T.self) { value in
          replacement = try body(value)
          return .transformed
        }
        if let replacement { action = replacement }
        return reply
      })
  }

}

extension ModifierHost {
  /// Replaces requests of one type with other requests of the same result type: the type system
  /// guarantees the caller still gets an answer of the type it expects.
  ///
  /// ```swift
  /// Node("cache").transformRequest(FetchUser.self) { request in FetchCachedUser(id: request.id) }
  /// ```
  ///
  /// (An untyped ``transformAction(_:)`` can replace a request with anything; if a responder then
  /// answers with another result type, the caller gets
  /// ``RequestError/Reason/resultTypeMismatch(expected:found:)``.)
  ///
  /// - Parameters:
  ///   - type: The request type to replace.
  ///   - body: Returns the replacement.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func transformRequest<Q: Request>(
    _ type: Q.Type, perform body: @escaping (Q) throws -> any Request<Q.Result>
  ) -> Self {
    transformAction(type) { (request: Q) -> any Action in try body(request) }
  }
}
