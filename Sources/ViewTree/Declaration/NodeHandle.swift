/// An object a view owns that always names the node its declaration became: the way a toolkit
/// that re-renders one view at a time keeps each view's node.
///
/// A view keeps a handle in its state, for as long as the view lives. When its `body` runs, it
/// updates its own node through the handle, with a ``NodeDeclaration/slot(_:)`` for each child
/// view where that child's node goes; the children update theirs the same way, before or after.
/// The handle's node is made by the first of those to run, is the same node after every update,
/// and is removed from its parent when the view goes away (the handle is released, or
/// ``detach()``).
///
/// ```swift
/// final class RowView {
///   let handle = NodeHandle()
///   func body() {
///     handle.update(to: NodeDeclaration("row").handleAction(Delete.self) { _ in model.delete() })
///   }
/// }
/// final class ListView {
///   let handle = NodeHandle()
///   var rows: [RowView]
///   func body() {
///     handle.update(to: NodeDeclaration("list") { for row in rows { NodeDeclaration.slot(row.handle) } })
///   }
/// }
/// ```
///
/// A declaration bound to a handle with ``NodeDeclaration/bound(to:)`` matches the handle's node
/// in a whole-tree update too, whatever its id or position. A node is bound to at most one handle,
/// and a handle to at most one node: a declaration that would break that is reported (see
/// ``ViewTreeError/handleMismatch(node:)``), not applied.
///
/// The handle keeps its node alive, even while no parent places it; the node does not keep the
/// handle alive. A handler that needs the handle captures ``triggerAction`` (or the handle
/// weakly), so that the node's closures do not keep the view's handle, and so the node, alive.
public final class NodeHandle {
  /// The node the handle names, once a declaration or a slot has made it.
  public var node: Node? { _node }
  // NB: internal, and only ever read or written whole: the optimizer can then drop the dynamic
  // exclusivity checks on it, which an update reads once per slot.
  var _node: Node?

  /// Creates a handle with no node yet.
  public init() {}

  deinit {
    // The view went away: so does its node, from wherever it is placed.
    detach()
  }

  /// Triggers actions from the handle's node, which it finds when it triggers: usable while the
  /// view declares itself, before the node exists. It does not keep the handle or the node alive.
  public var triggerAction: TriggerAction { TriggerAction(handle: self) }

  /// Makes the handle's node exactly `declaration` (see ``Node/update(to:)``), making the node
  /// first if the handle has none yet; slots in it place other views' nodes without changing them.
  ///
  /// A view calls this each time its `body` is evaluated. The node is not placed anywhere by this
  /// call: its parent's declaration does that with a ``NodeDeclaration/slot(_:)``, before or after.
  ///
  /// - Parameter declaration: What the view's node should be. A slot, or a declaration bound to
  ///   another handle, is reported on the node (``ViewTreeError/handleMismatch(node:)``) and not
  ///   applied.
  /// - Complexity: O(*n* + *m*) in the declared nodes and modifiers; a slot costs O(1).
  public func update(to declaration: consuming NodeDeclaration) {
    let node = _node ?? makeNode(id: declaration.id)
    guard declaration.handle == nil || declaration.handle === self, !declaration.keepsContent else {
      node.reporting(ViewTreeError.handleMismatch(node: node.path))
      return
    }
    let orphaned = node.existingExtras?.placing.orphaned
    // The handle's own declaration: bound to it, as only a bound declaration updates its node.
    node.update(to: declaration, boundTo: self)
    if let orphaned {
      // The view's parent went away, and nothing placed the node again: the view was kept.
      // Reported after the update, which replaces the node's problems by its declaration's.
      node.existingExtras?.placing.orphaned = nil
      if node.parent == nil {
        let problem = ViewTreeError.handleOutlivedParent(node: node.path, parent: orphaned.parent)
        node.reporting(problem)
        orphaned.tree?.settings.onProblem?(problem, node)
      }
    }
  }

  /// Removes the node from its parent and forgets it, as when the view goes away; the next
  /// update or slot makes a new one.
  ///
  /// The nodes of child views leave the tree with this one. A child view that goes on declaring
  /// itself afterwards (its handle updates its node while nothing placed it again) was kept by
  /// the toolkit after its parent went: that update is reported as
  /// ``ViewTreeError/handleOutlivedParent(node:parent:)``, on the node and to the tree it left.
  public func detach() {
    guard let node = _node else { return }
    // One record for all the node's bound children, made at the first one.
    var orphaned: Orphaned?
    for child in node.childList where child.boundHandle != nil {
      guard let record = orphaned ?? node.root.treeState.map({ Orphaned(parent: node.path, tree: $0) }) else {
        break
      }
      orphaned = record
      child.extras.placing.orphaned = record
    }
    _node = nil
    node.existingExtras?.handle = nil
    node.removeFromParent()
  }

  /// Whether the handle's node takes part in its tree (see ``Node/isActive``): `true` while it
  /// has no node. Setting it makes the node first if there is none yet.
  public var isActive: Bool {
    get { _node?.isActive ?? true }
    set { (_node ?? makeNode(id: nil)).isActive = newValue }
  }

  /// Focuses the handle's node (see ``NodeTree/focus(_:)``).
  ///
  /// - Throws: ``ViewTreeError/handleHasNoNode`` before the view declared itself,
  ///   ``ViewTreeError/nodeNotInTree(node:)`` while its node is in no tree (not yet placed, or
  ///   inactive), or what ``NodeTree/focus(_:)`` throws.
  public func focus() throws(ViewTreeError) {
    guard let node = _node else { throw .handleHasNoNode }
    guard let tree = node.tree else { throw .nodeNotInTree(node: node.path) }
    try tree.focus(node)
  }

  /// Makes a node bound to this handle.
  func makeNode(id: String?) -> Node {
    let node = Node(id)
    bind(node)
    return node
  }

  /// Binds `node`, which is bound to no handle, to this handle, which has no node.
  func bind(_ node: Node) {
    _node = node
    node.extras.handle = self
  }
}

extension Node {
  /// The handle this node is bound to (see ``NodeHandle``), if any: how code that has the node,
  /// such as a handler, reaches the view's handle.
  public var handle: NodeHandle? { existingExtras?.handle }

  /// The identity of the handle this node is bound to, if any.
  var boundHandle: ObjectIdentifier? { existingExtras?.handle.map(ObjectIdentifier.init) }

}

/// For a node whose parent's view went away while its own handle lived on (see
/// `NodeHandle.detach()`): where it was, and the tree to tell if its view goes on declaring it.
/// (A class: a node's update asks whether it has one, which for a reference is one load.)
final class Orphaned {
  let parent: String
  weak var tree: TreeState?

  init(parent: String, tree: TreeState) {
    self.parent = parent
    self.tree = tree
  }
}
