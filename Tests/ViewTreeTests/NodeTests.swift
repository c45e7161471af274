import Testing
import ViewTree

@Suite struct NodeTests {
  @Test func builderSupportsConditionalsLoopsAndOptionals() {
    let showFooter = true
    let showBanner = false
    let missing: Node? = nil
    let present: Node? = Node("present")
    let rows = ["a", "b", "c"]
    let list = Node("list") {
      Node("header")
      for row in rows { Node(row) }
      if showFooter { Node("footer") }
      if showBanner { Node("banner") } else { Node("no-banner") }
      missing
      present
      [Node("x"), Node("y")]
    }
    #expect(list.children.map(\.id) == ["header", "a", "b", "c", "footer", "no-banner", "present", "x", "y"])
    #expect(list.children.allSatisfy { $0.parent === list })
  }

  @Test func builderMovesAChildThatAlreadyHasAParent() {
    let shared = Node("shared")
    let first = Node("first") { shared }
    let second = Node("second") { shared }
    #expect(first.children.isEmpty)
    #expect(second.children.map(\.id) == ["shared"])
    #expect(shared.parent === second)
  }

  @Test func aNodeDeclaredTwiceAppearsOnceAtItsLastPosition() {
    let twice = Node("twice")
    let parent = Node("p") {
      twice
      Node("middle")
      twice
    }
    #expect(parent.children.map(\.id) == ["middle", "twice"])
  }

  @Test func imperativeAddInsertMoveAndRemove() throws {
    let parent = Node("p")
    let a = Node("a")
    let b = Node("b")
    let c = Node("c")
    try parent.addChild(a)
    try parent.addChild(c)
    try parent.insertChild(b, at: 1)
    #expect(parent.children.map(\.id) == ["a", "b", "c"])
    try parent.moveChild(from: 0, to: 2)
    #expect(parent.children.map(\.id) == ["b", "c", "a"])
    try parent.insertChild(a, at: 0)
    #expect(parent.children.map(\.id) == ["a", "b", "c"])
    try parent.addChild(a)
    #expect(parent.children.map(\.id) == ["b", "c", "a"])
    try parent.removeChild(c)
    #expect(c.parent == nil)
    #expect(parent.children.map(\.id) == ["b", "a"])
    let removed = try parent.removeChild(at: 0)
    #expect(removed === b)
    #expect(b.removeFromParent() == false)
    #expect(a.removeFromParent() == true)
    #expect(parent.children.isEmpty)
  }

  @Test func addingAChildFromAnotherParentMovesIt() throws {
    let left = Node("left")
    let right = Node("right")
    let child = Node("child")
    try left.addChild(child)
    try right.addChild(child)
    #expect(left.children.isEmpty)
    #expect(child.parent === right)
  }

  @Test func cyclesAreRejected() throws {
    let grandparent = Node("g")
    let parent = Node("p")
    let child = Node("c")
    try grandparent.addChild(parent)
    try parent.addChild(child)
    #expect(throws: ViewTreeError.cycle(child: "g", parent: "g/p/c")) { try child.addChild(grandparent) }
    #expect(throws: ViewTreeError.cycle(child: "g/p", parent: "g/p")) { try parent.addChild(parent) }
    #expect(throws: ViewTreeError.self) { try child.insertChild(parent, at: 0) }
    #expect(child.children.isEmpty)
    #expect(grandparent.parent == nil)
  }

  @Test func badIndicesAndNonChildrenAreErrors() throws {
    let parent = Node("p") { Node("a") }
    let stranger = Node("s")
    #expect(throws: ViewTreeError.indexOutOfRange(index: 2, validRange: 0...1, node: "p")) {
      try parent.insertChild(stranger, at: 2)
    }
    #expect(throws: ViewTreeError.indexOutOfRange(index: -1, validRange: 0...0, node: "p")) {
      try parent.removeChild(at: -1)
    }
    #expect(throws: ViewTreeError.indexOutOfRange(index: 1, validRange: 0...0, node: "p")) {
      try parent.moveChild(from: 0, to: 1)
    }
    #expect(throws: ViewTreeError.notAChild(child: "s", parent: "p")) { try parent.removeChild(stranger) }
    #expect(throws: ViewTreeError.self) { try Node("empty").removeChild(at: 0) }
  }

  @Test func siblingsMayShareAnIDAndLookupReturnsTheFirstInPreOrder() {
    let root = Node("root") {
      Node("group") { Node("row") }
      Node("row")
      Node("row")
    }
    let first = root.firstNode(withID: "row")
    #expect(first?.parent?.id == "group")
    #expect(root.nodes(withID: "row").count == 3)
    #expect(root.firstNode(withID: "missing") == nil)
    #expect(root.subtreeCount == 5)
  }

  @Test func lookupsByIDFindTheActiveNodeOfTwoPages() throws {
    let tree = NodeTree {
      Node("page1") { Node("save").focusable() }
      Node("page2") { Node("save").focusable() }
    }
    let hidden = try #require(tree.root.children.first?.children.first)
    let shown = try #require(tree.root.children.last?.children.first)
    hidden.parent?.isActive = false
    #expect(tree.node(id: "save") === shown)
    #expect(tree.root.nodes(withID: "save").map { $0 === shown } == [true])
    #expect(tree.root.nodes(withID: "save", includingInactive: true).count == 2)
    #expect(tree.root.firstNode(withID: "save", includingInactive: true) === hidden)
    try tree.focus(id: "save")
    #expect(tree.focusedNode === shown)
    shown.parent?.isActive = false
    #expect(tree.node(id: "save") == nil)
    #expect(throws: ViewTreeError.noNodeWithID("save")) { try tree.focus(id: "save") }
  }

  @Test func pathsAndLabelsNameAnonymousNodesByIndex() {
    let inner = Node()
    let root = Node("window") {
      Node("sidebar") {
        Node()
        inner
      }
    }
    #expect(inner.path == "window/sidebar/#1")
    #expect(inner.depth == 2)
    #expect(inner.root === root)
    #expect(Node().label == "#root")
  }

  @Test func modifiersCanBeListedAndRemoved() throws {
    let node = Node("n")
      .handleAction(Save.self) { _ in }
      .onAction { _ in }
      .liftAction(AppAction.movie)
    #expect(
      node.modifiers.map(\.description) == [
        "handleAction(Save)", "onAction", "liftAction(MovieAction -> AppAction)",
      ])
    let observer = node.modifiers[1]
    try node.removeModifier(observer.id)
    #expect(node.modifiers.map(\.kind) == [.handle, .lift])
    #expect(throws: ViewTreeError.noSuchModifier(observer.id, node: "n")) {
      try node.removeModifier(observer.id)
    }
    node.removeAllModifiers()
    #expect(node.modifiers.isEmpty)
  }

  @Test func treeDescriptionDrawsNodesModifiersAndFocus() throws {
    let tree = NodeTree("window") {
      Node("sidebar") { Node("row") }
      Node("editor").handleAction(Save.self) { _ in }.focusable()
    }
    tree.root.catchError { _ in }
    try tree.focus(id: "editor")
    #expect(
      tree.debugDescription == """
        window · catchError
        ├─ sidebar
        │  └─ row
        └─ editor [focused] · handleAction(Save)
        """)
  }

  @Test func errorsDescribeThemselves() {
    #expect(ViewTreeError.notAChild(child: "a/b", parent: "c").description == "'a/b' is not a child of 'c'")
    #expect(ViewTreeError.noNodeWithID("x").description.contains("'x'"))
  }
}
