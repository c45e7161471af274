/// What happened to a triggered action.
///
/// `trigger` returns it (discardably). Every dispatch ends in exactly one outcome.
public enum ActionOutcome {
  /// A modifier of `node` handled the action; `action` is the value it handled (after transforms).
  case handled(by: Node, action: any Action)
  /// Nobody handled the action; it is the final value, after transforms.
  case unhandled(any Action)
  /// A modifier threw an error and a `catchError` modifier of `by` caught it. `thrownBy` is the
  /// node whose modifier threw the error that was caught.
  case caught(any Error, by: Node, thrownBy: Node)
  /// A modifier of `thrownBy` threw an error and nobody caught it.
  case failed(any Error, thrownBy: Node)
  /// The action was not dispatched at all; no modifier ran.
  case notDispatched(NotDispatchedReason)

  /// Whether a node handled the action.
  public var isHandled: Bool {
    if case .handled = self { return true }
    return false
  }

  /// The node that handled the action, or `nil`.
  public var handler: Node? {
    if case .handled(let node, _) = self { return node }
    return nil
  }

  /// The action after transforms, for handled and unhandled outcomes; `nil` otherwise.
  public var finalAction: (any Action)? {
    switch self {
    case .handled(_, let action), .unhandled(let action): action
    default: nil
    }
  }

  /// The error, for caught and failed outcomes; `nil` otherwise.
  public var error: (any Error)? {
    switch self {
    case .caught(let error, _, _), .failed(let error, _): error
    default: nil
    }
  }
}

/// Why an action was not dispatched.
public enum NotDispatchedReason: Hashable, Sendable, CustomStringConvertible {
  /// The node that would have triggered it was released (see ``TriggerAction``).
  case nodeReleased
  /// The node is not in a rooted ``NodeTree``: it was never added to one, or it has left it.
  case notInTree
  /// Dispatches were already nested this deep in the tree (see ``NodeTree/reentrancyLimit``).
  case reentrancyLimit(Int)

  /// A sentence that says why.
  public var description: String {
    switch self {
    case .nodeReleased: "the node was released"
    case .notInTree: "the node is not in a rooted NodeTree"
    case .reentrancyLimit(let limit): "the reentrancy limit (\(limit) nested dispatches) was reached"
    }
  }
}

extension ActionOutcome: CustomStringConvertible {
  /// A one-line summary, such as `handled by window/editor: Save()`.
  public var description: String {
    switch self {
    case .handled(let node, let action): "handled by \(node.path): \(action)"
    case .unhandled(let action): "unhandled: \(action)"
    case .caught(let error, let node, let thrower):
      "error \(error) thrown by \(thrower.path), caught by \(node.path)"
    case .failed(let error, let thrower): "failed: error \(error) thrown by \(thrower.path)"
    case .notDispatched(let reason): "not dispatched: \(reason)"
    }
  }
}
