import Actions
import ViewTree

/// A request that carries an identifier to the nearest node with an `ActionManager`: a
/// ``PerformRequest`` or a ``ValidationRequest``.
///
/// `Node.perform(_:sender:tracing:)`, `Node.validate(_:sender:)`, item validation and key
/// handling send them; they travel like any request, so capture, receive and transform modifiers
/// and traces see them, and the nearest manager answers them. A modal panel can intercept every
/// perform and validation beneath it through this protocol:
///
/// ```swift
/// modal.captureAction((any ManagedActionRequest).self) { request in
///   request.identifier.hasSuffix("Dismiss") ? .unhandled : .handled
/// }
/// ```
///
/// A transform may send a request on under another identifier with ``redirected(to:)``; the caller
/// still gets the answer.
///
/// The request carries no context: the manager that answers builds the one `ActionContext` the
/// action sees, from the request's sender and what the nodes the request passed provide (see
/// `provideActionContext(_:)`).
public protocol ManagedActionRequest: Request, CustomStringConvertible {
  /// The identifier, such as `"menu.Save"`.
  var identifier: String { get }
  /// What asked for the action: the node the request was sent from unless the caller named a
  /// sender.
  var sender: Any { get }
  /// The same request under another identifier, for transform modifiers: the same sender.
  func redirected(to identifier: String) -> Self
}

/// Asks the nearest manager to validate and perform an identifier; its answer is what performing
/// gave.
public struct PerformRequest: ManagedActionRequest {
  /// The manager's answer.
  public typealias Result = PerformResult

  /// The identifier, such as `"menu.Save"`.
  public let identifier: String
  let from: RequestSender

  init(_ identifier: String, from: RequestSender) {
    self.identifier = identifier
    self.from = from
  }

  /// A request for `identifier` from `origin`, whose sender is `sender`, or `origin` when that is
  /// `nil`.
  package init(_ identifier: String, sender: consuming Any?, from origin: Node) {
    self.init(identifier, from: RequestSender(sender, origin: origin))
  }

  /// What asked for the action: the node the request was sent from unless the caller named a
  /// sender.
  public var sender: Any { from.sender }

  /// The same request under another identifier, with the same sender.
  public func redirected(to identifier: String) -> PerformRequest { PerformRequest(identifier, from: from) }

  /// `perform(identifier)`.
  public var description: String { "perform(\(identifier))" }
}

/// Asks the nearest manager to validate an identifier: nothing is performed and no observer is
/// called; its answer is the validation.
public struct ValidationRequest: ManagedActionRequest {
  /// The manager's answer.
  public typealias Result = Validation

  /// The identifier, such as `"menu.Save"`.
  public let identifier: String
  let from: RequestSender

  init(_ identifier: String, from: RequestSender) {
    self.identifier = identifier
    self.from = from
  }

  /// What asked for the validation: the node the request was sent from unless the caller named a
  /// sender.
  public var sender: Any { from.sender }

  /// The same request under another identifier, with the same sender.
  public func redirected(to identifier: String) -> ValidationRequest {
    ValidationRequest(identifier, from: from)
  }

  /// `validate(identifier)`.
  public var description: String { "validate(\(identifier))" }
}

/// A request's sender in one word beside its identifier, so that the request fits an action's
/// inline storage and sending it allocates nothing: the node it was sent from, or a box with the
/// sender its caller named.
enum RequestSender {
  case origin(Node)
  case named(SenderBox)

  /// `sender`, or `origin` when it is `nil`.
  init(_ sender: consuming Any?, origin: Node) {
    // A pattern, not `if let`: binding the optional existential would copy it first.
    switch consume sender {
    case .none: self = .origin(origin)
    case .some(let sender): self = .named(SenderBox(sender))
    }
  }

  var sender: Any {
    switch self {
    case .origin(let node): node
    case .named(let box): box.sender
    }
  }

  /// The identifier the sender performs, parsed, when the sender is a key binding.
  var parsedIdentifier: ActionIdentifier? {
    switch self {
    case .origin: nil
    case .named(let box): box.parsed
    }
  }
}

/// A sender its caller named.
final class SenderBox {
  /// Changed only while nothing else holds the box (see `Node.validate(_:sender:reusing:)`).
  var sender: Any
  /// The identifier the sender performs, when the sender is a key binding: the manager uses it
  /// rather than parse the request's text again (when the text is still the binding's).
  let parsed: ActionIdentifier?

  init(_ sender: Any, parsed: ActionIdentifier? = nil) {
    self.sender = sender
    self.parsed = parsed
  }
}

extension PerformRequest {
  /// The answer of `manager`, which the request reached through `passage`: the context holds the
  /// sender and what the nodes passed provide, nearest first.
  @usableFromInline
  func answer(by manager: ActionManager, passage: borrowing RequestPassage) -> PerformResult {
    manager.performProviding(identifier, parsed: from.parsedIdentifier, sender: sender) {
      passage.provideContext($0)
    }
  }

  /// The same in an awaited dispatch: asynchronous actions run, on the caller's actor.
  @usableFromInline
  nonisolated(nonsending) func answerAwaiting(by manager: ActionManager, passage: borrowing RequestPassage)
    async -> PerformResult
  {
    await manager.performProviding(identifier, parsed: from.parsedIdentifier, sender: sender) {
      passage.provideContext($0)
    }
  }
}

extension ValidationRequest {
  /// The validation of `manager`, which the request reached through `passage`.
  @usableFromInline
  func answer(by manager: ActionManager, passage: borrowing RequestPassage) -> Validation {
    manager.validateProviding(identifier, sender: sender) { passage.provideContext($0) }
  }
}

/// The manager a node carries (see `actionManager(_:)`).
@usableFromInline
enum ActionManagerAttachment: NodeAttachmentKey {
  @usableFromInline
  static var defaultValue: ActionManager? { nil }
}

extension ModifierHost {
  /// Makes this node perform and validate the identifiers that reach it with `manager`.
  ///
  /// The nearest node with a manager answers every ``PerformRequest`` and ``ValidationRequest``
  /// that bubbles to it, whether or not its manager knows the identifier (an unknown one is
  /// reported as ``PerformResult/unknown(_:)``). The context holds the request's sender and what
  /// the providers of the nodes from the start up to this one (this one included) give, nearest
  /// first, read when the manager answers (see ``ModifierHost/provideActionContext(_:)``). An
  /// awaited perform (`await node.perform(...)`) runs asynchronous actions.
  ///
  /// ```swift
  /// let window = Node("window") { editor }
  ///   .actionManager(manager)
  /// ```
  ///
  /// A node carries one manager: attaching another replaces the first (and any other responder
  /// to ``PerformRequest`` or ``ValidationRequest`` on this node).
  ///
  /// - Parameter manager: The manager. The node keeps it alive.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func actionManager(_ manager: ActionManager) -> Self {
    // Inlinable, so that the responders' closures are specialized for the concrete host.
    removingModifiers(.respond, matching: PerformRequest.self)
      .removingModifiers(.respond, matching: ValidationRequest.self)
      .respondSeeingPassage(
        to: PerformRequest.self,
        with: { request, passage in request.answer(by: manager, passage: passage) },
        whenAwaited: { request, passage in await request.answerAwaiting(by: manager, passage: passage) }
      )
      .respondSeeingPassage(
        to: ValidationRequest.self,
        with: { request, passage in request.answer(by: manager, passage: passage) },
        whenAwaited: { request, passage in request.answer(by: manager, passage: passage) }
      )
      .settingAttachment(ActionManagerAttachment.self, to: manager)
  }
}

extension Node {
  /// The manager this node carries, if any: `nil` once its responder was removed.
  public var attachedActionManager: ActionManager? {
    guard hasModifier(.respond, matching: PerformRequest.self) else { return nil }
    return self[attachment: ActionManagerAttachment.self]
  }
}

extension RequestPassage {
  /// Lets the providers of the nodes the request passed add their values to `context`, nearest
  /// node first, each node's in the order they were declared.
  func provideContext(_ context: ActionContext) {
    forEachNodeWithAttachments { node in
      _ = node.withAttachment(ContextProviders.self) { providers in providers?.callAll(context) }
    }
  }
}
