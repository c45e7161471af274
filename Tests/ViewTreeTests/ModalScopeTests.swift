import TestSupport
import Testing
@_spi(Invariants) import ViewTree

private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> NodeFrame {
  NodeFrame(x: x, y: y, width: width, height: height)
}

private func at(_ x: Double, _ y: Double) -> PointerLocation { PointerLocation(x: x, y: y) }

/// A trap that holds the focus is modal: what lies outside it is inert.
@Suite struct ModalScopeTests {
  /// A window with a list and, when `confirming`, a dialog over it.
  func window(confirming: Bool, log: Log) -> NodeDeclaration {
    NodeDeclaration("window") {
      NodeDeclaration("list") {
        for row in 0..<3 {
          NodeDeclaration("row\(row)").focusable().frame(frame(0, Double(row), 20, 1))
            .handleAction(PointerPress.self) { _ in log("pressed row\(row)") }
        }
      }
      .frame(frame(0, 0, 20, 10))
      if confirming {
        NodeDeclaration("dialog") {
          NodeDeclaration("cancel").focusable().frame(frame(5, 5, 6, 1))
            .handleAction(PointerPress.self) { _ in log("pressed cancel") }
        }
        .frame(frame(4, 4, 10, 3))
        .focusScope(.trap, autofocus: true)
      }
    }
    .frame(frame(0, 0, 80, 24))
  }

  @Test func aPressOutsideTheModalGoesNowhereAndSaysWhy() throws {
    let log = Log()
    let tree = NodeTree(declaring: window(confirming: false, log: log))
    try tree.focus(id: "row0")
    tree.update(to: window(confirming: true, log: log))
    #expect(tree.focusedNode?.id == "cancel")
    let dialog = try #require(tree.node(id: "dialog"))
    let row1 = try #require(tree.node(id: "row1"))
    #expect(row1.isInert)
    #expect(tree.root.isInert)
    #expect(!dialog.isInert)
    #expect(try !#require(tree.node(id: "cancel")).isInert)

    let outside = tree.handlePointer(PointerInput(.press(.primary), at: at(1, 1)))
    #expect(outside.target == nil)
    #expect(outside.outcome == nil)
    #expect(outside.blockedBy === dialog)
    if case .moved = outside.focus { Issue.record("a press outside the modal moved the focus") }
    tree.handlePointer(PointerInput(.release(.primary), at: at(1, 1)))
    #expect(log.entries.isEmpty)
    #expect(tree.hoveredNode == nil)

    let inside = tree.handlePointer(PointerInput(.press(.primary), at: at(6, 5)))
    #expect(inside.target?.id == "cancel")
    #expect(inside.blockedBy == nil)
    #expect(log.entries == ["pressed cancel"])
    tree.handlePointer(PointerInput(.release(.primary), at: at(6, 5)))

    // Closed: the list takes presses again.
    tree.update(to: window(confirming: false, log: log))
    #expect(!row1.isInert)
    tree.handlePointer(PointerInput(.press(.primary), at: at(1, 1)))
    #expect(log.entries == ["pressed cancel", "pressed row1"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func theHoverOutsideIsClearedWhenTheModalOpensAndComesBackWhenItCloses() throws {
    let log = Log()
    let tree = NodeTree(declaring: window(confirming: false, log: log))
    tree.handlePointer(PointerInput(.move, at: at(1, 2)))
    #expect(tree.hoveredNode?.id == "row2")
    tree.update(to: window(confirming: true, log: log))
    #expect(tree.hoveredNode == nil)
    #expect(tree.node(id: "row2")?.isHovered == false)
    tree.update(to: window(confirming: false, log: log))
    #expect(tree.hoveredNode?.id == "row2")
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func nestedModalsTheInnermostWins() throws {
    let tree = NodeTree {
      Node("outer") {
        Node("a").focusable().frame(frame(0, 0, 5, 1))
        Node("inner") {
          Node("b").focusable().frame(frame(0, 2, 5, 1))
        }
        .focusScope(.trap)
      }
      .focusScope(.trap)
    }
    try tree.focus(id: "b")
    #expect(tree.node(id: "a")?.isInert == true)
    #expect(tree.handlePointer(PointerInput(.press(.primary), at: at(1, 0))).blockedBy?.id == "inner")
    #expect(tree.handlePointer(PointerInput(.press(.primary), at: at(1, 2))).target?.id == "b")
  }

  @Test func aTrapThatDoesNotHoldTheFocusMakesNothingInert() throws {
    let tree = NodeTree {
      Node("a").focusable().frame(frame(0, 0, 5, 1))
      Node("panel") { Node("b").focusable() }.focusScope(.trap)
    }
    try tree.focus(id: "a")
    #expect(tree.node(id: "a")?.isInert == false)
    #expect(tree.handlePointer(PointerInput(.press(.primary), at: at(1, 0))).target?.id == "a")
  }
}
