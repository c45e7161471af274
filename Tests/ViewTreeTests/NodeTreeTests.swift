import TestSupport
import Testing
@_spi(Invariants) import ViewTree

@Suite struct NodeTreeTests {
  @Test func sendStartsAtTheFocusedNodeOrAtTheRoot() throws {
    let log = Log()
    let tree = NodeTree("window") {
      Node("editor").onAction { _ in log("editor") }.focusable()
    }
    tree.root.onAction { _ in log("window") }
    tree.firstResponder.trigger(Save())
    #expect(log.entries == ["window"])
    try tree.focus(id: "editor")
    tree.firstResponder.trigger(Save())
    #expect(log.entries == ["window", "editor", "window"])
    tree.clearFocus()
    #expect(tree.focusedNode == nil)
  }

  @Test func focusMovesToTheNearestFocusableAncestorWhenTheFocusedNodeLeaves() throws {
    let tree = NodeTree("window") {
      Node("sidebar") {
        Node("list") { Node("row").focusable() }.focusable()
      }
    }
    let list = try #require(tree.node(id: "list"))
    let row = try #require(tree.node(id: "row"))
    try tree.focus(row)
    try row.parent?.removeChild(row)
    #expect(tree.focusedNode === list)

    // Removing an ancestor of the focused node moves focus above the cut, to a focusable node
    // (the sidebar is not one), or to none.
    let sidebar = try #require(tree.node(id: "sidebar"))
    sidebar.removeFromParent()
    #expect(tree.focusedNode == nil)
  }

  @Test func movingTheFocusedNodeWithinTheTreeKeepsFocus() throws {
    let tree = NodeTree("window") {
      Node("left") { Node("item").focusable() }
      Node("right")
    }
    let item = try #require(tree.node(id: "item"))
    try tree.focus(item)
    try tree.node(id: "right")?.addChild(item)
    #expect(tree.focusedNode === item)
  }

  @Test func movingTheFocusedNodeToAnotherTreeRefocuses() throws {
    let first = NodeTree("first") { Node("item").focusable() }
    first.root.focusable()
    let second = NodeTree("second") {}
    let item = try #require(first.node(id: "item"))
    try first.focus(item)
    try second.root.addChild(item)
    #expect(first.focusedNode === first.root)
    #expect(item.tree === second)
  }

  @Test func focusingANodeOfAnotherTreeIsAnError() throws {
    let first = NodeTree("first") { Node("a") }
    let second = NodeTree("second") { Node("b") }
    let b = try #require(second.node(id: "b"))
    #expect(throws: ViewTreeError.nodeNotInTree(node: "second/b")) { try first.focus(b) }
    #expect(throws: ViewTreeError.nodeNotInTree(node: "loose")) { try first.focus(Node("loose")) }
    #expect(throws: ViewTreeError.noNodeWithID("zzz")) { try first.focus(id: "zzz") }
    #expect(first.focusedNode == nil)
  }

  @Test func removingTheRootDoesNothing() {
    let tree = NodeTree("window") { Node("child") }
    #expect(tree.root.removeFromParent() == false)
    #expect(tree.firstResponder.trigger(Save()).isHandled == false)
    #expect(tree.root.children.count == 1)
  }

  @Test func treeRootsCannotBeSharedOrHaveParents() throws {
    let parent = Node("parent") { Node("child") }
    let child = parent.children[0]
    #expect(throws: ViewTreeError.rootHasParent(node: "parent/child")) { try NodeTree(root: child) }
    let tree = try NodeTree(root: parent)
    #expect(throws: ViewTreeError.alreadyTreeRoot(node: "parent")) { try NodeTree(root: parent) }
    #expect(tree.root === parent)
  }

  @Test func aTreeWhoseRootWasAdoptedDoesNotDispatchUntilItIsRemovedAgain() throws {
    let tree = NodeTree("inner") {}
    tree.root.handleAction(Save.self) { _ in }
    let outer = Node("outer")
    try outer.addChild(tree.root)
    #expect(tree.isRooted == false)
    guard case .notDispatched(.notInTree) = tree.firstResponder.trigger(Save()) else {
      Issue.record("expected notInTree")
      return
    }
    tree.root.removeFromParent()
    #expect(tree.firstResponder.trigger(Save()).handlerID == "inner")
  }

  @Test func aTreeWhoseRootJoinedAnotherTreeSendsIntoThatTree() throws {
    let inner = NodeTree("inner") { Node("field").focusable() }
    try inner.focus(id: "field")
    let outer = NodeTree("outer") {}
    var handledBy: [String] = []
    outer.root.handleAction(Save.self) { _ in handledBy.append("outer") }
    outer.requiresHandling = true
    try outer.root.addChild(inner.root)
    #expect(inner.isRooted == false)
    // The inner focus still names the first responder; the outer tree's handlers and settings
    // apply to what it sends.
    #expect(inner.firstResponder.id == "field")
    #expect(inner.firstResponder.trigger(Save()).handlerID == "outer")
    #expect(handledBy == ["outer"])
    guard case .failed = inner.firstResponder.trigger(Open(path: "x")) else {
      Issue.record("expected the outer tree's requiresHandling to apply")
      return
    }
  }

  @Test func reentrancyLimitMustBePositive() throws {
    let tree = NodeTree {}
    #expect(throws: ViewTreeError.invalidReentrancyLimit(0)) { try tree.setReentrancyLimit(0) }
    try tree.setReentrancyLimit(3)
    #expect(tree.reentrancyLimit == 3)
  }

  @Test func triggerActionDoesNotKeepItsNodeAlive() {
    var node: Node? = Node("transient")
    let trigger = node!.triggerAction
    weak let weakNode = node
    node = nil
    #expect(weakNode == nil)
    #expect(trigger.canTrigger == false)
    guard case .notDispatched(.nodeReleased) = trigger(Save()) else {
      Issue.record("expected nodeReleased")
      return
    }
  }

  @Test func triggeringFromANodeOutsideATreeReportsIt() throws {
    let tree = NodeTree("window") { Node("editor").focusable() }
    let editor = try #require(tree.node(id: "editor"))
    let trigger = editor.triggerAction
    #expect(trigger.canTrigger)
    editor.removeFromParent()
    #expect(trigger.canTrigger == false)
    guard case .notDispatched(.notInTree) = trigger(Save()) else {
      Issue.record("expected notInTree")
      return
    }
    guard case .notDispatched(.notInTree) = Node("loose").trigger(Save()) else {
      Issue.record("expected notInTree")
      return
    }
  }

  @Test func unhandledActionsReachTheHook() throws {
    let tree = NodeTree("window") { Node("editor").focusable() }
    var seen: [(String, String?)] = []
    tree.onUnhandled = { action, node in seen.append(("\(action)", node.id)) }
    try tree.focus(id: "editor")
    let outcome = tree.firstResponder.trigger(Open(path: "/tmp"))
    guard case .unhandled(let final) = outcome else {
      Issue.record("expected unhandled, got \(outcome)")
      return
    }
    #expect((final as? Open)?.path == "/tmp")
    #expect(seen.count == 1)
    #expect(seen.first?.0 == "Open(path: \"/tmp\")")
    #expect(seen.first?.1 == "editor")
  }
}

/// Regressions found by `Fuzz/FuzzTreeOperations` (the input is also in the fuzzer's corpus).
@Suite struct FuzzRegressionTests {
  @Test func focusLeavesARemovedNodeEvenWhenTheTreesRootWasAdopted() throws {
    // crash-bd2d7a1a: the root was adopted into a detached subtree, then the focused node was
    // removed; focus stayed on it because only the top-most ancestor's tree was told.
    let tree = NodeTree("root") { Node("n1") }
    let detached = Node("n4") { Node("n6") }
    try detached.children[0].addChild(tree.root)
    #expect(tree.isRooted == false)
    let focused = Node("n7").focusable()
    try tree.root.addChild(focused)
    try tree.focus(focused)
    focused.removeFromParent()
    #expect(tree.focusedNode == nil)
  }

  @Test func aNodeRemovedAfterTheRootWasAdoptedDuringADispatchStaysValid() throws {
    // The same blind spot for pinning: a dispatch in a tree whose root gets adopted mid-dispatch
    // must still keep the nodes removed afterwards alive.
    let log = Log()
    let tree = NodeTree("root") {
      Node("middle") { Node("leaf") }
        .onAction { _ in log("middle") }
    }
    let outer = Node("outer")
    let leaf = try #require(tree.node(id: "leaf"))
    weak let weakMiddle = tree.node(id: "middle")
    leaf.onAction { [unowned tree] _ in
      try? outer.addChild(tree.root)
      tree.node(id: "middle")?.removeFromParent()
    }
    tree.root.onAction { _ in log("root") }
    leaf.trigger(Save())
    #expect(log.entries == ["root"])
    outer.removeAllChildren()
    #expect(weakMiddle == nil)
    #expect(tree.focusedNode == nil)
  }

  @Test func aNodePinnedByTwoTreesStaysPinnedByTheOneStillDispatching() throws {
    // Found by FuzzTreeMutations: a node that left a tree dispatching inside another tree's
    // dispatch, and then left that outer tree too, lost its mark when the inner dispatch ended;
    // nodes removed from under it afterwards were kept by no one while the outer dispatch ran.
    struct Outer: Action {}
    struct Inner: Action {}
    let outer = NodeTree("outer") {}
    let inner = NodeTree("inner") { Node("moving") { Node("child") } }
    weak let weakChild = inner.node(id: "child")
    var problems: [String] = []
    var childAliveDuringDispatch = false
    inner.root.handleAction(Inner.self) { [unowned inner, unowned outer] _ in
      // Leaves the inner tree during its dispatch, joins the outer tree, and leaves it during its.
      let moving = inner.node(id: "moving")!
      moving.removeFromParent()
      try outer.root.addChild(moving)
      moving.removeFromParent()
    }
    outer.root.handleAction(Outer.self) { [unowned inner, unowned outer] _ in
      inner.firstResponder.trigger(Inner())
      // The inner dispatch is over; the outer one still keeps "moving", and what leaves it.
      problems = outer.checkInvariants(idle: false)
      let moving = try #require(weakChild?.parent)
      moving.removeAllChildren()
      childAliveDuringDispatch = weakChild != nil
    }
    #expect(outer.firstResponder.trigger(Outer()).isHandled)
    #expect(problems.isEmpty)
    #expect(childAliveDuringDispatch)
    #expect(weakChild == nil)
    #expect(outer.checkInvariants().isEmpty)
    #expect(inner.checkInvariants().isEmpty)
  }
}

@Suite struct TreeLifetimeTests {
  @Test func theTreeLivesAsLongAsItsRootAndNotItsHandle() throws {
    let root: Node
    do {
      let tree = NodeTree("root") { Node("leaf").focusable() }
      tree.root.handleAction(Save.self) { _ in }
      try tree.focus(id: "leaf")
      tree.requiresHandling = true
      root = tree.root
    }
    let leaf = root.children[0]
    #expect(leaf.trigger(Save()).handlerID == "root")
    let handle = try #require(leaf.tree)
    #expect(handle.focusedNode === leaf)
    #expect(handle.requiresHandling)
    #expect(root.tree === handle)
    #expect(throws: ViewTreeError.alreadyTreeRoot(node: "root")) { try NodeTree(root: root) }
  }

  @Test func aNewHandleToAReleasedTreeKeepsItsState() throws {
    let root = Node("root") { Node("leaf").focusable() }
    do {
      let tree = try NodeTree(root: root)
      try tree.focus(id: "leaf")
    }
    let again = try NodeTree(root: root)
    #expect(again.focusedNode?.id == "leaf")
    #expect(again.firstResponder.trigger(Save()).finalAction is Save)
  }

  @Test func focusChangesAreReported() throws {
    let tree = NodeTree("root") { Node("list") { Node("row").focusable() }.focusable() }
    var changes: [String] = []
    tree.onFocusChange = { change in
      changes.append("\(change.old?.label ?? "-") -> \(change.new?.label ?? "-") (\(change.reason))")
    }
    try tree.focus(id: "row")
    try tree.focus(id: "row")  // no change, no report
    tree.node(id: "row")!.removeFromParent()
    tree.clearFocus()
    #expect(changes == ["- -> row (programmatic)", "row -> list (repair)", "list -> - (programmatic)"])
  }
}

@Suite struct TreeOwnershipTests {
  @Test func aTreeWhoseRootHasFocusIsFreedWithItsRoot() throws {
    weak var weakRoot: Node?
    do {
      let tree = NodeTree("root") { Node("leaf") }
      try tree.focus(tree.root.focusable())
      weakRoot = tree.root
    }
    #expect(weakRoot == nil)
  }
}
