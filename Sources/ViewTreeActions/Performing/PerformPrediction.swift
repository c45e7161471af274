import Actions
import ViewTree

/// Which manager would answer an identifier performed from a node, and whether it knows the
/// identifier, worked out without running any handler or action (see
/// `Node.performPrediction(for:)`).
public struct PerformPrediction: CustomStringConvertible {
  /// The identifier, as given.
  public let identifier: String
  /// Where the perform's request would end: `HandlerPrediction.handled(by:modifier:)`
  /// names the node whose manager answers.
  public let answerer: HandlerPrediction
  /// The manager that would answer, when that is certain.
  public let manager: ActionManager?
  /// Whether that manager has an action registered under the identifier's name; `false` when no
  /// manager would certainly answer or the identifier does not parse.
  public let isRegistered: Bool

  /// A one-line summary, such as `Save: handled by window (respond(ManagedActionRequest)), registered`.
  public var description: String {
    "\(identifier): \(answerer)" + (manager == nil ? "" : isRegistered ? ", registered" : ", not registered")
  }
}

extension Node {
  /// Predicts which manager would answer `identifier` performed from this node, and whether it
  /// knows it, without running a handler, a provider or the action: the nearest manager unless a
  /// capture, receive or transform of ``ManagedActionRequest`` on the way decides otherwise (then
  /// the answer is undetermined there).
  ///
  /// - Parameter identifier: The identifier, such as `"menu.Save"`.
  /// - Returns: The prediction.
  public func performPrediction(for identifier: String) -> PerformPrediction {
    let answerer = handlerPrediction(for: ManagedActionRequest.self)
    let manager = answerer.handler?.attachedActionManager
    let name = try? manager?.identifier(parsing: identifier).name
    let isRegistered = name.map { manager?.action(named: $0) != nil } ?? false
    return PerformPrediction(
      identifier: identifier, answerer: answerer, manager: manager, isRegistered: isRegistered)
  }
}
