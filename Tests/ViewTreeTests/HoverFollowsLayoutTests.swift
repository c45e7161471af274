import TestSupport
import Testing
@_spi(Invariants) import ViewTree

private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> NodeFrame {
  NodeFrame(x: x, y: y, width: width, height: height)
}

private func at(_ x: Double, _ y: Double) -> PointerLocation { PointerLocation(x: x, y: y) }

/// Frames that move under a still pointer move the hover, as a move of the pointer would, once per
/// update.
@Suite struct HoverFollowsLayoutTests {
  /// A list of rows, scrolled by `offset`: row `i` is drawn at `i - offset`.
  final class List {
    var offset = 0
    var heard: [String] = []

    func declaration() -> NodeDeclaration {
      NodeDeclaration("list") {
        for row in 0..<6 {
          NodeDeclaration("row\(row)").frame(frame(0, Double(row - offset), 10, 1))
            .onAction { [unowned self] action in
              switch action {
              case is PointerEnter: heard.append("enter row\(row)")
              case is PointerLeave: heard.append("leave row\(row)")
              case is PointerOver: heard.append("over row\(row)")
              case is PointerMove: heard.append("move row\(row)")
              default: break
              }
            }
        }
      }
      .frame(frame(0, 0, 10, 4))
    }
  }

  @Test func aScrolledListMovesTheHoverToTheRowNowUnderThePointer() throws {
    let list = List()
    let tree = NodeTree(declaring: list.declaration())
    tree.handlePointer(PointerInput(.move, at: at(1, 1)))
    #expect(tree.hoveredNode?.id == "row1")
    list.heard = []
    list.offset = 2
    tree.update(to: list.declaration())
    #expect(tree.hoveredNode?.id == "row3")
    #expect(tree.node(id: "row3")?.isHovered == true)
    #expect(tree.node(id: "row1")?.isHovered == false)
    // Enter and leave as for a move, bubbling over and out; no move.
    #expect(list.heard == ["leave row1", "over row3", "enter row3"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func framesSetOneByOneInOneUpdateMoveTheHoverOnce() throws {
    let list = List()
    let tree = NodeTree(declaring: list.declaration())
    tree.handlePointer(PointerInput(.move, at: at(1, 0)))
    list.heard = []
    let rows = tree.root.children
    // Away and back in one update: the hover is run once, at the end, and finds the row again.
    tree.performUpdates {
      rows[0].frame(frame(0, 5, 10, 1))
      rows[0].frame(frame(0, 0, 10, 1))
    }
    #expect(tree.hoveredNode?.id == "row0")
    #expect(list.heard.isEmpty)
    // The same in one declaration: the rows scroll by one and back.
    list.offset = 0
    tree.update(to: list.declaration())
    #expect(list.heard.isEmpty)
    // Outside an update, each frame set is an update of its own.
    rows[0].frame(frame(0, 5, 10, 1))
    #expect(tree.hoveredNode === tree.root)
    #expect(list.heard == ["leave row0"])
    rows[1].frame(frame(0, 0, 10, 1))
    #expect(tree.hoveredNode?.id == "row1")
    #expect(list.heard == ["leave row0", "over row1", "enter row1"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func anInactivePageUnderThePointerGivesTheHoverToWhatIsBelow() throws {
    let tree = NodeTree {
      Node("back").frame(frame(0, 0, 10, 10))
      Node("page") { Node("button").frame(frame(0, 0, 4, 4)) }
    }
    tree.handlePointer(PointerInput(.move, at: at(1, 1)))
    #expect(tree.hoveredNode?.id == "button")
    let page = try #require(tree.node(id: "page"))
    page.isActive = false
    #expect(tree.hoveredNode?.id == "back")
    page.isActive = true
    #expect(tree.hoveredNode?.id == "button")
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aTreeThePointerNeverVisitedIsNotHitTested() throws {
    let list = List()
    let tree = NodeTree(declaring: list.declaration())
    list.offset = 1
    tree.update(to: list.declaration())
    #expect(tree.hoveredNode == nil)
    #expect(list.heard.isEmpty)
  }
}

/// FuzzPointerSequences found it: a move whose former parent mends the hover path ran the hover
/// before the mending, over flags the move had left stale.
@Suite struct HoverReorderTests {
  @Test func aHoveredNodeMovedUpToItsGrandparentKeepsTheHoverPathFlagged() throws {
    let tree = NodeTree("root") {}
    tree.root.frame(frame(0, 0, 16, 16))
    tree.handlePointer(PointerInput(.move, at: at(11.5, 14)))
    let outer = Node("outer").frame(frame(6, 12, 9, 3), zIndex: 1)
    try tree.root.addChild(outer)
    let inner = Node("inner").frame(frame(10, 11, 5, 5))
    try outer.addChild(inner)
    #expect(tree.hoveredNode === inner)
    // Moved out from under `outer`, which is drawn above it: the pointer is over `outer` now, and
    // the path from it to the root is flagged.
    try tree.root.addChild(inner)
    #expect(tree.hoveredNode === outer)
    #expect(tree.root.isHovered && outer.isHovered && !inner.isHovered)
    #expect(tree.checkInvariants().isEmpty)
  }
}

/// Hover marks belong to the tree whose pointer set them.
@Suite struct HoverAcrossTreesTests {
  /// Found by the tree-mutations fuzzer: a tree whose root was adopted by another tree's root,
  /// which the pointer hovered through, kept the hover marks the other tree set after that tree's
  /// root was freed.
  @Test func nodesThatOutliveTheTreeThatHoveredThemKeepNoHoverMarks() throws {
    let inner = NodeTree(
      declaring: NodeDeclaration("inner") {
        NodeDeclaration("button").frame(frame(0, 0, 4, 1))
        NodeDeclaration("label").frame(frame(0, 1, 4, 1))
      }
      .frame(frame(0, 0, 10, 4)))
    let button = try #require(inner.node(id: "button"))
    do {
      let outer = NodeTree(declaring: NodeDeclaration("outer").frame(frame(0, 0, 10, 10)))
      try outer.root.addChild(inner.root)
      outer.handlePointer(PointerInput(.move, at: at(1, 0)))
      #expect(outer.hoveredNode === button)
      #expect(inner.root.isHovered && button.isHovered)
    }
    // The outer tree and its root are gone; the inner tree is rooted again.
    #expect(inner.isRooted)
    #expect(!inner.root.isHovered && !button.isHovered)
    #expect(inner.hoveredNode == nil)
    #expect(inner.checkInvariants(idle: true).isEmpty)
    // Its own pointer marks its own path.
    inner.handlePointer(PointerInput(.move, at: at(1, 1)))
    #expect(inner.hoveredNode?.id == "label")
    #expect(!button.isHovered)
    #expect(inner.checkInvariants(idle: true).isEmpty)
  }
}
