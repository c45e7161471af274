/// A handle that a node gives its views for triggering actions from it, like SwiftUI's
/// environment actions.
///
/// ```swift
/// let trigger = node.triggerAction
/// trigger(Save())
/// ```
///
/// The handle does not keep its node alive. Triggering after the node was released reports
/// ``NotDispatchedReason/nodeReleased``; from a ``NodeHandle`` that has no node yet,
/// ``NotDispatchedReason/handleHasNoNode``; from a node that has left its tree,
/// ``NotDispatchedReason/notInTree``. None of them crashes.
public struct TriggerAction {
  private weak var fixedNode: Node?
  /// The view's handle whose node actions start from, when made by ``NodeHandle/triggerAction``.
  private weak var handle: NodeHandle?

  /// Creates a handle for a node.
  ///
  /// - Parameter node: The node actions start from.
  public init(_ node: Node) { self.fixedNode = node }

  /// A trigger from whatever node `handle` names when it triggers.
  init(handle: NodeHandle) { self.handle = handle }

  /// The node actions start from, if it is alive.
  var node: Node? { fixedNode ?? handle?.node }

  /// Why there is no ``node``: a live handle whose view has not declared itself yet released
  /// nothing.
  var noNodeReason: NotDispatchedReason { handle != nil ? .handleHasNoNode : .nodeReleased }

  /// Whether the node is alive and in a rooted ``NodeTree``, so that a trigger would dispatch.
  public var canTrigger: Bool {
    guard let node, let tree = node.tree else { return false }
    return tree.isRooted
  }

  /// Triggers an action from the node.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - trace: A trace that records every step, or `nil`.
  /// - Returns: What happened to the action.
  @discardableResult
  public func callAsFunction(_ action: some Action, tracing trace: ActionTrace? = nil) -> ActionOutcome {
    guard let node else { return .notDispatched(noNodeReason) }
    return node.trigger(action, tracing: trace)
  }
}

extension Node {
  /// A handle for triggering actions from this node that does not keep it alive.
  public var triggerAction: TriggerAction { TriggerAction(self) }

  /// Triggers an action from this node: it runs the capture phase from the root down to here,
  /// then bubbles from here up to the root, until a node handles it.
  ///
  /// See <doc:PropagationRules> for the exact rules.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - trace: A trace that records every step, or `nil` (tracing off costs nothing).
  /// - Returns: What happened to the action.
  /// - Complexity: O(*d* + *m*): the node's depth and the modifiers on the path.
  @discardableResult @inlinable
  public func trigger(_ action: some Action, tracing trace: ActionTrace? = nil) -> ActionOutcome {
    Dispatcher.dispatch(action, type: ObjectIdentifier(type(of: action)), from: self, trace: trace)
  }
}
