/// What happened when an identifier was performed. Every perform reports exactly one.
public enum PerformResult: Sendable {
  /// The action ran and returned.
  case performed(ActionIdentifier)
  /// Validation said the action is disabled; it did not run.
  case disabled(ActionIdentifier, Validation)
  /// No action is registered under the identifier's name.
  case unknown(ActionIdentifier)
  /// The identifier did not parse; nothing ran.
  case invalidIdentifier(ParseError<InvalidIdentifier>)
  /// The action threw, or could not run (see ``ActionsError/requiresAwait(_:)`` and
  /// ``ActionsError/reentrancyLimit(_:)``).
  case failed(ActionIdentifier, any Error)

  /// Whether the action ran and returned.
  public var isPerformed: Bool {
    if case .performed = self { return true }
    return false
  }

  /// The error, for failed performs.
  public var error: (any Error)? {
    if case .failed(_, let error) = self { return error }
    return nil
  }
}

extension PerformResult: CustomStringConvertible {
  /// A one-line summary, such as `performed Save` or `disabled DeleteRow (disabled, visible)`.
  public var description: String {
    switch self {
    case .performed(let identifier): "performed \(identifier)"
    case .disabled(let identifier, let validation): "disabled \(identifier) (\(validation))"
    case .unknown(let identifier): "unknown \(identifier)"
    case .invalidIdentifier(let error): "\(error)"
    case .failed(let identifier, let error): "failed \(identifier): \(error)"
    }
  }
}

/// A notification about a perform, for observers (see ``ActionManager/addObserver(for:_:)``).
public struct ActionEvent {
  /// The stages of a perform that observers hear about.
  public enum Kind {
    /// Validation passed; the action is about to run.
    case willPerform
    /// The action ran and returned.
    case didPerform
    /// The action threw this error.
    case didFail(any Error)
  }

  /// The stage.
  public let kind: Kind
  /// The context the action runs with.
  public let context: ActionContext

  /// The identifier being performed.
  public var identifier: ActionIdentifier { context.identifier }
}
