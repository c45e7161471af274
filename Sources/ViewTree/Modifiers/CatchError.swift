extension ModifierHost {
  /// Catches errors thrown by modifiers attached before this one on the same node, or by any
  /// modifier of a node below.
  ///
  /// An error travels outward the way an action bubbles: to the `catchError` modifiers attached
  /// after the throwing one on its node, then to those of each ancestor in attachment order.
  /// Returning catches it (the outcome is ``ActionOutcome/caught(_:by:thrownBy:)``); throwing (the
  /// same error or another) sends it on outward.
  ///
  /// ```swift
  /// Node("window") { editor }
  ///   .catchError { error in alert(error) }
  /// ```
  ///
  /// - Parameter body: Handles the error, or throws to pass it on.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func catchError(_ body: @escaping (any Error) throws -> Void) -> Self {
    return attach(
      .catchError, matching: nil,
      body: .error { error in
        try body(error)
        return .caught
      })
  }

  /// Catches errors of one type; other errors pass by untouched.
  ///
  /// - Parameters:
  ///   - type: The type of error to catch.
  ///   - body: Handles the error, or throws to pass it on.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func catchError<E: Error>(_ type: E.Type, perform body: @escaping (E) throws -> Void)
    -> Self
  {
    return attach(
      .catchError, matching: type,
      body: .error { error in
        guard let value = error as? E else { return .skipped }
        try body(value)
        return .caught
      })
  }
}
