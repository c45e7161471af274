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
///
/// The request carries no context: the manager that answers builds the one `ActionContext` the
/// action sees, from the request's sender and what the nodes the request passed provide (see
/// `provideActionContext(_:)`).
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

  /// The identifier, such as `"menu.Save"`.
  public let identifier: String

  /// The mode and the node the request was sent from, and the sender when the caller named one:
  /// one word beside the identifier, so that the request fits an action's inline storage and
  /// sending it allocates nothing.
  let route: Route

  enum Route {
    case perform(from: Node)
    case validate(from: Node)
    /// A request whose caller named its sender.
    case named(NamedSender)
  }

  /// A request's mode, start and sender, when its caller named the sender.
  final class NamedSender {
    let mode: Mode
    let origin: Node
    /// Changed only while nothing else holds the box (see `Node.validate(_:sender:reusing:)`).
    var sender: Any

    init(mode: Mode, origin: Node, sender: Any) {
      self.mode = mode
      self.origin = origin
      self.sender = sender
    }
  }

  /// A request for `identifier` from `origin`, whose sender is `sender` or, when that is `nil`,
  /// `origin`.
  init(_ mode: Mode, _ identifier: String, from origin: Node, sender: consuming Any?) {
    self.identifier = identifier
    // A pattern, not `if let`: binding the optional existential would copy it first.
    switch consume sender {
    case .none: route = mode == .perform ? .perform(from: origin) : .validate(from: origin)
    case .some(let sender): route = .named(NamedSender(mode: mode, origin: origin, sender: sender))
    }
  }

  init(identifier: String, route: Route) {
    self.identifier = identifier
    self.route = route
  }

  /// Whether the request performs or only validates.
  public var mode: Mode {
    switch route {
    case .perform: .perform
    case .validate: .validate
    case .named(let named): named.mode
    }
  }

  /// What asked for the action: the node it started from unless the caller named a sender.
  public var sender: Any {
    switch route {
    case .perform(let origin), .validate(let origin): origin
    case .named(let named): named.sender
    }
  }

  /// The same request under another identifier, for transform modifiers: the same mode, start and
  /// sender.
  public func redirected(to identifier: String) -> ManagedActionRequest {
    ManagedActionRequest(identifier: identifier, route: route)
  }

  /// `perform(identifier)` or `validate(identifier)`.
  public var description: String {
    "\(mode == .perform ? "perform" : "validate")(\(identifier))"
  }

  /// The answer of `manager`, which the request reached through `passage`: the context holds the
  /// sender and what the nodes passed provide, nearest first.
  @usableFromInline
  func answer(by manager: ActionManager, passage: RequestPassage) -> Answer {
    switch mode {
    case .perform:
      .performed(manager.performProviding(identifier, sender: sender) { passage.provideContext($0) })
    case .validate:
      .validated(manager.validateProviding(identifier, sender: sender) { passage.provideContext($0) })
    }
  }

  /// The same in an awaited dispatch: asynchronous actions run, on the caller's actor.
  @usableFromInline
  nonisolated(nonsending) func answerAwaiting(by manager: ActionManager, passage: RequestPassage) async
    -> Answer
  {
    switch mode {
    case .perform:
      .performed(await manager.performProviding(identifier, sender: sender) { passage.provideContext($0) })
    case .validate:
      .validated(manager.validateProviding(identifier, sender: sender) { passage.provideContext($0) })
    }
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
  /// The nearest node with a manager answers every ``ManagedActionRequest`` that bubbles to it,
  /// whether or not its manager knows the identifier (an unknown one is reported as
  /// ``PerformResult/unknown(_:)``). The context holds the request's sender and what the providers
  /// of the nodes from the start up to this one (this one included) give, nearest first, read when
  /// the manager answers (see ``ModifierHost/provideActionContext(_:)``). An awaited perform
  /// (`await node.perform(...)`) runs asynchronous actions.
  ///
  /// ```swift
  /// let window = Node("window") { editor }
  ///   .actionManager(manager)
  /// ```
  ///
  /// A node carries one manager: attaching another replaces the first (and any other responder
  /// to ``ManagedActionRequest`` on this node).
  ///
  /// - Parameter manager: The manager. The node keeps it alive.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func actionManager(_ manager: ActionManager) -> Self {
    // Inlinable, so that the responder's closure is specialized for the concrete host.
    removingModifiers(.respond, matching: ManagedActionRequest.self)
      .respondSeeingPassage(
        to: ManagedActionRequest.self,
        with: { request, passage in request.answer(by: manager, passage: passage) },
        whenAwaited: { request, passage in await request.answerAwaiting(by: manager, passage: passage) }
      )
      .settingAttachment(ActionManagerAttachment.self, to: manager)
  }
}

extension Node {
  /// The manager this node carries, if any: `nil` once its responder was removed.
  public var attachedActionManager: ActionManager? {
    guard hasModifier(.respond, matching: ManagedActionRequest.self) else { return nil }
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
