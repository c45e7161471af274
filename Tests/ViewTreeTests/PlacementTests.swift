import TestSupport
import Testing
@_spi(Invariants) import ViewTree

/// The ids of `node`'s children, in order.
private func ids(_ node: Node?) -> [String] { node?.children.map { $0.id ?? "?" } ?? [] }

@Suite struct PlacementTests {
  @Test func aChildPlacesItselfAndStaysAcrossBothViewsUpdates() throws {
    let parent = NodeHandle()
    let child = NodeHandle()
    parent.update(to: NodeDeclaration("list") { NodeDeclaration("header") })
    // The child's body runs before anything lists it: it places itself.
    child.update(to: NodeDeclaration("row").handleAction(Save.self) { _ in })
    child.place(in: parent)
    #expect(ids(parent.node) == ["header", "row"])
    // The parent's next update does not mention it, and keeps it after what it declares.
    parent.update(
      to: NodeDeclaration("list") {
        NodeDeclaration("title")
        NodeDeclaration("header")
      })
    #expect(ids(parent.node) == ["title", "header", "row"])
    child.update(to: NodeDeclaration("row2"))
    #expect(ids(parent.node) == ["title", "header", "row2"])
    #expect(parent.node?.children.last === child.node)
    let tree = try NodeTree(root: try #require(parent.node))
    #expect(tree.checkInvariants().isEmpty)
    // The view goes: its node goes.
    child.detach()
    #expect(ids(parent.node) == ["title", "header"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func placedChildrenKeepTheirOrderAndOnesWithoutOneGoLast() throws {
    let parent = NodeHandle()
    parent.update(to: NodeDeclaration("list"))
    var rows: [NodeHandle] = []
    for index in [5, 1, 3] {
      let row = NodeHandle()
      row.update(to: NodeDeclaration("row\(index)"))
      row.place(in: parent, order: [0, index])
      rows.append(row)
    }
    #expect(ids(parent.node) == ["row1", "row3", "row5"])
    // A row inserted in the middle lands in the middle, whatever the others' indices are.
    let inserted = NodeHandle()
    inserted.update(to: NodeDeclaration("row2"))
    inserted.place(in: parent, order: [0, 2])
    #expect(ids(parent.node) == ["row1", "row2", "row3", "row5"])
    // An `if` at an earlier position of the parent's content comes before the rows.
    let banner = NodeHandle()
    banner.update(to: NodeDeclaration("banner"))
    banner.place(in: parent, order: [0])
    #expect(ids(parent.node) == ["banner", "row1", "row2", "row3", "row5"])
    // Without an order: after those placed so far; with equal orders: in placement order.
    let footer = NodeHandle()
    footer.update(to: NodeDeclaration("footer"))
    footer.place(in: parent)
    let twin = NodeHandle()
    twin.update(to: NodeDeclaration("twin"))
    twin.place(in: parent, order: [0, 2])
    #expect(ids(parent.node) == ["banner", "row1", "row2", "twin", "row3", "row5", "footer"])
    // Placed again with a new order, a node moves; with the same one, or none, it stays.
    rows[0].place(in: parent, order: [0, 4])
    #expect(ids(parent.node) == ["banner", "row1", "row2", "twin", "row3", "row5", "footer"])
    // (The footer took the order of the last node placed before it, row5's first.)
    rows[1].place(in: parent, order: [0, 9])
    #expect(ids(parent.node) == ["banner", "row2", "twin", "row3", "row5", "footer", "row1"])
    rows[1].place(in: parent)
    #expect(ids(parent.node) == ["banner", "row2", "twin", "row3", "row5", "footer", "row1"])
    let tree = try NodeTree(root: try #require(parent.node))
    #expect(tree.checkInvariants().isEmpty)
    withExtendedLifetime((rows, inserted, banner, footer, twin)) {}
  }

  @Test func aSlotTakesAPlacedNodeAndMisplacementsAreReported() throws {
    let parent = NodeHandle()
    let child = NodeHandle()
    child.update(to: NodeDeclaration("row"))
    child.place(in: parent)
    parent.update(
      to: NodeDeclaration("list") {
        NodeDeclaration("a")
        NodeDeclaration.slot(child)
      })
    // The slot decides: the node is the declaration's now, at the slot's place.
    #expect(ids(parent.node) == ["a", "row"])
    parent.update(
      to: NodeDeclaration("list") {
        NodeDeclaration.slot(child)
        NodeDeclaration("a")
      })
    #expect(ids(parent.node) == ["row", "a"])
    // Placing it while a slot places it changes nothing and says why.
    child.place(in: parent, order: [1])
    #expect(ids(parent.node) == ["row", "a"])
    #expect(child.node?.problems.last as? ViewTreeError == .placedBySlot(node: "list/row", parent: "list"))
    // A node placed inside itself.
    let grandchild = NodeHandle()
    grandchild.update(to: NodeDeclaration("cell"))
    grandchild.place(in: child)
    child.place(in: grandchild)
    #expect(child.node?.problems.last as? ViewTreeError == .cycle(child: "list/row", parent: "list/row/cell"))
    #expect(ids(parent.node) == ["row", "a"])
    let tree = try NodeTree(root: try #require(parent.node))
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func explicitChildrenGoBeforeThePlacedOnesAndPlacedOnesMoveBetweenParents() throws {
    let list = NodeHandle()
    let other = NodeHandle()
    let row = NodeHandle()
    let root = Node("root")
    let tree = try NodeTree(root: root)
    list.update(to: NodeDeclaration("list"))
    other.update(to: NodeDeclaration("other"))
    try root.addChild(try #require(list.node))
    try root.addChild(try #require(other.node))
    row.update(to: NodeDeclaration("row").focusable())
    row.place(in: list)
    try row.focus()
    try list.node?.addChild(Node("added"))
    #expect(ids(list.node) == ["added", "row"])
    #expect(throws: ViewTreeError.self) { try list.node?.insertChild(Node("late"), at: 2) }
    // Moved to another parent: the focus, in a node that stays in the tree, stays.
    row.place(in: other, order: [1])
    #expect(ids(list.node) == ["added"])
    #expect(ids(other.node) == ["row"])
    #expect(tree.focusedNode === row.node)
    // An explicit insertion of a placed node makes it an ordinary child.
    try other.node?.insertChild(try #require(row.node), at: 0)
    other.update(to: NodeDeclaration("other"))
    #expect(ids(other.node) == [])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aNodeReachesItsHandleAndAHandleFocusesAndTriggers() throws {
    let handle = NodeHandle()
    #expect(throws: ViewTreeError.handleHasNoNode) { try handle.focus() }
    handle.update(to: NodeDeclaration("field").focusable())
    #expect(throws: ViewTreeError.nodeNotInTree(node: "field")) { try handle.focus() }
    let tree = NodeTree("window") {}
    let window = NodeHandle()
    window.update(to: NodeDeclaration("form"))
    try tree.root.addChild(try #require(window.node))
    handle.place(in: window)
    #expect(handle.node?.handle === handle)
    #expect(tree.root.handle == nil)
    try handle.focus()
    #expect(tree.focusedNode === handle.node)
    var saved = 0
    window.node?.handleAction(Save.self) { _ in saved += 1 }
    #expect(handle.triggerAction(Save()).isHandled)
    #expect(saved == 1)
  }
}

@Suite struct InactiveBranchTests {
  /// Found by FuzzTreeMutations: a node inside an inactive branch is still inside the nodes above
  /// it, so adding one of them below it (by `addChild`, `insertChild`, a slot or `place`) is a
  /// cycle, not a loop of parents.
  @Test func aCycleThroughAnInactiveNodeIsRefused() throws {
    let tree = NodeTree("root") { Node("a") { Node("b") { Node("c") } } }
    let a = try #require(tree.node(id: "a"))
    let c = try #require(tree.node(id: "c"))
    a.isActive = false
    #expect(throws: ViewTreeError.cycle(child: "root", parent: "root/a/b/c")) { try c.addChild(tree.root) }
    #expect(throws: ViewTreeError.cycle(child: "root/a", parent: "root/a/b/c")) {
      try c.insertChild(a, at: 0)
    }
    // Through handles: a view's node placed, or put in a slot, below itself.
    let outer = NodeHandle()
    let inner = NodeHandle()
    outer.update(to: NodeDeclaration("outer") { NodeDeclaration.slot(inner) })
    try tree.root.addChild(outer.node!)
    outer.isActive = false
    inner.update(to: NodeDeclaration("inner") { NodeDeclaration.slot(outer) })
    #expect(outer.node?.parent === tree.root)
    outer.place(in: inner)
    #expect(outer.node?.parent === tree.root)
    #expect(
      outer.node?.problems.contains {
        ($0 as? ViewTreeError) == .cycle(child: "root/outer", parent: "root/outer/inner")
      } == true)
    #expect(
      inner.node?.problems.contains {
        ($0 as? ViewTreeError) == .handlePlacedTwice(parent: "root/outer/inner")
      } == true)
    #expect(tree.checkInvariants().isEmpty)
    #expect(tree.root.path == "root")
  }

  /// A window with a stack of two pages; the second has a trap-free scope with two fields.
  private func window() throws -> (NodeTree, Node) {
    let tree = NodeTree("window") {
      Node("stack") {
        Node("first") { Node("a").focusable().frame(NodeFrame(x: 0, y: 0, width: 10, height: 1)) }
        Node("second") {
          Node("b").focusable().frame(NodeFrame(x: 0, y: 0, width: 10, height: 1))
          Node("c").focusable().frame(NodeFrame(x: 0, y: 1, width: 10, height: 1))
        }
        .focusScope()
      }
    }
    tree.root.frame(NodeFrame(x: 0, y: 0, width: 80, height: 24))
    return (tree, try #require(tree.node(id: "second")))
  }

  @Test func anInactiveBranchIsOutOfEveryDispatchButKeepsItsPlace() throws {
    let (tree, second) = try window()
    var handled = 0
    second.handleAction(Save.self) { _ in handled += 1 }
    let c = try #require(tree.node(id: "c"))
    try tree.focus(c)
    tree.handlePointer(PointerInput(.move, at: PointerLocation(x: 1, y: 0)))
    #expect(tree.hoveredNode?.id == "b")
    second.isActive = false
    // The hover is run again where the pointer is: over `a`, which `second` covered.
    #expect(tree.hoveredNode?.id == "a")
    #expect(second.isHovered == false)
    // The focus moves out as for a removal; the scope remembers it.
    #expect(tree.focusedNode == nil)  // nothing above it can take focus
    #expect(c.tree == nil)
    guard case .notDispatched(.inactive) = c.trigger(Save()) else {
      Issue.record("a trigger from an inactive branch is not dispatched")
      return
    }
    #expect(handled == 0)
    // Tab, hit testing and lookups by the tree's rules skip it; it stays among the children.
    try tree.focus(id: "a")
    tree.moveFocus(.next)
    #expect(tree.focusedNode?.id == "a")
    tree.moveFocus(.previous)
    #expect(tree.focusedNode?.id == "a")
    #expect(tree.node(at: PointerLocation(x: 1, y: 0))?.id == "a")
    #expect(throws: ViewTreeError.self) { try tree.focus(c) }
    #expect(tree.node(id: "stack")?.children.map(\.id) == ["first", "second"])
    #expect(
      tree.root.snapshot(includingInactive: false).nodes.map(\.label) == ["window", "stack", "first", "a"])
    #expect(tree.checkInvariants().isEmpty)
    // Active again: exactly where it was, and focus entering the scope finds what it remembers.
    second.isActive = true
    #expect(c.tree === tree)
    #expect(c.trigger(Save()).isHandled)
    #expect(handled == 1)
    try tree.focus(second)
    #expect(tree.focusedNode === c)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func updatesKeepAnInactiveNodeInactiveAndWhereItIs() throws {
    let page = NodeHandle()
    let stack = NodeHandle()
    page.update(to: NodeDeclaration("page") { NodeDeclaration("field").focusable() })
    stack.update(
      to: NodeDeclaration("stack") {
        NodeDeclaration("tabs")
        NodeDeclaration.slot(page)
      })
    let tree = try NodeTree(root: try #require(stack.node))
    page.isActive = false
    stack.update(
      to: NodeDeclaration("stack") {
        NodeDeclaration("tabs")
        NodeDeclaration.slot(page)
      })
    page.update(
      to: NodeDeclaration("page") {
        NodeDeclaration("field").focusable()
        NodeDeclaration("more")
      })
    #expect(page.isActive == false)
    #expect(ids(stack.node) == ["tabs", "page"])
    #expect(ids(page.node) == ["field", "more"])
    #expect(tree.checkInvariants().isEmpty)
    // Removed while inactive, it leaves as any node does.
    stack.update(to: NodeDeclaration("stack") { NodeDeclaration("tabs") })
    #expect(ids(stack.node) == ["tabs"])
    #expect(page.node?.parent == nil)
    #expect(tree.checkInvariants().isEmpty)
  }
}

@Suite struct HandleLifetimeTests {
  @Test func aChildViewThatGoesOnRenderingAfterItsParentWentIsReported() throws {
    let tree = NodeTree("app") {}
    var reported: [String] = []
    tree.onProblem = { problem, _ in reported.append("\(problem)") }
    var parent: NodeHandle? = NodeHandle()
    let child = NodeHandle()
    parent?.update(to: NodeDeclaration("list"))
    try tree.root.addChild(try #require(parent?.node))
    child.update(to: NodeDeclaration("row"))
    child.place(in: parent!)
    // The parent's view goes first, as a toolkit tearing a subtree down may: nothing yet.
    parent = nil
    #expect(reported.isEmpty)
    #expect(child.node?.parent?.parent == nil)
    // The child's view was kept, and renders again: that is the mistake.
    child.update(to: NodeDeclaration("row"))
    #expect(reported.count == 1)
    #expect(reported.first?.contains("went away") == true)
    #expect(child.node?.problems.count == 1)
  }

  @Test func aPlacedViewWhoseParentWentIsListedAsAnyChildWhereItGoesNext() throws {
    let child = NodeHandle()
    var parent: NodeHandle? = NodeHandle()
    child.update(to: NodeDeclaration("row"))
    child.place(in: parent!, order: [1, 3])
    // The parent's view goes and nothing else holds its node: the child is a root.
    parent = nil
    let row = try #require(child.node)
    #expect(row.parent == nil)
    // Added where a node lists it, it counts as listed there, not as placed.
    let tree = NodeTree("app") { Node("first") }
    try tree.root.addChild(row)
    try tree.root.insertChild(Node("last"), at: 2)
    #expect(ids(tree.root) == ["first", "row", "last"])
    #expect(tree.checkInvariants().isEmpty)
  }
}
