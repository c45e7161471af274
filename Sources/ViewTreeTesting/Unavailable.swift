import ViewTree

// Names this module had, kept so that code using them gets a fix-it instead of "has no member".
// Each is listed in the CHANGELOG. They are grouped by type.

extension DispatchRecord {
  /// Removed: records come from `record(_:from:)` and the other recording functions.
  @available(*, unavailable, message: "record a dispatch with record(_:from:)")
  public init(target: Node, steps: [ActionStep], outcome: ActionOutcome) { fatalError() }
}
