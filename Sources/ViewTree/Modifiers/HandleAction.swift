extension ModifierHost {
  /// Handles every action that bubbles through the node: the body runs and the action stops here.
  ///
  /// - Parameter body: What to do with the action.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func handleAction(_ body: @escaping (any Action) throws -> Void) -> Self {
    attach(.handle, matching: nil, body: .handleAll(body))
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
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func handleAction<T>(_ type: T.Type, perform body: @escaping (T) throws -> Void) -> Self {
    return attach(
      .handle, matching: type,
      body: .action { action, actionType in
        try withMatch(action, type: actionType, as: T.self) { value in
          try body(value)
          return .handled
        }
      })
  }

  /// Handles actions of one type, given the node each was dispatched at (its target, the DOM's
  /// `event.target`): the row a click landed on, when the list handles its rows' clicks.
  ///
  /// ```swift
  /// Node("list") { rows }.handleAction(PointerClick.self) { click, row in
  ///   select(row.id)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type of action to handle.
  ///   - body: What to do with the action and its target. A thrown error stops the action and
  ///     goes to the `catchError` modifiers outward from here.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func handleAction<T>(
    _ type: T.Type, perform body: @escaping (T, _ target: Node) throws -> Void
  )
    -> Self
  {
    return attach(
      .handle, matching: type,
      body: .targeted { action, actionType, target in
        try withMatch(action, type: actionType, as: T.self) { value in
          try body(value, target)
          return .handled
        }
      })
  }

}

extension ModifierHost {
  /// Handles actions of one type asynchronously, on the caller's actor: the action stops here,
  /// and the awaited trigger returns once `body` has finished.
  ///
  /// ```swift
  /// Node("editor").handleAction(Save.self) { save async throws in
  ///   try await document.write()
  /// }
  /// ```
  ///
  /// Only an awaited dispatch (`await node.trigger(...)`) can run it; a synchronous one reports
  /// ``ViewTreeError/asynchronousHandler(node:)``, which travels outward like any thrown error. An
  /// error `body` throws goes to the `catchError` modifiers outward from here, and the awaiting
  /// caller sees it in the outcome. If the awaiting task is cancelled before `body` starts, the
  /// dispatch throws `CancellationError` here instead.
  ///
  /// - Parameters:
  ///   - type: The type of action to handle.
  ///   - body: What to do with the action.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func handleAction<T>(
    _ type: T.Type, perform body: nonisolated(nonsending) @escaping (T) async throws -> Void
  ) -> Self {
    return attach(
      .handle, matching: type,
      body: .asynchronous { action, _, _ in
        guard let value = Node.match(action, as: T.self) else { return .skipped }
        try await body(value)
        return .handled
      })
  }
}
