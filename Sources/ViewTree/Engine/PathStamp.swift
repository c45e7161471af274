/// What a request sent from a node depends on, noted once: the nodes from it to the root, each
/// one's modifiers and attachments, the tree's structure and its dispatch settings. A caller that
/// worked out a request's route once and takes it many times (the list of what a node offers
/// validates each entry) takes it while `isCurrent`, and works it out again when it is not: user
/// code it runs meanwhile may have changed any of these.
///
/// Per tree and per node, so that trees on different actors share nothing: it reads each node's
/// modifier serial (`Node.nextSerial`, which every change to the list advances), its count of
/// attachment edits, and the tree's `structureVersion` (which every node leaving the tree
/// advances). It holds the nodes, so none of them is freed while it is kept.
package struct PathStamp {
  private let path: [(node: Node, modifiers: UInt64, attachments: UInt32)]
  private let structure: UInt64

  /// Notes the path from `node`; `nil` when the node is not in a rooted tree.
  package init?(from node: Node) {
    var path: [(node: Node, modifiers: UInt64, attachments: UInt32)] = []
    node.walkAncestors { node in
      path.append((node, node._nextSerial, node._extras?._attachmentEdits ?? 0))
      return false
    }
    guard let top = path.last?.node, top.activeParent == nil, let state = top.treeState else { return nil }
    self.path = path
    structure = state._structureVersion
  }

  /// Whether nothing noted changed and a dispatch would see no more than it did: no node left
  /// the tree, the top is still its root, no node on the path gained or lost a modifier or an
  /// attachment, and the tree has no step observer and is below its reentrancy limit (as
  /// `Node.soleResponder(for:)` asks).
  package var isCurrent: Bool {
    // `init` noted at least one node, the top, a root with a state.
    let top = path[path.count - 1].node
    guard top.activeParent == nil, let state = top.treeState, state._structureVersion == structure,
      state._settings.stepObserver == nil, state._dispatchDepth < state._settings.reentrancyLimit
    else { return false }
    // Read in place: an entry copied out would retain its node.
    for index in path.indices
    where path[index].node._nextSerial != path[index].modifiers
      || (path[index].node._extras?._attachmentEdits ?? 0) != path[index].attachments
    {
      return false
    }
    return true
  }
}
