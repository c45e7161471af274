// Names this module had, kept so that code using them gets a fix-it instead of "has no member".
// Each is listed in the CHANGELOG. Each type's stubs share one extension, whose access level
// they take.

public extension NodeTree {
  /// Removed: send from ``firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.trigger(_:tracing:)")
  @discardableResult
  func trigger(_ action: some Action, tracing trace: ActionTrace? = nil) -> ActionOutcome { fatalError() }

  /// Removed: send from ``firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.request(_:tracing:)")
  func request<Q: Request>(_ request: Q, tracing trace: ActionTrace? = nil) throws -> Q.Result { fatalError() }
}
