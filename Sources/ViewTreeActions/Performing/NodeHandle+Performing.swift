import Actions
import ViewTree

extension NodeHandle {
  /// Performs an identifier from the handle's node (see ``ViewTree/Node/perform(_:sender:tracing:)``):
  /// what a view's button does with the view's own handle, without reaching for the tree.
  ///
  /// ```swift
  /// handle.perform("menu.Save")
  /// ```
  ///
  /// - Parameters:
  ///   - identifier: The identifier, such as `"menu.Save"`.
  ///   - sender: What asks for the action; the handle's node when `nil`.
  ///   - trace: A trace that records the dispatch, or `nil`.
  /// - Returns: The manager's answer, or why no manager answered:
  ///   `NotDispatchedReason.handleHasNoNode` before the view declared itself.
  @discardableResult
  public func perform(_ identifier: String, sender: consuming Any? = nil, tracing trace: ActionTrace? = nil)
    -> RequestResult<PerformResult>
  {
    guard let node else { return .unanswered(.notDispatched(.handleHasNoNode)) }
    return node.perform(identifier, sender: sender, tracing: trace)
  }

  /// Activates the handle's node as an action item (see ``ViewTree/NodeTree/activate(_:)``): its
  /// identifier is performed from the tree's focused node, with the node as sender, as clicking
  /// the view does.
  ///
  /// - Returns: The manager's answer, or why no manager answered:
  ///   `NotDispatchedReason.handleHasNoNode` before the view declared itself, and what
  ///   a perform from the node reports while it is in no tree or in an inactive branch.
  /// - Throws: ``ViewTreeActionsError/notAnItem(node:)`` when the node is not an action item.
  @discardableResult
  public func activate() throws(ViewTreeActionsError) -> RequestResult<PerformResult> {
    guard let node else { return .unanswered(.notDispatched(.handleHasNoNode)) }
    guard let tree = node.tree else {
      guard let identifier = node.actionItemIdentifier else { throw .notAnItem(node: node.path) }
      return node.perform(identifier, sender: node)
    }
    return try tree.activate(node)
  }
}
