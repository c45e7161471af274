import Actions
import ViewTree

/// The identifier an item node is bound to, and what activates it: ViewTree's default action,
/// which a primary click that no handler took runs, as Enter does.
typealias ActionItemAttachment = DefaultActionKey

extension ModifierHost {
  /// Binds this node to an identifier: it is an item, such as a button or a menu entry, that
  /// `NodeTree.validateItems(in:)` validates and `NodeTree.activate(_:)` performs: so does Enter
  /// at the item, and a primary click on it (or on a node below it) that no handler takes, as
  /// the DOM activates a button (`PointerResult.activation` says what the click performed).
  ///
  /// ```swift
  /// Node("menu.edit") {
  ///   Node("undo").actionItem("menu.Undo")
  ///   Node("red").actionItem(#"color.SetColor("color": "red")"#)
  /// }
  /// ```
  ///
  /// - Parameter identifier: The identifier, arguments included.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func actionItem(_ identifier: String) -> Self {
    settingAttachment(
      ActionItemAttachment.self, to: DefaultAction(identifier: identifier, activate: Self.activate))
  }
}

extension Node {

  /// The identifier this node is bound to as an item, if any.
  public var actionItemIdentifier: String? { self[attachment: ActionItemAttachment.self]?.identifier }
}

extension NodeTree {
  /// Validates every item in a subtree (a menu, a toolbar, or the whole tree) against the current
  /// focus: a view of what the focus offers with the subtree's items (see
  /// ``offeredActions(at:itemsIn:includingRegistered:)``), one row per item, each the entry of its
  /// identifier with ``ActionEntry/node`` the item.
  ///
  /// Menus and toolbars call this when they open or when the focus changes. The items, and the
  /// identifiers they are bound to, are those of the subtree when the call begins. Each identifier
  /// is validated once, as if performed from the focused node, with its nearest item or binding
  /// as sender; its entry carries the keys that reach it from the focus, for the menu to show.
  ///
  /// - Parameter subtree: Where to look for items; the whole tree when `nil`.
  /// - Returns: One entry per item, in depth-first order.
  /// - Complexity: O(*n* + *d* + *b*): the subtree's size and the path's bindings, plus one
  ///   validation per identifier.
  public func validateItems(in subtree: Node? = nil) -> [ActionEntry] {
    let list = firstResponder.offered(itemsIn: subtree ?? root, includingRegistered: false)
    return list.itemRows.map { row in
      let entry = list.entries[row.entry]
      return entry.row(for: entry.offers[row.offer])
    }
  }

  /// Activates an item: performs its identifier from the focused node (or the root), with the item
  /// as sender, as clicking a menu entry or a toolbar button does.
  ///
  /// - Parameter item: A node bound to an identifier with `Node.actionItem(_:)`.
  /// - Returns: The manager's answer, or why no manager answered.
  /// - Throws: ``ViewTreeActionsError/notAnItem(node:)`` when the node is not bound to an
  ///   identifier.
  @discardableResult
  public func activate(_ item: Node) throws(ViewTreeActionsError) -> RequestResult<PerformResult> {
    guard let identifier = item.actionItemIdentifier else { throw .notAnItem(node: item.path) }
    return item.activate(identifier, in: self)
  }
}

extension Node {
  /// Activates this item, bound to `identifier`, in `tree`: performs the identifier from the
  /// tree's focus (or root) with the item as sender. What `NodeTree.activate(_:)`, a click on the
  /// item and Enter at it do.
  func activate(_ identifier: String, in tree: NodeTree) -> RequestResult<PerformResult> {
    tree.firstResponder.perform(identifier, sender: self)
  }
}

extension ModifierHost {
  /// An item's default action (see `DefaultAction`), which a click runs.
  fileprivate static func activate(_ item: Node, _ identifier: String) -> Any {
    guard let tree = item.tree else {
      return RequestResult<PerformResult>.unanswered(.notDispatched(.notInTree))
    }
    return item.activate(identifier, in: tree)
  }
}

extension PointerResult {
  /// For a primary click that no handler took on an action item, or on a node below one: what
  /// activating the item performed, as `NodeTree.activate(_:)` reports it; `nil` when the click
  /// activated nothing.
  public var activation: RequestResult<PerformResult>? { activated as? RequestResult<PerformResult> }
}

extension Node {
  /// The items of this subtree and their identifiers, in depth-first pre-order.
  func items() -> [(item: Node, identifier: String)] {
    var found: [(item: Node, identifier: String)] = []
    // What is inactive is hidden: its items are not the menu's.
    walkSubtree(includingInactive: false) { node in
      if node.hasAttachments, let identifier = node[attachment: ActionItemAttachment.self]?.identifier {
        found.append((node, identifier))
      }
    }
    return found
  }
}
