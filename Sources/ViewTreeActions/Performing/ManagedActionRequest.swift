import Actions
import ViewTree

/// The request that carries an identifier to the nearest node with an `ActionManager`, to be
/// performed or validated there.
///
/// `Node.perform(_:sender:tracing:)`, `Node.validate(_:sender:)`, item validation and key
/// handling send it; it travels like any request, so capture, receive and transform modifiers and
/// traces see it, and the nearest manager answers it. A modal panel can intercept every perform
/// beneath it:
///
/// ```swift
/// modal.captureAction(ManagedActionRequest.self) { request in
///   request.identifier.hasSuffix("Dismiss") ? .unhandled : .handled
/// }
/// ```
///
/// A transform may send a request on under another identifier with ``redirected(to:)``; the caller
/// still gets the answer.
public struct ManagedActionRequest: Request, CustomStringConvertible {
  /// What the request asks of the manager.
  public enum Mode: Sendable {
    /// Validate, then perform.
    case perform
    /// Validate only: nothing is performed and no observer is called.
    case validate
  }

  /// The nearest manager's answer.
  public enum Answer {
    /// What performing gave (for ``Mode/perform``).
    case performed(PerformResult)
    /// What validating gave (for ``Mode/validate``).
    case validated(Validation)
  }

  /// The answer's type.
  public typealias Result = Answer

  /// What travels with the request: the identifier, the mode and sender, and the providers it
  /// passes. The request's only stored property, so that copying it (every modifier that sees it
  /// does) is one retain.
  let context: TravellingContext

  init(context: TravellingContext) {
    self.context = context
  }

  /// The identifier, such as `"menu.Save"`.
  public var identifier: String { context.identifier }

  /// Whether the request performs or only validates.
  public var mode: Mode { context.mode }

  /// What asked for the action: the node it started from unless the caller named a sender.
  public var sender: Any { context.sender }

  /// The same request under another identifier, for transform modifiers: the same mode and
  /// sender, and the providers it has passed so far.
  public func redirected(to identifier: String) -> ManagedActionRequest {
    let redirected = TravellingContext(mode: context.mode, identifier: identifier, sender: context.sender)
    redirected.providers = context.providers
    return ManagedActionRequest(context: redirected)
  }

  /// `perform(identifier)` or `validate(identifier)`.
  public var description: String {
    "\(mode == .perform ? "perform" : "validate")(\(identifier))"
  }

  /// The answer of `manager`, which the request reached.
  func answer(by manager: ActionManager) -> Answer {
    switch context.mode {
    case .perform:
      .performed(manager.perform(context.identifier, sender: context.sender, providers: context.providers))
    case .validate:
      .validated(manager.validate(context.identifier, sender: context.sender, providers: context.providers))
    }
  }

  /// The same in an awaited dispatch: asynchronous actions run, on the caller's actor.
  nonisolated(nonsending) func answerAwaiting(by manager: ActionManager) async -> Answer {
    switch context.mode {
    case .perform:
      .performed(
        await manager.perform(context.identifier, sender: context.sender, providers: context.providers))
    case .validate:
      .validated(manager.validate(context.identifier, sender: context.sender, providers: context.providers))
    }
  }
}

/// What a ``ManagedActionRequest`` carries up the tree: its mode and sender, and the context
/// providers of the nodes it passes, nearest first.
///
/// A class, so that the request fits an action's inline storage. A tree keeps one that nothing
/// else references for the next request (see `Node.withManagedRequest`), so a perform does not
/// allocate; one that a trace or a handler kept is left to them.
final class TravellingContext {
  var mode: ManagedActionRequest.Mode
  var identifier: String
  var sender: Any
  var providers: [any ActionContextProvider] = []

  init(mode: ManagedActionRequest.Mode, identifier: String, sender: Any) {
    self.mode = mode
    self.identifier = identifier
    self.sender = sender
    // Room for a typical path's providers in one allocation.
    providers.reserveCapacity(8)
  }

  /// Drops what the last request gathered, keeping the storage.
  func clear() {
    sender = ()
    providers.removeAll(keepingCapacity: true)
  }
}

/// A tree's spare `TravellingContext`, kept on its root.
enum SpareTravellingContext: NodeAttachmentKey {
  static var defaultValue: TravellingContext? { nil }
}

extension Node {
  /// Calls `body` with a request for `identifier` from this node, in a travelling context that
  /// the tree recycles when nothing kept it.
  func withManagedRequest<R>(
    _ mode: ManagedActionRequest.Mode, _ identifier: String, sender: Any?,
    _ body: (ManagedActionRequest) -> R
  ) -> R {
    let root = root
    let made: TravellingContext
    if let spare = root[attachment: SpareTravellingContext.self] {
      root[attachment: SpareTravellingContext.self] = nil
      spare.mode = mode
      spare.identifier = identifier
      spare.sender = sender ?? self
      made = spare
    } else {
      made = TravellingContext(mode: mode, identifier: identifier, sender: sender ?? self)
    }
    let result = body(ManagedActionRequest(context: made))
    var context = consume made
    if isKnownUniquelyReferenced(&context) {
      context.clear()
      root[attachment: SpareTravellingContext.self] = context
    }
    return result
  }

  /// The same for an awaited request.
  nonisolated(nonsending) func withManagedRequest<R>(
    _ mode: ManagedActionRequest.Mode, _ identifier: String, sender: Any?,
    _ body: nonisolated(nonsending) (ManagedActionRequest) async -> R
  ) async -> R {
    // An awaited request may be suspended while others run: it does not share the spare.
    await body(
      ManagedActionRequest(
        context: TravellingContext(mode: mode, identifier: identifier, sender: sender ?? self)))
  }
}
