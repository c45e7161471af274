// Names this module had, kept so that code using them gets a fix-it instead of "has no member".
// Each is listed in the CHANGELOG. They are grouped by type.

extension NodeTree {
  /// Removed: send from ``firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.trigger(_:tracing:)")
  @discardableResult
  public func trigger(_ action: some Action, tracing trace: ActionTrace? = nil) -> ActionOutcome {
    fatalError()
  }

  /// Removed: send from ``firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.request(_:tracing:)")
  public func request<Q: Request>(_ request: Q, tracing trace: ActionTrace? = nil) throws -> Q.Result {
    fatalError()
  }
}

extension ModifierID {
  /// Removed: identifiers come from ``Node/modifiers``, not from numbers.
  @available(*, unavailable, message: "take the identifier from Node.modifiers")
  public init(rawValue: UInt64) { fatalError() }

  /// Removed: an identifier is opaque; compare identifiers, or print one.
  @available(*, unavailable, message: "compare identifiers, or use description")
  public var rawValue: UInt64 { fatalError() }
}

extension ModifierInfo {
  /// Removed: descriptions come from ``Node/modifiers``.
  @available(*, unavailable, message: "take descriptions from Node.modifiers")
  public init(id: ModifierID, kind: ModifierKind, actionType: Any.Type?, outputType: Any.Type? = nil) {
    fatalError()
  }
}
