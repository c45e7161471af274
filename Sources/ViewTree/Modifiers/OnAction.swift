extension Node {
  /// Observes every action that bubbles through the node, without changing or stopping it.
  ///
  /// - Parameter body: Called with the action as it passes.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func onAction(_ body: @escaping (any Action) -> Void) -> Node {
    attach(
      .observe, matching: nil, exactOnly: false,
      body: .action { action, _ in
        body(action)
        return .passed
      })
    return self
  }

  /// Observes actions of one type as they bubble through the node.
  ///
  /// - Parameters:
  ///   - type: The type of action to observe.
  ///   - body: Called with the action as a `T`.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func onAction<T>(_ type: T.Type, perform body: @escaping (T) -> Void) -> Node {
    let exact = matchesExactlyOnly(type)
    attach(
      .observe, matching: type, exactOnly: exact,
      body: .action { action, actionType in
        withMatch(action, type: actionType, as: T.self, exactOnly: exact) { value in
          body(value)
          return .passed
        }
      })
    return self
  }
}
