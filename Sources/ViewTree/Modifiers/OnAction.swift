extension ModifierHost {
  /// Observes every action that bubbles through the node, without changing or stopping it.
  ///
  /// - Parameter body: Called with the action as it passes.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func onAction(_ body: @escaping (any Action) -> Void) -> Self {
    attach(.observe, matching: nil, body: .observeAll(body))
  }

  /// Observes actions of one type as they bubble through the node.
  ///
  /// - Parameters:
  ///   - type: The type of action to observe.
  ///   - body: Called with the action as a `T`.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func onAction<T>(_ type: T.Type, perform body: @escaping (T) -> Void) -> Self {
    return attach(
      .observe, matching: type,
      body: .action { action, actionType in
        withMatch(action, type: actionType, as: T.self) { value in
          body(value)
          return .passed
        }
      })
  }

  /// Observes actions of one type as they bubble through the node, given the node each was
  /// dispatched at (its target): which row the pointer came over, for a list that highlights it.
  ///
  /// - Parameters:
  ///   - type: The type of action to observe.
  ///   - body: Called with the action as a `T` and its target.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func onAction<T>(_ type: T.Type, perform body: @escaping (T, _ target: Node) -> Void)
    -> Self
  {
    return attach(
      .observe, matching: type,
      body: .targeted { action, actionType, target in
        withMatch(action, type: actionType, as: T.self) { value in
          body(value, target)
          return .passed
        }
      })
  }

}
