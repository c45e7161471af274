import TestSupport
import Testing
@_spi(Invariants) import ViewTree

private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> NodeFrame {
  NodeFrame(x: x, y: y, width: width, height: height)
}

/// What user code does from inside the library's callbacks (a focus filter that moves its own
/// node, a slot that takes another tree's root) is survived: the trees stay whole, and the focus
/// ends inside its tree.
@Suite struct CallbackMutationTests {
  @Test func aSlotThatTakesAnotherTreesRootDropsThatTreesHover() throws {
    let handle = NodeHandle()
    handle.update(to: NodeDeclaration("other").frame(frame(0, 0, 10, 10)))
    let other = try NodeTree(root: try #require(handle.node))
    other.handlePointer(PointerInput(.move, at: PointerLocation(x: 1, y: 1)))
    #expect(other.hoveredNode === handle.node)

    let host = NodeTree(declaring: NodeDeclaration("host"))
    host.update(to: NodeDeclaration("host") { NodeDeclaration.slot(handle) })
    #expect(handle.node?.parent === host.root)
    #expect(other.hoveredNode == nil)
    #expect(host.checkInvariants().isEmpty)
    #expect(other.checkInvariants().isEmpty)
  }

  @Test func aFilterThatRemovesTheNodeItIsAskedAboutLeavesTheFocusInTheTree() throws {
    let tree = NodeTree {
      Node("list") {
        Node("a").focusable()
        Node("b").focusable()
      }.focusable()
    }
    let b = try #require(tree.node(id: "b"))
    tree.focusFilter = { node in
      if node === b { node.removeFromParent() }
      return true
    }
    #expect(throws: ViewTreeError.self) { try tree.focus(b) }
    #expect(tree.focusedNode.map(tree.contains) ?? true)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aFilterThatRemovesTheRepairTargetLeavesTheFocusInTheTree() throws {
    let tree = NodeTree {
      Node("panel") {
        Node("row").focusable()
      }.focusable()
    }
    try tree.focus(id: "row")
    let panel = try #require(tree.node(id: "panel"))
    tree.focusFilter = { node in
      if node === panel { node.removeFromParent() }
      return true
    }
    try panel.removeChild(try #require(tree.node(id: "row")))
    #expect(tree.focusedNode.map(tree.contains) ?? true)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aFilterThatRemovesThePressedNodeLeavesTheFocusInTheTree() throws {
    let tree = NodeTree {
      Node("button").focusable().frame(frame(0, 0, 10, 1))
    }
    tree.focusFilter = { node in
      node.removeFromParent()
      return true
    }
    let result = tree.handlePointer(PointerInput(.press(.primary), at: PointerLocation(x: 1, y: 0)))
    if case .moved = result.focus { Issue.record("focus moved to a node that left: \(result.focus)") }
    #expect(tree.focusedNode.map(tree.contains) ?? true)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aFilterThatRemovesAnAutofocusTargetLeavesTheFocusInTheTree() throws {
    let tree = NodeTree(declaring: NodeDeclaration("root"))
    tree.focusFilter = { node in
      if node.id == "ok" { node.removeFromParent() }
      return true
    }
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("dialog") { NodeDeclaration("ok").focusable() }.focusScope(.trap, autofocus: true)
      })
    #expect(tree.focusedNode.map(tree.contains) ?? true)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aScopesDefaultFocusIsNotLookedUpInAnInactiveBranch() throws {
    let tree = NodeTree {
      Node("scope") {
        Node("page1") { Node("save").focusable() }
        Node("page2") { Node("save").focusable() }
      }.focusScope(defaultFocus: "save")
      Node("outside").focusable()
    }
    let page1 = try #require(tree.node(id: "page1"))
    let shown = try #require(tree.node(id: "page2")?.children.first)
    page1.isActive = false
    try tree.focus(id: "outside")
    try tree.focus(try #require(tree.node(id: "scope")))
    #expect(tree.focusedNode === shown)
    tree.moveFocus(.next)
    #expect(tree.focusedNode.map(tree.contains) ?? true)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func anInactiveAdoptedRootIsOutOfItsTreeToo() throws {
    let log = Log()
    let adopted = NodeTree { Node("leaf").handleAction(Save.self) { _ in log("handled") } }
    let host = NodeTree { Node("slot") }
    try #require(host.node(id: "slot")).addChild(adopted.root)
    let leaf = try #require(adopted.node(id: "leaf"))
    adopted.root.isActive = false
    #expect(leaf.tree == nil)
    #expect(adopted.root.tree == nil)
    let outcome = leaf.trigger(Save())
    guard case .notDispatched(.inactive) = outcome else {
      Issue.record("dispatched from an inactive branch: \(outcome)")
      return
    }
    #expect(log.entries.isEmpty)
    adopted.root.isActive = true
    #expect(leaf.tree === host)
    #expect(leaf.trigger(Save()).isHandled)
  }

  @Test func aFilterCalledByARepairSeesAConsistentTree() throws {
    let tree = NodeTree {
      Node("panel") { Node("row").focusable() }.focusable()
    }
    try tree.focus(id: "row")
    var seen: [String] = []
    tree.focusFilter = { [unowned tree] _ in
      seen += tree.checkInvariants(idle: false)
      return true
    }
    try #require(tree.node(id: "panel")).removeChild(try #require(tree.node(id: "row")))
    #expect(tree.focusedNode?.id == "panel")
    #expect(seen.isEmpty)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aRepairsCallbackSeesTheNextTreeWaitingForItsOwn() throws {
    let inner = NodeTree { Node("field").focusable() }
    let host = NodeTree { Node("slot") }
    try #require(host.node(id: "slot")).addChild(inner.root)
    let field = try #require(inner.node(id: "field"))
    try inner.focus(field)
    try host.focus(field)
    var seen: [String] = []
    inner.onFocusChange = { [unowned host] _ in seen += host.checkInvariants(idle: false) }
    field.removeFromParent()
    #expect(inner.focusedNode == nil)
    #expect(host.focusedNode == nil)
    #expect(seen.isEmpty)
    #expect(host.checkInvariants().isEmpty)
    #expect(inner.checkInvariants().isEmpty)
  }
}
