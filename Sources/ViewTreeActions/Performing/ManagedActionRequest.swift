import Actions
import ViewTree

/// The ViewTree action that carries an identifier to the nearest node with an `ActionManager`,
/// to be performed or validated.
///
/// `Node.perform(_:sender:tracing:)` and `Node.validate(_:sender:)` trigger
/// it; it travels like any action, so capture, receive and transform modifiers and traces see it.
/// A modal panel can intercept every perform beneath it:
///
/// ```swift
/// modal.captureAction(ManagedActionRequest.self) { request in
///   request.identifier.hasSuffix("Dismiss") ? .unhandled : .handled
/// }
/// ```
///
/// A transform may send a request on under another identifier with ``redirected(to:)``; the caller
/// still gets the answer.
public struct ManagedActionRequest: Action, CustomStringConvertible {
  /// What the request asks of the manager.
  public enum Mode: Sendable {
    /// Validate, then perform.
    case perform
    /// Validate only: nothing is performed and no observer is called.
    case validate
  }

  /// The shared state of a request and its redirections. One reference keeps the request within
  /// an action's inline storage, so triggering it does not allocate a box for it.
  final class Exchange {
    let mode: Mode
    let sender: Any
    // NB: `@exclusivity(unchecked)`: written by the modifiers of the request's own dispatch, never
    // across a call out.
    @exclusivity(unchecked) var providers: [any ActionContextProvider] = []
    @exclusivity(unchecked) var performResult: PerformResult?
    @exclusivity(unchecked) var validation: Validation?

    init(mode: Mode, sender: Any) {
      self.mode = mode
      self.sender = sender
      // Room for a typical path's providers in one allocation, rather than a reallocation per
      // doubling.
      providers.reserveCapacity(8)
    }
  }

  /// The identifier, such as `"menu.Save"`.
  public let identifier: String
  let exchange: Exchange

  init(identifier: String, exchange: Exchange) {
    self.identifier = identifier
    self.exchange = exchange
  }

  /// Whether the request performs or only validates.
  public var mode: Mode { exchange.mode }

  /// What asked for the action: the node it started from unless the caller named a sender.
  public var sender: Any { exchange.sender }

  /// The same request under another identifier, for transform modifiers.
  public func redirected(to identifier: String) -> ManagedActionRequest {
    ManagedActionRequest(identifier: identifier, exchange: exchange)
  }

  /// `perform(identifier)` or `validate(identifier)`.
  public var description: String {
    "\(mode == .perform ? "perform" : "validate")(\(identifier))"
  }
}
