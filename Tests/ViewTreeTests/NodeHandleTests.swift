import TestSupport
import Testing
@_spi(Invariants) import ViewTree

/// Per-view updates: each view updates its own node through a `NodeHandle`, and places its child
/// views' nodes with slots.
@Suite struct NodeHandleTests {
  /// The ids of `node`'s children.
  func ids(_ node: Node?) -> [String?] { node?.children.map(\.id) ?? [] }

  @Test func aViewUpdatesItsOwnNodeAndLeavesItsChildViewsNodesAlone() throws {
    let log = Log()
    let parent = NodeHandle()
    let child = NodeHandle()
    child.update(
      to: NodeDeclaration("child") { NodeDeclaration("inner") }.handleAction(Save.self) { _ in log("child v1")
      })
    parent.update(to: NodeDeclaration("parent") { NodeDeclaration.slot(child) }.onAction { _ in })
    let tree = try NodeTree(root: try #require(parent.node))
    let childNode = try #require(child.node)
    #expect(childNode.parent === parent.node)
    #expect(ids(childNode) == ["inner"])

    // The parent re-renders: its modifiers change, the child's node keeps its own.
    parent.update(
      to: NodeDeclaration("parent") { NodeDeclaration.slot(child) }.handleAction(Open.self) { _ in })
    #expect(child.node === childNode)
    #expect(ids(childNode) == ["inner"])
    #expect(childNode.modifiers.map(\.description) == ["handleAction(Save)"])
    #expect(tree.root.modifiers.map(\.description) == ["handleAction(Open)"])

    // The child re-renders: the parent is untouched, and the latest closure runs.
    child.update(
      to: NodeDeclaration("child") { NodeDeclaration("inner") }.handleAction(Save.self) { _ in log("child v2")
      })
    #expect(tree.root.modifiers.map(\.description) == ["handleAction(Open)"])
    #expect(try #require(tree.node(id: "inner")).trigger(Save()).handler === childNode)
    #expect(log.entries == ["child v2"])
  }

  @Test func aChildMayUpdateBeforeOrAfterItsParentPlacesIt() throws {
    // The parent first: the slot makes an empty node bound to the handle, which its update fills.
    let parent = NodeHandle()
    let late = NodeHandle()
    parent.update(to: NodeDeclaration("parent") { NodeDeclaration.slot(late) })
    let placed = try #require(late.node)
    #expect(placed.parent === parent.node)
    #expect(placed.modifiers.isEmpty)
    late.update(to: NodeDeclaration("late").handleAction(Save.self) { _ in })
    #expect(late.node === placed)
    #expect(placed.id == "late")
    #expect(placed.parent === parent.node)

    // The child first: its node exists unplaced until the parent places it.
    let early = NodeHandle()
    early.update(to: NodeDeclaration("early").handleAction(Save.self) { _ in })
    let made = try #require(early.node)
    #expect(made.parent == nil)
    parent.update(
      to: NodeDeclaration("parent") {
        NodeDeclaration.slot(late)
        NodeDeclaration.slot(early)
      })
    #expect(early.node === made)
    #expect(ids(parent.node) == ["late", "early"])
    #expect(made.modifiers.map(\.description) == ["handleAction(Save)"])
  }

  @Test func slotsTakeTheirDeclaredPositionsWhateverOrderTheViewsRenderIn() throws {
    let list = NodeHandle()
    let rows = (0..<5).map { _ in NodeHandle() }
    func renderList(_ order: [Int]) {
      list.update(to: NodeDeclaration("list") { for index in order { NodeDeclaration.slot(rows[index]) } })
    }
    renderList([0, 1, 3, 4])
    // Rows render after the list, in a shuffled order.
    for index in [4, 0, 3, 1] { rows[index].update(to: NodeDeclaration("r\(index)")) }
    #expect(ids(list.node) == ["r0", "r1", "r3", "r4"])
    let before = try #require(list.node).children
    // A row inserted in the middle lands in the middle; the others keep their nodes.
    renderList([0, 1, 2, 3, 4])
    rows[2].update(to: NodeDeclaration("r2"))
    #expect(ids(list.node) == ["r0", "r1", "r2", "r3", "r4"])
    #expect(try #require(list.node).children.filter { node in before.contains { $0 === node } }.count == 4)
    // Reordered: the same nodes, in the new order.
    renderList([4, 3, 2, 1, 0])
    #expect(ids(list.node) == ["r4", "r3", "r2", "r1", "r0"])
    #expect(list.node?.children.first === rows[4].node)
  }

  @Test func aBoundDeclarationMatchesItsHandlesNodeAndNoOther() throws {
    let first = NodeHandle()
    let second = NodeHandle()
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("row").bound(to: first)
        NodeDeclaration("row").bound(to: second)
        NodeDeclaration("row")
      })
    let (a, b) = (try #require(first.node), try #require(second.node))
    let plain = tree.root.children[2]
    // Swapped, with the same ids: each handle keeps its node; the unbound row keeps its own.
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("row")
        NodeDeclaration("row").bound(to: second)
        NodeDeclaration("row").bound(to: first)
      })
    let swapped = tree.root.children.elementsEqual([plain, b, a], by: ===)
    #expect(swapped)
    // An unbound declaration never takes a bound node: with the handles gone from the
    // declaration, their nodes go and a new unbound row is made.
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("row")
        NodeDeclaration("row")
      })
    #expect(tree.root.children.count == 2)
    #expect(tree.root.children[0] === plain)
    #expect(tree.root.children[1] !== a && tree.root.children[1] !== b)
    #expect(a.parent == nil && first.node === a)
  }

  @Test func aDeclarationForAnotherHandlesNodeIsReportedNotApplied() throws {
    let first = NodeHandle()
    let second = NodeHandle()
    first.update(to: NodeDeclaration("first").handleAction(Save.self) { _ in })
    second.update(to: NodeDeclaration("second"))
    let node = try #require(first.node)
    var reported: [ViewTreeError] = []
    let tree = try NodeTree(root: node)
    tree.onProblem = { problem, _ in if let error = problem as? ViewTreeError { reported.append(error) } }

    // The first handle's node, updated to a declaration bound to the second.
    node.update(to: NodeDeclaration("stolen").bound(to: second))
    #expect(node.id == "first")
    #expect(node.modifiers.count == 1)
    // A node bound to no handle, updated to a declaration for a handle that has a node.
    let loose = Node("loose")
    try node.addChild(loose)
    loose.update(to: NodeDeclaration("x").bound(to: second))
    #expect(loose.id == "loose")
    // A handle given a slot, or another handle's declaration.
    first.update(to: NodeDeclaration.slot(second))
    first.update(to: NodeDeclaration("y").bound(to: second))
    #expect(node.id == "first")
    #expect(
      reported == Array(repeating: .handleMismatch(node: "first"), count: 1) + [
        .handleMismatch(node: "first/loose"), .handleMismatch(node: "first"), .handleMismatch(node: "first"),
      ])
    #expect(second.node?.parent == nil)
  }

  /// Found by the tree-mutations fuzzer: one update moving a view here and, after it, a view
  /// that was inside it counted the inner view's watched nodes twice.
  @Test func slotsThatMoveAViewAndTheViewInsideItCountItsCallbacksOnce() throws {
    let outer = NodeHandle()
    let inner = NodeHandle()
    var heard: [String] = []
    inner.update(to: NodeDeclaration("inner").onAttach { _ in heard.append("attach inner") })
    outer.update(
      to: NodeDeclaration("outer") { NodeDeclaration.slot(inner) }.onAttach { _ in
        heard.append("attach outer")
      })
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("old") { NodeDeclaration.slot(outer) }
        NodeDeclaration("new")
      })
    heard = []
    let new = try #require(tree.node(id: "new"))
    new.update(
      to: NodeDeclaration("new") {
        NodeDeclaration.slot(outer)
        NodeDeclaration.slot(inner)
      })
    #expect(new.children.map(\.id) == ["outer", "inner"])
    #expect(tree.checkInvariants().isEmpty)
    // Each moved once: attached once again, as a move within the tree is.
    #expect(heard.sorted() == ["attach inner", "attach outer"])
  }

  @Test func aHandlePlacedTwiceOrInsideItselfIsReported() throws {
    let parent = NodeHandle()
    let child = NodeHandle()
    parent.update(
      to: NodeDeclaration("parent") {
        NodeDeclaration.slot(child)
        NodeDeclaration.slot(child)
      })
    #expect(parent.node?.children.count == 1)
    #expect(parent.node?.problems.map { $0 as? ViewTreeError } == [.handlePlacedTwice(parent: "parent")])
    // The parent's node inside its own child.
    child.update(to: NodeDeclaration("child") { NodeDeclaration.slot(parent) })
    #expect(child.node?.children.isEmpty == true)
    #expect(child.node?.problems.map { $0 as? ViewTreeError } == [.handlePlacedTwice(parent: "parent/child")])
    #expect(child.node?.parent === parent.node)
  }

  @Test func anUnchangedChildKeepsItsSubtreeAsItIs() throws {
    var rendered = 0
    func declareBig(_ version: Int) -> NodeDeclaration {
      rendered += 1
      return NodeDeclaration("big") { for index in 0..<100 { NodeDeclaration("leaf\(index)") } }
        .handleAction(Save.self) { _ in }
    }
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        declareBig(1)
        NodeDeclaration("small")
      })
    let big = try #require(tree.node(id: "big"))
    let leaves = big.children
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration.unchanged("big")
        NodeDeclaration("small")
      })
    #expect(tree.node(id: "big") === big)
    let kept = big.children.elementsEqual(leaves, by: ===)
    #expect(kept)
    #expect(big.modifiers.map(\.description) == ["handleAction(Save)"])
    #expect(rendered == 1)
    #expect(tree.root.problems.isEmpty)
    // Nothing to keep: an empty node, reported.
    tree.update(to: NodeDeclaration("root") { NodeDeclaration.unchanged("gone") })
    #expect(ids(tree.root) == ["gone"])
    #expect(
      tree.root.problems.map { $0 as? ViewTreeError } == [.unchangedWithoutNode(id: "gone", parent: "root")])
  }

  @Test func theHandlesTriggerWorksBeforeItsNodeExistsAndFollowsIt() throws {
    let log = Log()
    let parent = NodeHandle()
    let child = NodeHandle()
    // Taken at declaration time, before the child's node exists.
    let trigger = child.triggerAction
    #expect(!trigger.canTrigger)
    // Nothing was released: the handle has no node yet, and says so.
    guard case .notDispatched(.handleHasNoNode) = trigger(Save()) else {
      Issue.record("a trigger before the node exists reports that the handle has no node")
      return
    }
    #expect("\(trigger(Save()))" == "not dispatched: the NodeHandle has no node yet")
    child.update(to: NodeDeclaration("child").onAction { _ in log("child saw it") })
    parent.update(
      to: NodeDeclaration("parent") { NodeDeclaration.slot(child) }.handleAction(Save.self) { _ in
        log("parent")
      })
    let tree = try NodeTree(root: try #require(parent.node))
    #expect(trigger.canTrigger)
    #expect(trigger(Save()).handler === tree.root)
    #expect(log.entries == ["child saw it", "parent"])
  }

  @Test func aHandleThatGoesAwayTakesItsNodeOutOfTheTree() throws {
    var detached: [String] = []
    let parent = NodeHandle()
    var child: NodeHandle? = NodeHandle()
    weak var weakNode: Node?
    do {
      child?.update(to: NodeDeclaration("child").onDetach { detached.append($0.id ?? "?") })
      parent.update(to: NodeDeclaration("parent") { NodeDeclaration.slot(child!) })
      weakNode = child?.node
    }
    let tree = try NodeTree(root: try #require(parent.node))
    tree.root.focusable()
    child?.node?.focusable()
    try tree.focus(id: "child")
    child = nil
    #expect(weakNode == nil)
    #expect(detached == ["child"])
    #expect(tree.root.children.isEmpty)
    #expect(tree.focusedNode === tree.root)

    // `detach()`: out of the tree, forgotten; the next update makes a new node.
    let other = NodeHandle()
    parent.update(to: NodeDeclaration("parent") { NodeDeclaration.slot(other) })
    let first = try #require(other.node)
    other.detach()
    #expect(other.node == nil && first.parent == nil)
    parent.update(to: NodeDeclaration("parent") { NodeDeclaration.slot(other) })
    #expect(other.node !== first && other.node?.parent === tree.root)
  }

  @Test func callbacksDuringAnUpdateThatMovesAHandlesNodeSeeAConsistentTree() throws {
    // Found by FuzzTreeMutations: a removed sibling's detach callback ran while the moved node's
    // lifecycle counts were not yet moved with it.
    var problems: [String] = []
    var tree: NodeTree?
    let row = NodeHandle()
    row.update(to: NodeDeclaration("row").onAttach { _ in }.onDetach { _ in })
    tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("left") { NodeDeclaration.slot(row) }
        NodeDeclaration("right") {
          NodeDeclaration("gone").onDetach { _ in
            problems += tree?.checkInvariants(idle: false) ?? ["no tree"]
          }
        }
      })
    tree?.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("left")
        NodeDeclaration("right") { NodeDeclaration.slot(row) }
      })
    #expect(row.node?.path == "root/right/row")
    #expect(problems.isEmpty)
    #expect(tree?.checkInvariants().isEmpty == true)
  }

  @Test func aSlotMovesItsNodeBetweenParentsWithItsCallbacks() throws {
    var events: [String] = []
    let row = NodeHandle()
    row.update(
      to: NodeDeclaration("row").onAttach { events.append("attach \($0.path)") }.onDetach { _ in
        events.append("detach")
      })
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("left")
        NodeDeclaration("right")
      })
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("left") { NodeDeclaration.slot(row) }
        NodeDeclaration("right")
      })
    #expect(events == ["attach root/left/row"])
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("left")
        NodeDeclaration("right") { NodeDeclaration.slot(row) }
      })
    #expect(row.node?.path == "root/right/row")
    #expect(events == ["attach root/left/row", "detach", "attach root/right/row"])
    #expect(tree.checkInvariants().isEmpty)
  }
}
