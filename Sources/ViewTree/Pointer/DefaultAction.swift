/// What a node does when it is activated, as the DOM's activation behaviour: a primary click on it
/// (or on a node below it) that no handler took runs it (see <doc:RoutingThePointer>).
///
/// ViewTreeActions' `actionItem(_:)` declares it: an item performs its identifier, as Enter at
/// the item does. The router knows only that the node has one, and hands back what it returned.
package struct DefaultAction {
  /// The identifier the node is bound to.
  package let identifier: String
  /// Runs the default action of the node it is given, bound to `identifier`; its result goes
  /// into `PointerResult`.
  package let activate: (_ node: Node, _ identifier: String) -> Any

  /// A default action.
  package init(identifier: String, activate: @escaping (_ node: Node, _ identifier: String) -> Any) {
    self.identifier = identifier
    self.activate = activate
  }
}

/// A node's default action, if it has one.
package enum DefaultActionKey: NodeAttachmentKey {
  package static var defaultValue: DefaultAction? { nil }
}

extension Node {
  /// The nearest node from this one up to the root of its tree that has a default action, as a
  /// click on a label inside a button activates the button, and that action.
  func nearestDefaultAction(within root: Node) -> (node: Node, action: DefaultAction)? {
    // The walk only reads whether each node has one (invariant 10 of `INVARIANTS.md`).
    guard
      let node = firstAncestor(
        within: root, where: { $0.hasAttachments && $0.hasAttachment(DefaultActionKey.self) }),
      let action = node[attachment: DefaultActionKey.self]
    else { return nil }
    return (node, action)
  }
}
