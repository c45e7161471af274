extension Node {
  /// Handles every action that bubbles through the node: the body runs and the action stops here.
  ///
  /// - Parameter body: What to do with the action.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func handleAction(_ body: @escaping (any Action) throws -> Void) -> Node {
    attach(
      .handle, matching: nil, exactOnly: false,
      body: .action { action in
        try body(action)
        return .handled
      })
    return self
  }

  /// Handles actions of one type; other actions pass by untouched and are not counted as visits.
  ///
  /// ```swift
  /// Node("editor").handleAction(Save.self) { save in
  ///   try document.write(to: save.url)
  /// }
  /// ```
  ///
  /// `type` may be a concrete action type (matched by type identity, with no dynamic cast), a
  /// class (subclasses match), or a protocol existential such as `(any DocumentAction).self`.
  ///
  /// - Parameters:
  ///   - type: The type of action to handle.
  ///   - body: What to do with the action. A thrown error stops the action and goes to the
  ///     `catchError` modifiers outward from here.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func handleAction<T>(_ type: T.Type, perform body: @escaping (T) throws -> Void) -> Node {
    let exact = matchesExactlyOnly(type)
    attach(
      .handle, matching: type, exactOnly: exact,
      body: .action { action in
        try withMatch(action, as: T.self, exactOnly: exact) { value in
          try body(value)
          return .handled
        }
      })
    return self
  }

  /// Handles actions of one type without reading the value.
  ///
  /// - Parameters:
  ///   - type: The type of action to handle.
  ///   - body: What to do.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func handleAction<T>(_ type: T.Type, perform body: @escaping () throws -> Void) -> Node {
    handleAction(type) { (_: T) in try body() }
  }
}
