import TestSupport
import Testing
import ViewTree

@Suite struct DepthAndMemoryTests {
  static let depth = 1_000_000

  @Test(.stress) func aMillionNodeChainBuildsTriggersSearchesAndTearsDown() throws {
    // Built bottom-up with the result builder, as declarations nest.
    var bottom: Node? = Node("bottom").onAction { _ in }
    weak let weakBottom = bottom
    var top = bottom!
    for _ in 1..<Self.depth {
      let child = top
      top = Node { child }
    }
    bottom = nil
    var tree: NodeTree? = try NodeTree(root: top)
    var handled = 0
    top.handleAction(Save.self) { _ in handled += 1 }
    top.captureAction(Open.self) { _ in .unhandled }

    let leaf = try #require(tree?.node(id: "bottom"))
    #expect(leaf.depth == Self.depth - 1)
    #expect(leaf.trigger(Save()).handler === top)
    #expect(leaf.trigger(Open(path: "")).isHandled == false)
    #expect(handled == 1)
    #expect(leaf.path.hasSuffix("/#0/bottom"))
    #expect(top.subtreeCount == Self.depth)
    #expect(!leaf.isDescendant(of: Node()))

    // Detach the bottom half during a dispatch from the leaf: the skipped nodes are pinned, then
    // released without recursion.
    var middle: Node? = leaf
    for _ in 0..<(Self.depth / 2) { middle = middle?.parent }
    let cut = try #require(middle)
    // Weakly: `cut` is an ancestor of `leaf`, which owns this closure.
    leaf.onAction { [weak cut] _ in cut?.removeFromParent() }
    #expect(leaf.trigger(Save()).handler === top)
    #expect(handled == 2)

    tree = nil
    top = Node()
    #expect(weakBottom != nil)  // still held by `leaf`
    _ = leaf
  }

  @Test(.stress) func aRequestNobodyAnswersAMillionNodesDeepFailsInLinearTime() throws {
    var top = Node("bottom")
    for _ in 1..<Self.depth {
      let child = top
      top = Node { child }
    }
    let tree = try NodeTree(root: top)
    let leaf = try #require(tree.node(id: "bottom"))
    // The error keeps the path's labels; the paths themselves are made only when read.
    do {
      _ = try leaf.request(FetchName(id: 1))
      Issue.record("expected an error")
    } catch {
      guard case .unanswered = error.reason else {
        Issue.record("expected unanswered, got \(error.reason)")
        return
      }
      #expect(error.endedAs == "FetchName(id: 1)")
    }
  }

  @Test(.stress) func droppingAMillionNodeTreeFreesEveryNode() throws {
    weak var weakLeaf: Node?
    weak var weakRoot: Node?
    do {
      var node = Node("leaf")
      weakLeaf = node
      for _ in 1..<Self.depth {
        let child = node
        node = Node { child }
      }
      let tree = try NodeTree(root: node)
      weakRoot = tree.root
      #expect(weakLeaf != nil)
    }
    #expect(weakRoot == nil)
    #expect(weakLeaf == nil)
  }

  @Test(.stress) func aMillionDeepDeclarationIsReleasedWithoutRecursion() {
    weak var weakLeaf: Node?
    do {
      var declaration = NodeDeclaration("leaf").onAction { _ in }
      for level in 1..<Self.depth {
        let child = declaration
        declaration = NodeDeclaration("d\(level)") { child }
      }
      // Kept and applied, as a toolkit that diffs against its last declaration does; the
      // declaration, a copy of it, and the tree made from it are then released.
      let copy = declaration
      let tree = NodeTree(declaring: declaration)
      let leaf = tree.node(id: "leaf")
      weakLeaf = leaf
      #expect(leaf?.depth == Self.depth - 1)
      tree.update(to: copy)
      #expect(tree.node(id: "leaf") === leaf)
      #expect(declaration.children.count == 1)
    }
    #expect(weakLeaf == nil)
  }

  @Test(.stress) func aMillionDeepSnapshotTraceAndOutcomeAreReleasedWithoutRecursion() throws {
    weak var weakRoot: Node?
    do {
      var node = Node("leaf")
      for _ in 1..<Self.depth {
        let child = node
        node = Node { child }
      }
      var tree: NodeTree? = try NodeTree(root: node)
      weakRoot = node
      let leaf = try #require(tree?.node(id: "leaf"))
      node.onAction { _ in }
      node.handleAction(Save.self) { _ in }
      let snapshot = node.snapshot(focused: leaf)
      #expect(snapshot.nodes.count == Self.depth)
      let trace = ActionTrace()
      let outcome = leaf.trigger(Save(), tracing: trace)
      #expect(trace.steps.count == 2)
      // The outcome and the trace hold the root; they are the last to go.
      tree = nil
      node = Node()
      #expect(weakRoot != nil)
      _ = outcome
    }
    #expect(weakRoot == nil)
  }

  @Test func aDetachedSubtreeKeepsNoDanglingParent() throws {
    var parent: Node? = Node("parent") { Node("child") }
    let child = try #require(parent?.children.first)
    parent = nil
    #expect(child.parent == nil)
    #expect(child.path == "child")
  }

  @Test func droppingATreeWithTheReadmePatternsFreesNodesModelsAndHandlers() throws {
    weak var weakModel: Document?
    weak var weakEditor: Node?
    weak var weakTree: NodeTree?
    do {
      let document = Document()
      weakModel = document
      let tree = makeEditorTree(document: document)
      weakTree = tree
      weakEditor = tree.node(id: "editor")
      let editor = try #require(weakEditor)
      let trigger = editor.triggerAction
      try tree.focus(editor)
      tree.firstResponder.trigger(SaveDocument())
      trigger(DeleteRow(index: 0))
      #expect(document.saves == 1)
    }
    #expect(weakTree == nil)
    #expect(weakEditor == nil)
    #expect(weakModel == nil)
  }

  @Test func aNodeWithoutATreeIsFreedWithItsModifiers() {
    weak var weakNode: Node?
    weak var weakDocument: Document?
    do {
      let document = Document()
      weakDocument = document
      let node = Node("n")
        .handleAction(SaveDocument.self) { _ in document.save() }
        .catchError { _ in document.rows.removeAll() }
      weakNode = node
    }
    #expect(weakNode == nil)
    #expect(weakDocument == nil)
  }
}
