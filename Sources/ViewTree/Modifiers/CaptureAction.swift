extension Node {
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
  /// - Returns: This node, for chaining.
  @discardableResult
  public func captureAction(_ body: @escaping (any Action) throws -> ActionDisposition) -> Node {
    attach(
      .capture, matching: nil, exactOnly: false,
      body: .action { action, _ in
        try body(action) == .handled ? .handled : .passed
      })
    return self
  }

  /// Captures actions of one type in the capture phase; other actions pass by untouched.
  ///
  /// - Parameters:
  ///   - type: The type of action to capture.
  ///   - body: Returns ``ActionDisposition/handled`` to stop the action here.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func captureAction<T>(
    _ type: T.Type, perform body: @escaping (T) throws -> ActionDisposition
  ) -> Node {
    let exact = matchesExactlyOnly(type)
    attach(
      .capture, matching: type, exactOnly: exact,
      body: .action { action, actionType in
        try withMatch(action, type: actionType, as: T.self, exactOnly: exact) { value in
          return try body(value) == .handled ? .handled : .passed
        }
      })
    return self
  }

  /// Captures actions of one type without reading the value.
  ///
  /// - Parameters:
  ///   - type: The type of action to capture.
  ///   - body: Returns ``ActionDisposition/handled`` to stop the action here.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func captureAction<T>(
    _ type: T.Type, perform body: @escaping () throws -> ActionDisposition
  ) -> Node {
    captureAction(type) { (_: T) in try body() }
  }
}
