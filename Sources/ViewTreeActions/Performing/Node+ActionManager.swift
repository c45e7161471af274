import Actions
import ViewTree

/// The manager a node carries (see `Node.actionManager(_:)`).
enum ActionManagerAttachment: NodeAttachmentKey {
  static var defaultValue: ActionManager? { nil }
}

extension Node {
  /// Makes this node perform and validate the identifiers that reach it with `manager`.
  ///
  /// The nearest node with a manager answers every ``ManagedActionRequest`` that bubbles to it,
  /// whether or not its manager knows the identifier (an unknown one is reported as
  /// ``PerformResult/unknown(_:)``). The context holds the request's sender and what the providers
  /// between the start and this node gave, nearest first.
  ///
  /// ```swift
  /// let window = Node("window") { editor }
  ///   .actionManager(manager)
  /// ```
  ///
  /// - Parameter manager: The manager. The node keeps it alive.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func actionManager(_ manager: ActionManager) -> Node {
    self[attachment: ActionManagerAttachment.self] = manager
    receiveAction(ManagedActionRequest.self) { request in
      let exchange = request.exchange
      switch exchange.mode {
      case .perform:
        exchange.performResult = manager.perform(
          request.identifier, sender: exchange.sender, providers: exchange.providers)
      case .validate:
        exchange.validation = manager.validate(
          request.identifier, sender: exchange.sender, providers: exchange.providers)
      }
      return .handled
    }
    // Lets `perform` and `validate` ask the manager directly when nothing else on the path
    // would see the request (see `Node.dispatchPlainly`).
    tagLastModifier(manager)
    return self
  }

  /// The manager this node carries, if any.
  public var attachedActionManager: ActionManager? { self[attachment: ActionManagerAttachment.self] }
}
