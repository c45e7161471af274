extension ModifierHost {
  /// Sees every action triggered at or below this node before it bubbles, from the root down to
  /// the target, and may stop it.
  ///
  /// A modal panel uses this to intercept everything beneath it. A capture modifier cannot
  /// transform the action.
  ///
  /// ```swift
  /// Node("modal") { content }
  ///   .captureAction { action in action is Dismiss ? .unhandled : .handled }
  /// ```
  ///
  /// - Parameter body: Returns ``ActionDisposition/handled`` to stop the action here.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func captureAction(_ body: @escaping (any Action) throws -> ActionDisposition) -> Self {
    attach(.capture, matching: nil, body: .decideAll(body))
  }

  /// Captures actions of one type in the capture phase; other actions pass by untouched.
  ///
  /// - Parameters:
  ///   - type: The type of action to capture.
  ///   - body: Returns ``ActionDisposition/handled`` to stop the action here.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func captureAction<T>(
    _ type: T.Type, perform body: @escaping (T) throws -> ActionDisposition
  ) -> Self {
    return attach(
      .capture, matching: type,
      body: .action { action, actionType in
        try withMatch(action, type: actionType, as: T.self) { value in
          return try body(value) == .handled ? .handled : .passed
        }
      })
  }

}
