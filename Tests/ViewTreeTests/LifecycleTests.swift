import TestSupport
import Testing
@_spi(Invariants) import ViewTree

@Suite struct LifecycleTests {
  func watched(_ id: String, _ log: Log) -> Node {
    Node(id).onAttach { log("+\($0.id ?? "?")") }.onDetach { log("-\($0.id ?? "?")") }
  }

  @Test func nodesReportEnteringAndLeavingATree() throws {
    let log = Log()
    let subtree = Node("panel") { watched("field", log) }
    let tree = NodeTree("root") { Node("holder") }
    #expect(log.entries.isEmpty)
    try tree.node(id: "holder")!.addChild(subtree)
    #expect(log.entries == ["+field"])
    // A move inside the tree is a detach and an attach.
    try tree.root.addChild(subtree)
    #expect(log.entries == ["+field", "-field", "+field"])
    subtree.removeFromParent()
    #expect(log.entries == ["+field", "-field", "+field", "-field"])
    // Outside a tree nothing is reported.
    try Node("loose").addChild(subtree)
    #expect(log.entries.count == 4)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func creatingATreeAttachesItsNodesInPreOrder() {
    let log = Log()
    let tree = NodeTree("root") {
      watched("a", log)
      Node("b") { watched("c", log) }
    }
    #expect(log.entries == ["+a", "+c"])
    tree.root.removeAllChildren()
    #expect(log.entries == ["+a", "+c", "-a", "-c"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func updatesByDeclarationAttachNewNodesAndDetachRemovedOnes() {
    let log = Log()
    func row(_ id: String) -> NodeDeclaration {
      NodeDeclaration(id).onAttach { log("+\($0.id!)") }.onDetach { log("-\($0.id!)") }
    }
    let tree = NodeTree(declaring: NodeDeclaration("root") { row("a") })
    #expect(log.entries == ["+a"])
    tree.update(
      to: NodeDeclaration("root") {
        row("a")
        row("b")
      })
    #expect(log.entries == ["+a", "+b"])
    tree.update(to: NodeDeclaration("root") { row("b") })
    #expect(log.entries == ["+a", "+b", "-a"])
    // Re-declaring the callbacks of a node that stays is not an attach.
    tree.update(to: NodeDeclaration("root") { row("b") })
    #expect(log.entries == ["+a", "+b", "-a"])
    tree.update(to: NodeDeclaration("root"))
    #expect(log.entries == ["+a", "+b", "-a", "-b"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aCallbackMayChangeTheTree() throws {
    let tree = NodeTree("root") { Node("list") }
    let row = Node("row").onAttach { node in node.removeFromParent() }
    try tree.node(id: "list")!.addChild(row)
    #expect(row.parent == nil)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aDetachCallbackMayChangeTheChildrenAnUpdateIsWalking() throws {
    // `gone`'s callback runs while the update reconciles the root's children, before it reaches
    // them: it removes every child and re-declares the tree; the update still applies its
    // declarations to the nodes they were matched to, without a crash.
    let log = Log()
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("a")
        NodeDeclaration("b")
        NodeDeclaration("gone").onDetach { [log] node in log("-\(node.id!)") }
      })
    let a = try #require(tree.node(id: "a"))
    let b = try #require(tree.node(id: "b"))
    tree.root.onAttach { _ in }  // so that callbacks are counted on the root's subtree
    let gone = try #require(tree.node(id: "gone"))
    gone.onDetach { [unowned tree] _ in
      tree.root.removeAllChildren()
      tree.update(to: NodeDeclaration("root") { NodeDeclaration("c") })
    }
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("a").onAction { _ in log("a") }
        NodeDeclaration("b").onAction { _ in log("b") }
      })
    #expect(log.entries == ["-gone"])
    // The outer update ran last on `a` and `b`, which the nested one had removed.
    #expect(a.modifiers.count == 1)
    #expect(b.modifiers.count == 1)
    #expect(tree.root.children.map(\.id) == ["c"])
    #expect(tree.checkInvariants().isEmpty)
  }
}
