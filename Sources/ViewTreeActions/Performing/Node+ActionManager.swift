import Actions
import ViewTree

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
