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
  @usableFromInline
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
    ManagedActionRequest(context: context.redirected(to: identifier))
  }

  /// `perform(identifier)` or `validate(identifier)`.
  public var description: String {
    "\(mode == .perform ? "perform" : "validate")(\(identifier))"
  }

  /// The answer of `manager`, which the request reached.
  @usableFromInline
  func answer(by manager: ActionManager) -> Answer {
    let context = context
    return switch context.mode {
    case .perform:
      .performed(
        manager.perform(context.identifier, sender: context.sender, configure: { context.provide(to: $0) }))
    case .validate:
      .validated(
        manager.validate(context.identifier, sender: context.sender, configure: { context.provide(to: $0) }))
    }
  }

  /// The same in an awaited dispatch: asynchronous actions run, on the caller's actor.
  @usableFromInline
  nonisolated(nonsending) func answerAwaiting(by manager: ActionManager) async -> Answer {
    let context = context
    return switch context.mode {
    case .perform:
      .performed(
        await manager.perform(
          context.identifier, sender: context.sender, configure: { context.provide(to: $0) }))
    case .validate:
      .validated(
        manager.validate(context.identifier, sender: context.sender, configure: { context.provide(to: $0) }))
    }
  }
}

/// What a ``ManagedActionRequest`` carries up the tree: its mode and sender, and the context
/// providers of the nodes it passes, nearest first.
///
/// A class, so that the request fits an action's inline storage. A tree keeps one that nothing
/// else references for the next request (see `Node.withManagedRequest`), so a perform does not
/// allocate; one that a trace or a handler kept is left to them.
///
/// Every access to a stored property reads or writes the whole value and calls nothing while it
/// lasts (the sender and the providers are exchanged, not assigned or changed in place), so that
/// the optimizer drops the run-time exclusivity checks, about 80 instructions each.
@usableFromInline
final class TravellingContext {
  private(set) var mode: ManagedActionRequest.Mode
  private(set) var identifier: String
  /// The node the request starts from: the sender unless the caller named one.
  private var origin: Node?
  private var explicitSender: Any = ()
  private var hasExplicitSender = false
  private var providers: ContiguousArray<ContextProviderBox>

  init(mode: ManagedActionRequest.Mode, identifier: String, origin: Node, sender: Any?) {
    self.mode = mode
    self.identifier = identifier
    // Room for a typical path's providers in one allocation.
    var providers = ContiguousArray<ContextProviderBox>()
    providers.reserveCapacity(8)
    self.providers = providers
    start(origin: origin, sender: sender)
  }

  /// Sets what a recycled context carries for the next request.
  func reuse(mode: ManagedActionRequest.Mode, identifier: String, origin: Node, sender: Any?) {
    self.mode = mode
    self.identifier = identifier
    start(origin: origin, sender: sender)
  }

  private func start(origin: Node, sender: Any?) {
    self.origin = origin
    if let sender {
      var sender = sender
      swap(&explicitSender, &sender)
      hasExplicitSender = true
    }
  }

  /// What asked for the action.
  var sender: Any {
    if hasExplicitSender { return explicitSender }
    // `origin` is set whenever the context travels.
    return origin.map { $0 as Any } ?? ()
  }

  /// A context for the same request under another identifier, with the providers passed so far.
  func redirected(to identifier: String) -> TravellingContext {
    TravellingContext(copying: self, identifier: identifier)
  }

  private init(copying other: TravellingContext, identifier: String) {
    mode = other.mode
    self.identifier = identifier
    origin = other.origin
    explicitSender = other.explicitSender
    hasExplicitSender = other.hasExplicitSender
    providers = other.providers
  }

  /// Adds the provider of a node the request passes.
  @usableFromInline
  func add(_ provider: ContextProviderBox) {
    var list = ContiguousArray<ContextProviderBox>()
    swap(&providers, &list)
    list.append(provider)
    swap(&providers, &list)
  }

  /// Lets the providers passed add their values to `context`, nearest first.
  func provide(to context: ActionContext) {
    let providers = providers
    guard !providers.isEmpty else { return }
    context.beginProviding()
    defer { context.endProviding() }
    for index in providers.indices { providers[index].provide(to: context) }
  }

  /// Drops what the last request gathered, keeping the storage.
  func clear() {
    origin = nil
    if hasExplicitSender {
      var nothing: Any = ()
      swap(&explicitSender, &nothing)
      hasExplicitSender = false
    }
    var list = ContiguousArray<ContextProviderBox>()
    swap(&providers, &list)
    // Popped one by one: `removeAll(keepingCapacity:)` destroys the elements through the
    // runtime's generic array code.
    while list.popLast() != nil {}
    swap(&providers, &list)
  }
}

/// A context provider as the modifier that adds it to passing requests holds it: a reference, so
/// that adding it to a request's list is one retain.
@usableFromInline
final class ContextProviderBox {
  let provide: (ActionContext) -> Void

  @usableFromInline
  init(_ provide: @escaping (ActionContext) -> Void) {
    self.provide = provide
  }

  /// Lets the provider add its values.
  func provide(to context: ActionContext) { provide(context) }
}

/// Where a tree keeps its spare `TravellingContext`: on its root, for the next request.
final class SpareTravellingContextHolder {
  private var spare: TravellingContext?

  /// The spare, which the holder no longer keeps, or `nil`.
  func take() -> TravellingContext? {
    var taken: TravellingContext?
    swap(&spare, &taken)
    return taken
  }

  /// Keeps `context` for the next request.
  func keep(_ context: consuming TravellingContext) {
    var kept: TravellingContext? = consume context
    swap(&spare, &kept)
  }
}

/// A tree's spare-context holder, attached to its root by the first request.
enum SpareTravellingContext: NodeAttachmentKey {
  static var defaultValue: SpareTravellingContextHolder? { nil }
}

extension Node {
  /// Calls `body` with a request for `identifier` from this node, in a travelling context that
  /// the tree recycles when nothing kept it.
  func withManagedRequest<R>(
    _ mode: ManagedActionRequest.Mode, _ identifier: String, sender: Any?,
    _ body: (ManagedActionRequest) -> R
  ) -> R {
    let root = root
    let holder: SpareTravellingContextHolder
    if let attached = root[attachment: SpareTravellingContext.self] {
      holder = attached
    } else {
      holder = SpareTravellingContextHolder()
      root[attachment: SpareTravellingContext.self] = holder
    }
    let made: TravellingContext
    if let spare = holder.take() {
      spare.reuse(mode: mode, identifier: identifier, origin: self, sender: sender)
      made = spare
    } else {
      made = TravellingContext(mode: mode, identifier: identifier, origin: self, sender: sender)
    }
    let result = body(ManagedActionRequest(context: made))
    var context = consume made
    if isKnownUniquelyReferenced(&context) {
      context.clear()
      holder.keep(consume context)
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
        context: TravellingContext(mode: mode, identifier: identifier, origin: self, sender: sender)))
  }
}
