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
  /// The ``NodeHandle`` it was triggered through has no node yet: its view has not declared
  /// itself, and no parent has placed it (see ``NodeHandle/triggerAction``).
  case handleHasNoNode
  /// The node is not in a rooted ``NodeTree``: it was never added to one, or it has left it.
  case notInTree
  /// The node is in a branch made inactive (see ``Node/isActive``).
  case inactive
  /// Dispatches were already nested this deep in the tree (see ``NodeTree/reentrancyLimit``).
  case reentrancyLimit(Int)

  /// A sentence that says why.
  public var description: String {
    switch self {
    case .nodeReleased: "the node was released"
    case .handleHasNoNode: "the NodeHandle has no node yet"
    case .notInTree: "the node is not in a rooted NodeTree"
    case .inactive: "the node is in an inactive branch"
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

extension ActionOutcome {
  /// What happened to an action, as plain values a `Task` can return or another actor can keep.
  ///
  /// An outcome holds the nodes and the action themselves, which belong to the tree's isolation
  /// domain and are not `Sendable`; a summary holds their paths and descriptions instead:
  ///
  /// ```swift
  /// let summary = await Task { @MainActor in tree.firstResponder.trigger(Save()).summary }.value
  /// ```
  public struct Summary: Hashable, Sendable, CustomStringConvertible {
    /// How the dispatch ended.
    public enum Kind: Hashable, Sendable {
      /// A node handled the action.
      case handled
      /// Nobody handled it.
      case unhandled
      /// A modifier threw an error that a `catchError` modifier caught.
      case caught
      /// A modifier threw an error that nobody caught.
      case failed
      /// The action was not dispatched, for this reason.
      case notDispatched(NotDispatchedReason)
    }

    /// How the dispatch ended.
    public let kind: Kind
    /// The path of the node that handled the action or caught the error; `nil` otherwise.
    public let nodePath: String?
    /// The path of the node whose modifier threw the error, for caught and failed outcomes.
    public let throwerPath: String?
    /// The final action (after transforms), described, for handled and unhandled outcomes.
    public let action: String?
    /// The error, for caught and failed outcomes.
    public let error: (any Error)?
    /// The outcome's one-line description.
    public let description: String

    /// Whether two summaries describe the same outcome (errors compared by description).
    public static func == (lhs: Summary, rhs: Summary) -> Bool {
      lhs.kind == rhs.kind && lhs.nodePath == rhs.nodePath && lhs.throwerPath == rhs.throwerPath
        && lhs.action == rhs.action && lhs.description == rhs.description
    }

    /// Hashes the summary's kind and description.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(kind)
      hasher.combine(description)
    }
  }

  /// This outcome as plain `Sendable` values (see ``Summary``).
  public var summary: Summary {
    switch self {
    case .handled(let node, let action):
      Summary(
        kind: .handled, nodePath: node.path, throwerPath: nil, action: "\(action)", error: nil,
        description: description)
    case .unhandled(let action):
      Summary(
        kind: .unhandled, nodePath: nil, throwerPath: nil, action: "\(action)", error: nil,
        description: description)
    case .caught(let error, let node, let thrower):
      Summary(
        kind: .caught, nodePath: node.path, throwerPath: thrower.path, action: nil, error: error,
        description: description)
    case .failed(let error, let thrower):
      Summary(
        kind: .failed, nodePath: nil, throwerPath: thrower.path, action: nil, error: error,
        description: description)
    case .notDispatched(let reason):
      Summary(
        kind: .notDispatched(reason), nodePath: nil, throwerPath: nil, action: nil, error: nil,
        description: description)
    }
  }
}
