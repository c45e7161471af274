extension ModifierHost {
  /// Lets the node decide, for every action that bubbles through it, whether it is handled here.
  ///
  /// Return ``ActionDisposition/handled`` to stop the action (no further modifier on this node or
  /// above runs) or ``ActionDisposition/unhandled`` to let it go on. A thrown error stops the
  /// action and goes to the `catchError` modifiers outward from here.
  ///
  /// ```swift
  /// Node("list").receiveAction { action in
  ///   action is Delete && selection.isEmpty ? .handled : .unhandled
  /// }
  /// ```
  ///
  /// - Parameter body: The decision.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func receiveAction(_ body: @escaping (any Action) throws -> ActionDisposition) -> Self {
    attach(.receive, matching: nil, body: .decideAll(body))
  }

  /// Lets the node decide whether actions of one type are handled here; other actions pass by
  /// untouched and are not counted as visits.
  ///
  /// `type` may be a concrete action type, a class (subclasses match), or a protocol existential
  /// such as `(any DocumentAction).self` (conforming actions match).
  ///
  /// - Parameters:
  ///   - type: The type of action to receive.
  ///   - body: The decision, given the action as a `T`.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func receiveAction<T>(
    _ type: T.Type, perform body: @escaping (T) throws -> ActionDisposition
  ) -> Self {
    return attach(
      .receive, matching: type,
      body: .action { action, actionType in
        try withMatch(action, type: actionType, as: T.self) { value in
          return try body(value) == .handled ? .handled : .passed
        }
      })
  }

}
