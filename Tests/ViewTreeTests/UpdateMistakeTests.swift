import TestSupport
import Testing
@_spi(Invariants) import ViewTree

/// Mistakes in a declaration's list of children are reported and leave every other declaration
/// applied to its own node.
@Suite struct UpdateMistakeTests {
  @Test func aSlotThatWouldPlaceANodeInsideItselfIsReportedAndTheRestApplied() throws {
    let view = NodeHandle()
    view.update(to: NodeDeclaration("view"))
    let tree = try NodeTree(root: try #require(view.node))
    var problems: [String] = []
    tree.onProblem = { problem, _ in problems.append("\(problem)") }
    view.update(
      to: NodeDeclaration("view") {
        NodeDeclaration.slot(view)
        NodeDeclaration("a").handleAction(Save.self) { _ in }
      })
    let root = try #require(view.node)
    #expect(root.children.map(\.id) == ["a"])
    #expect(root.children.first?.modifiers.map(\.description) == ["handleAction(Save)"])
    #expect(problems.count == 1)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func anUnchangedChildDoesNotTakeTheNodeALaterDeclarationBindsToItsHandle() throws {
    let handle = NodeHandle()
    let parent = Node("parent")
    let tree = try NodeTree(root: parent)
    parent.update(to: NodeDeclaration("parent") { NodeDeclaration("x").bound(to: handle) })
    let bound = try #require(handle.node)
    var problems: [String] = []
    tree.onProblem = { problem, _ in problems.append("\(problem)") }
    parent.update(
      to: NodeDeclaration("parent") {
        NodeDeclaration.unchanged("x")
        NodeDeclaration("x").bound(to: handle).handleAction(Save.self) { _ in }
      })
    // The bound declaration keeps the handle's node; the unchanged one, which no live node
    // matches, is a new node, reported.
    #expect(handle.node === bound)
    #expect(bound.modifiers.map(\.description) == ["handleAction(Save)"])
    #expect(parent.children.count == 2)
    #expect(parent.children.last === bound)
    #expect(problems.count == 1)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aRefusedSlotBeforeAPlacedViewLeavesThePlacedViewAlone() throws {
    let window = NodeHandle()
    let placed = NodeHandle()
    window.update(to: NodeDeclaration("window"))
    placed.update(to: NodeDeclaration("placed").handleAction(Open.self) { _ in })
    placed.place(in: window, order: [0])
    let tree = try NodeTree(root: try #require(window.node))
    window.update(
      to: NodeDeclaration("window") {
        NodeDeclaration.slot(window)
        NodeDeclaration("a").handleAction(Save.self) { _ in }
      })
    let placedNode = try #require(placed.node)
    #expect(placedNode.id == "placed")
    #expect(placedNode.modifiers.map(\.description) == ["handleAction(Open)"])
    #expect(tree.node(id: "a")?.modifiers.map(\.description) == ["handleAction(Save)"])
    #expect(tree.checkInvariants().isEmpty)
  }
}
