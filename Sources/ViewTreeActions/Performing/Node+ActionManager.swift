import Actions
import ViewTree

/// The manager a node carries (see `Node.actionManager(_:)`), with the responder that answers
/// for it.
enum ActionManagerAttachment: NodeAttachmentKey {
  static var defaultValue: (manager: ActionManager, responder: ModifierID)? { nil }
}

extension Node {
  /// Makes this node perform and validate the identifiers that reach it with `manager`.
  ///
  /// The nearest node with a manager answers every ``ManagedActionRequest`` that bubbles to it,
  /// whether or not its manager knows the identifier (an unknown one is reported as
  /// ``PerformResult/unknown(_:)``). The context holds the request's sender and what the providers
  /// between the start and this node gave, nearest first. An awaited perform
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
  /// - Returns: This node, for chaining.
  @discardableResult
  public func actionManager(_ manager: ActionManager) -> Node {
    for modifier in modifiers
    where modifier.kind == .respond && modifier.actionType == ManagedActionRequest.self {
      // The id comes from `modifiers`, so the modifier is there.
      try? removeModifier(modifier.id)
    }
    do {
      try respond(
        to: ManagedActionRequest.self, with: { request in request.answer(by: manager) },
        whenAwaited: { request in await request.answerAwaiting(by: manager) })
    } catch {
      // Not reached: every responder to the request type was removed above.
      return self
    }
    // The responder just attached is the last modifier.
    if let responder = modifiers.last?.id {
      self[attachment: ActionManagerAttachment.self] = (manager, responder)
    }
    return self
  }

  /// The manager this node carries, if any: `nil` once its modifier was removed.
  public var attachedActionManager: ActionManager? {
    guard let attached = self[attachment: ActionManagerAttachment.self],
      modifiers.contains(where: { $0.id == attached.responder })
    else { return nil }
    return attached.manager
  }
}
