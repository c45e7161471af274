import TestSupport
import Testing
@_spi(Invariants) import ViewTree

private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> NodeFrame {
  NodeFrame(x: x, y: y, width: width, height: height)
}

private func at(_ x: Double, _ y: Double) -> PointerLocation { PointerLocation(x: x, y: y) }

/// A node that moves within its tree keeps its focus, its hover and its capture, whatever moves
/// it; one that leaves is repaired as before.
@Suite struct MovesKeepFocusTests {
  /// A board of two columns, `todo` and `done`, each listing the cards whose handles it is given.
  final class Board {
    let cards = (0..<3).map { _ in NodeHandle() }
    var todo: [Int] = [0, 1]
    var done: [Int] = [2]
    var changes: [String] = []
    let root = NodeHandle()
    let todoColumn = NodeHandle()
    let doneColumn = NodeHandle()

    func card(_ index: Int, x: Double, y: Double) -> NodeDeclaration {
      NodeDeclaration("card\(index)").focusable().frame(frame(x, y, 10, 1)).bound(to: cards[index])
    }

    /// The whole board as one declaration, the done column first.
    func declaration() -> NodeDeclaration {
      NodeDeclaration("board") {
        NodeDeclaration("done") {
          for (row, index) in done.enumerated() { card(index, x: 20, y: Double(row)) }
        }
        NodeDeclaration("todo") {
          for (row, index) in todo.enumerated() { card(index, x: 0, y: Double(row)) }
        }
      }
    }

    /// Each column re-renders on its own, as a per-view toolkit does, the done column first when
    /// `doneFirst`.
    func renderColumns(doneFirst: Bool = false) {
      if doneFirst { renderDone() }
      todoColumn.update(
        to: NodeDeclaration("todo") {
          for (row, index) in todo.enumerated() { card(index, x: 0, y: Double(row)) }
        })
      if !doneFirst { renderDone() }
    }

    func renderDone() {
      doneColumn.update(
        to: NodeDeclaration("done") {
          for (row, index) in done.enumerated() { card(index, x: 20, y: Double(row)) }
        })
    }

    func makeTree() throws -> NodeTree {
      let tree = NodeTree(declaring: declaration())
      tree.onFocusChange = { [unowned self] change in
        changes.append("\(change.old?.id ?? "-") -> \(change.new?.id ?? "-") (\(change.reason))")
      }
      return tree
    }
  }

  @Test func aCardMovedToAColumnDeclaredEarlierKeepsTheFocus() throws {
    let board = Board()
    let tree = try board.makeTree()
    let card = try #require(board.cards[1].node)
    try tree.focus(card)
    board.changes = []
    // Card 1 moves from todo to done; done is declared first, so the update meets the card's new
    // place before its old column drops it.
    board.todo = [0]
    board.done = [2, 1]
    tree.update(to: board.declaration())
    #expect(board.cards[1].node === card)
    #expect(card.parent?.id == "done")
    #expect(tree.focusedNode === card)
    #expect(board.changes.isEmpty)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aCardMovedToAColumnDeclaredLaterKeepsTheFocus() throws {
    let board = Board()
    let tree = try board.makeTree()
    let card = try #require(board.cards[2].node)
    try tree.focus(card)
    board.changes = []
    // Card 2 moves from done to todo: the done column drops it before todo takes it back.
    board.done = []
    board.todo = [0, 1, 2]
    tree.update(to: board.declaration())
    #expect(card.parent?.id == "todo")
    #expect(tree.focusedNode === card)
    #expect(board.changes.isEmpty)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func viewsThatRenderOneAtATimeKeepTheFocusInOneUpdate() throws {
    let board = Board()
    board.renderColumns()
    board.root.update(
      to: NodeDeclaration("board") {
        NodeDeclaration.slot(board.todoColumn)
        NodeDeclaration.slot(board.doneColumn)
      })
    let tree = try NodeTree(root: try #require(board.root.node))
    // Unowned: the tree keeps the closure, and the board keeps the tree's root.
    tree.onFocusChange = { [unowned board] change in
      board.changes.append("\(change.old?.id ?? "-") -> \(change.new?.id ?? "-") (\(change.reason))")
    }
    let card = try #require(board.cards[0].node)
    try tree.focus(card)
    board.changes = []
    board.todo = [1]
    board.done = [2, 0]
    tree.performUpdates { board.renderColumns() }
    #expect(card.parent?.id == "done")
    #expect(tree.focusedNode === card)
    #expect(board.changes.isEmpty)
    #expect(tree.checkInvariants().isEmpty)

    // Outside one update, the column that drops the card first repairs the focus as a removal
    // does (a column that takes it first moves it, and the focus stays).
    board.done = [2]
    board.todo = [1, 0]
    board.renderColumns(doneFirst: true)
    #expect(card.parent?.id == "todo")
    #expect(tree.focusedNode !== card)
    #expect(board.changes == ["card0 -> - (repair)"])
  }

  @Test func aRemovedCardIsRepairedAsBefore() throws {
    let board = Board()
    let tree = try board.makeTree()
    try tree.focus(try #require(board.cards[1].node))
    board.changes = []
    board.todo = [0]
    tree.performUpdates {
      tree.update(to: board.declaration())
      board.cards[1].detach()
    }
    // The column cannot take focus, and nothing above it can.
    #expect(board.changes == ["card1 -> - (repair)"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aCardMovedUnderAnUnfocusableColumnLosesTheFocusThere() throws {
    let board = Board()
    let tree = try board.makeTree()
    let card = try #require(board.cards[0].node)
    try tree.focus(card)
    board.changes = []
    let done = try #require(tree.node(id: "done"))
    done.descendantsFocusable(false)
    tree.performUpdates {
      card.removeFromParent()
      try? done.addChild(card)
    }
    #expect(tree.focusedNode !== card)
    #expect(board.changes == ["card0 -> board (repair)"] || board.changes == ["card0 -> - (repair)"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func imperativeRemoveAndAddInOneUpdateKeepTheFocusHoverAndCapture() throws {
    let tree = NodeTree {
      Node("left") { Node("knob").focusable().frame(frame(0, 0, 4, 1)) }.frame(frame(0, 0, 10, 10))
      Node("right").frame(frame(10, 0, 10, 10))
    }
    let knob = try #require(tree.node(id: "knob"))
    let right = try #require(tree.node(id: "right"))
    var heard: [String] = []
    knob.onAction { action in
      if !(action is PointerMove) { heard.append("\(type(of: action))") }
    }
    tree.handlePointer(PointerInput(.press(.primary), at: at(1, 0)))
    try tree.setPointerCapture(knob)
    tree.handlePointer(PointerInput(.move, at: at(2, 0)))
    #expect(tree.pointerCapture === knob)
    #expect(tree.focusedNode === knob)
    heard = []
    var changes = 0
    tree.onFocusChange = { _ in changes += 1 }
    tree.performUpdates {
      knob.removeFromParent()
      try? right.addChild(knob)
    }
    #expect(tree.focusedNode === knob)
    #expect(tree.pointerCapture === knob)
    #expect(tree.hoveredNode === knob)
    #expect(knob.isHovered && right.isHovered)
    #expect(changes == 0)
    #expect(heard.isEmpty)
    #expect(tree.checkInvariants().isEmpty)
  }

  /// Found by the tree-mutations fuzzer: Tab inside an update, with the focused node moved into
  /// another tree, trapped walking from a node the tree no longer holds.
  @Test(arguments: [FocusMove.next, .previous, .down, .left])
  func aMoveFromAFocusThatLeftDuringAnUpdateStartsAsFromNoFocus(move: FocusMove) throws {
    let other = NodeTree("other") {}
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("first").focusable().frame(frame(0, 0, 10, 1))
        NodeDeclaration("card").focusable().frame(frame(0, 1, 10, 1))
        NodeDeclaration("last").focusable().frame(frame(0, 2, 10, 1))
      })
    try tree.focus(id: "card")
    let card = try #require(tree.focusedNode)
    var moved: FocusMoveResult?
    tree.performUpdates {
      try? other.root.addChild(card)
      moved = tree.moveFocus(move)
    }
    let expected = move == .next || move == .down ? "first" : "last"
    guard case .moved(let target)? = moved else {
      Issue.record("the focus stayed: \(String(describing: moved))")
      return
    }
    #expect(target.id == expected)
    #expect(tree.focusedNode?.id == expected)
    #expect(tree.checkInvariants(idle: true).isEmpty)
  }
}
