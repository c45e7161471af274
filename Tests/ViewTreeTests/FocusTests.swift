import TestSupport
import Testing
@_spi(Invariants) import ViewTree

/// Presses Tab (or another move) and returns the id of the node focused after it.
@discardableResult
private func press(_ tree: NodeTree, _ move: FocusMove = .next) -> String? {
  tree.moveFocus(move)
  return tree.focusedNode?.id
}

/// The ids Tab visits, `count` presses from the current focus.
private func tabs(_ tree: NodeTree, _ count: Int, _ move: FocusMove = .next) -> [String] {
  (0..<count).map { _ in press(tree, move) ?? "-" }
}

@Suite struct FocusTraversalTests {
  @Test func tabFollowsTreeOrderSkipsWhatCannotTakeFocusAndWrapsAtTheRoot() throws {
    let tree = NodeTree("window") {
      Node("a").focusable()
      Node("panel") {
        Node("b").focusable()
        Node("label")
        Node("c").focusable(false)
        Node("d").focusable()
      }
      Node("help").focusable(order: -1)
      Node("e").focusable()
    }
    #expect(tabs(tree, 5) == ["a", "b", "d", "e", "a"])
    #expect(tabs(tree, 5, .previous) == ["e", "d", "b", "a", "e"])
    // A negative order keeps a node out of Tab's way, not out of reach.
    try tree.focus(id: "help")
    #expect(press(tree) == "e")
    #expect(press(tree, .previous) == "d")
  }

  @Test func withNothingFocusedTabStartsAtTheFirstNodeAndShiftTabAtTheLast() {
    let tree = NodeTree("window") {
      Node("a").focusable()
      Node("b") { Node("c").focusable() }
    }
    #expect(press(tree) == "a")
    tree.clearFocus()
    #expect(press(tree, .previous) == "c")
    let empty = NodeTree("window") { Node("a") }
    #expect(empty.moveFocus(.next).movedTo == nil)
    let alone = NodeTree("window") { Node("a").focusable() }
    #expect(press(alone) == "a")
    guard case .stayed = alone.moveFocus(.next) else {
      Issue.record("a single focusable node has nowhere to go")
      return
    }
  }

  @Test func anOrderedScopeFollowsTheDeclaredOrderThenLeavesInTreeOrder() throws {
    let tree = NodeTree("window") {
      Node("before").focusable()
      Node("form") {
        Node("zero1").focusable()
        Node("three").focusable(order: 3)
        Node("one").focusable(order: 1)
        Node("hidden").focusable(order: -1)
        Node("zero2").focusable()
        Node("oneToo").focusable(order: 1)
      }
      .focusScope(ordered: true)
      Node("after").focusable()
    }
    // Positive orders first, lowest first, ties in tree order; then order 0 in tree order.
    #expect(tabs(tree, 8) == ["before", "one", "oneToo", "three", "zero1", "zero2", "after", "before"])
    try tree.focus(id: "after")
    #expect(tabs(tree, 3, .previous) == ["zero2", "zero1", "three"])
  }

  @Test func anOrderedScopeLeavesOutWhatTheFilterOrAnAncestorMakesUnfocusable() throws {
    let tree = NodeTree("window") {
      Node("form") {
        Node("two").focusable(order: 2)
        Node("panel") {
          Node("inner").focusable(order: 1)
        }
        .descendantsFocusable(false)
        Node("refused").focusable(order: 1)
        Node("zero").focusable()
        Node("group") {
          Node("nested").focusable(order: 3)
        }
      }
      .focusScope(ordered: true)
    }
    // The filter, user code, sees the scope's candidates only after the walk, and may change
    // the tree meanwhile: what it adds is taken at the next Tab.
    var added = false
    // Weakly: the tree keeps its filter.
    tree.focusFilter = { [weak tree] node in
      if !added, let form = tree?.node(id: "form") {
        added = true
        try? form.addChild(Node("late").focusable(order: 4))
      }
      return node.id != "refused"
    }
    #expect(tabs(tree, 6) == ["two", "nested", "late", "zero", "two", "nested"])
    #expect(tabs(tree, 3, .previous) == ["two", "zero", "late"])
  }

  @Test func aRootAdoptedDuringAMoveMovesFocusWithinItself() throws {
    let tree = NodeTree("root") {
      Node("first").focusable()
      Node("second").focusable()
    }
    // A trap with a focusable node outside the tree, which adopts the tree's root while the move
    // is triggered from the focus: neither counts for the move that goes on.
    let outer = Node("outer") { Node("outside").focusable() }.focusScope(.trap)
    try tree.focus(id: "second")
    tree.root.receiveAction(FocusMove.self) { [weak tree, weak outer] _ in
      if let root = tree?.root, root.parent == nil { try? outer?.addChild(root) }
      return .unhandled
    }
    tree.moveFocus(.next)
    #expect(tree.focusedNode?.id == "first")
    #expect(tree.checkInvariants().isEmpty)
    withExtendedLifetime(outer) {}
  }

  @Test func aRootAdoptedByAnotherTreeKeepsItsRulesAndTheOtherTreeItsOwn() throws {
    let inner = NodeTree("inner") {
      Node("first").focusable()
      Node("skipped").focusable()
    }
    inner.focusFilter = { $0.id != "skipped" }
    let outer = NodeTree("outer") { Node("panel").descendantsFocusable(false) }
    try outer.node(id: "panel")?.addChild(inner.root)
    let first = try #require(inner.node(id: "first"))
    // The inner tree asks with its own root: the panel above it does not count, its filter does.
    try inner.focus(first)
    #expect(inner.focusedNode === first)
    #expect(
      throws: ViewTreeError.notFocusable(
        node: "outer/panel/inner/skipped", reason: "the tree's focusFilter skips it")
    ) { try inner.focus(id: "skipped") }
    // The outer tree asks with its root: the panel makes the inner nodes unfocusable there.
    #expect(
      throws: ViewTreeError.notFocusable(
        node: "outer/panel/inner/first", reason: "outer/panel declares descendantsFocusable(false)")
    ) { try outer.focus(first) }
    #expect(inner.checkInvariants().isEmpty)
    #expect(outer.checkInvariants().isEmpty)
  }

  @Test func aGroupIsLeftAtItsEndsAndEnteredAtTheNodeItRemembers() throws {
    let tree = NodeTree("window") {
      Node("list").focusable()
      Node("toolbar") {
        Node("bold").focusable()
        Node("italic").focusable()
        Node("link").focusable()
      }
      .focusScope()
      Node("editor").focusable()
    }
    #expect(tabs(tree, 5) == ["list", "bold", "italic", "link", "editor"])
    // Leave the group from "italic": coming back by Tab or Shift-Tab enters at "italic".
    try tree.focus(id: "italic")
    try tree.focus(id: "editor")
    #expect(press(tree, .previous) == "italic")
    try tree.focus(id: "list")
    #expect(press(tree) == "italic")
    // Focusing the scope itself enters it the same way.
    try tree.focus(id: "editor")
    try tree.focus(id: "toolbar")
    #expect(tree.focusedNode?.id == "italic")
  }

  @Test func aGroupWithoutMemoryIsEnteredAtItsDefaultThenAtItsFirstOrLastNode() throws {
    let tree = NodeTree("window") {
      Node("list").focusable()
      Node("tools") {
        Node("a").focusable()
        Node("b").focusable()
      }
      .focusScope(defaultFocus: "b")
      Node("plain") {
        Node("c").focusable()
        Node("d").focusable()
      }
      .focusScope()
    }
    try tree.focus(id: "list")
    #expect(press(tree) == "b")
    try tree.focus(id: "list")
    #expect(press(tree, .previous) == "d")  // wraps from the first node to the last group's last
  }

  @Test func aTrapWrapsTabRefusesFocusOutsideAndGivesFocusBackWhenItLeaves() throws {
    let tree = NodeTree("window") {
      Node("list").focusable()
      Node("editor").focusable()
    }
    try tree.focus(id: "list")
    let dialog = Node("dialog") {
      Node("cancel").focusable()
      Node("delete").focusable()
    }
    .focusScope(.trap, defaultFocus: "cancel")
    try tree.root.addChild(dialog)
    var reasons: [String] = []
    tree.onFocusChange = { reasons.append("\($0.new?.id ?? "-") \($0.reason)") }
    try tree.focus(dialog)
    #expect(tree.focusedNode?.id == "cancel")
    #expect(tabs(tree, 3) == ["delete", "cancel", "delete"])
    #expect(tabs(tree, 2, .previous) == ["cancel", "delete"])
    #expect(throws: ViewTreeError.outsideFocusTrap(node: "window/editor", trap: "window/dialog")) {
      try tree.focus(id: "editor")
    }
    dialog.removeFromParent()
    #expect(tree.focusedNode?.id == "list")
    #expect(reasons.first == "cancel programmatic")
    #expect(reasons.last == "list restore")
  }

  @Test func aTrapWhoseOpenerLeftGivesFocusToItsNearestFocusableAncestor() throws {
    let tree = NodeTree("window") {
      Node("panel") {
        Node("opener").focusable()
        Node("dialog") { Node("ok").focusable() }.focusScope(.trap)
      }
      .focusable()
    }
    try tree.focus(id: "opener")
    try tree.focus(id: "dialog")
    #expect(tree.focusedNode?.id == "ok")
    tree.node(id: "opener")!.removeFromParent()
    #expect(tree.focusedNode?.id == "ok")
    var reason: FocusChangeReason?
    tree.onFocusChange = { reason = $0.reason }
    tree.node(id: "dialog")!.removeFromParent()
    #expect(tree.focusedNode?.id == "panel")
    #expect(reason == .repair)
  }

  @Test func focusingWhatCannotTakeFocusIsAnErrorThatSaysWhy() throws {
    let tree = NodeTree("window") {
      Node("plain")
      Node("panel") { Node("field").focusable() }.descendantsFocusable(false)
      Node("empty") { Node("label") }.focusScope()
      Node("skipped").focusable()
    }
    tree.focusFilter = { $0.id != "skipped" }
    #expect(
      throws: ViewTreeError.notFocusable(node: "window/plain", reason: "it does not declare focusable()")
    ) {
      try tree.focus(id: "plain")
    }
    #expect(
      throws: ViewTreeError.notFocusable(
        node: "window/panel/field", reason: "window/panel declares descendantsFocusable(false)")
    ) { try tree.focus(id: "field") }
    #expect(
      throws: ViewTreeError.notFocusable(node: "window/empty", reason: "it does not declare focusable()")
    ) {
      try tree.focus(id: "empty")
    }
    #expect(
      throws: ViewTreeError.notFocusable(node: "window/skipped", reason: "the tree's focusFilter skips it")
    ) {
      try tree.focus(id: "skipped")
    }
    #expect(tree.focusedNode == nil)
    #expect(tree.moveFocus(.next).movedTo == nil)
    #expect(
      "\(ViewTreeError.outsideFocusTrap(node: "w/a", trap: "w/d"))"
        == "'w/a' is outside 'w/d', which traps the focus until it leaves the tree")
  }

  @Test func aNodeThatHandlesTheMoveKeepsTheFocus() throws {
    var inserted = 0
    let tree = NodeTree("window") {
      Node("editor").focusable().receiveAction(FocusMove.self) { move in
        guard move == .next else { return .unhandled }
        inserted += 1
        return .handled
      }
      Node("other").focusable()
    }
    try tree.focus(id: "editor")
    guard case .intercepted(let outcome) = tree.moveFocus(.next) else {
      Issue.record("expected the editor to handle Tab")
      return
    }
    #expect(outcome.handlerID == "editor")
    #expect(inserted == 1)
    #expect(tree.focusedNode?.id == "editor")
    #expect(press(tree, .previous) == "other")
    // A tree that requires handling still moves focus for an unhandled move.
    tree.requiresHandling = true
    #expect(press(tree, .previous) == "editor")
  }

  @Test func reDeclaredFocusabilityIsWhatTheLatestDeclarationSays() throws {
    func declare(_ focusable: Set<String>, disabled: Bool) -> NodeDeclaration {
      NodeDeclaration("window") {
        for id in ["a", "b", "c"] { NodeDeclaration(id).focusable(focusable.contains(id)) }
        NodeDeclaration("panel") { NodeDeclaration("d").focusable() }.descendantsFocusable(!disabled)
      }
    }
    let tree = NodeTree(declaring: declare(["a", "b", "c"], disabled: false))
    #expect(tabs(tree, 4) == ["a", "b", "c", "d"])
    tree.update(to: declare(["a", "c"], disabled: true))
    #expect(tree.focusedNode?.id == "d")  // still declared, so it keeps focus
    #expect(tabs(tree, 3) == ["a", "c", "a"])
    #expect(tree.node(id: "b")?.isFocusable == false)
    #expect(tree.node(id: "d")?.isFocusable == false)
  }

  @Test func onFocusChangeMayChangeTheTreeAndTheFocus() throws {
    let tree = NodeTree("window") {
      Node("a").focusable()
      Node("b").focusable()
      Node("c").focusable()
    }
    var log: [String] = []
    tree.onFocusChange = { change in
      log.append("\(change.old?.id ?? "-") -> \(change.new?.id ?? "-") \(change.reason)")
      // Landing on "b" removes it: focus is repaired from inside the callback.
      if change.new?.id == "b" { change.new?.removeFromParent() }
    }
    #expect(press(tree) == "a")
    #expect(press(tree) == nil)
    #expect(log == ["- -> a traversal", "a -> b traversal", "b -> - repair"])
    #expect(press(tree) == "a")
    #expect(press(tree) == "c")
    #expect(tree.checkInvariants().isEmpty)
  }
}

extension FocusTraversalTests {
  @Test func aFilterThatRemovesNodesDuringAMoveDoesNotBreakTheWalk() throws {
    let tree = NodeTree("window") {
      Node("list") { for index in 0..<6 { Node("row\(index)").focusable() } }
      Node("end").focusable()
    }
    let list = try #require(tree.node(id: "list"))
    try tree.focus(id: "end")
    // Against the filter's contract, it removes rows while Shift-Tab walks back over them.
    tree.focusFilter = { node in
      if node.id != "row0", list.children.count > 1 { _ = try? list.removeChild(at: list.children.count - 1) }
      return true
    }
    tree.moveFocus(.previous)
    tree.moveFocus(.previous)
    #expect(tree.checkInvariants().isEmpty)
    #expect(tree.focusedNode.map { tree.contains($0) } ?? true)
  }
}

@Suite struct FocusMemoryTests {
  @Test func aTreeWhoseFocusMovedIsFreedWhenDropped() throws {
    weak var weakRoot: Node?
    weak var weakScope: Node?
    do {
      let tree = NodeTree("root") {
        Node("a").focusable()
        Node("group") { Node("b").focusable().frame(NodeFrame(x: 0, y: 0, width: 1, height: 1)) }.focusScope()
        Node("dialog") { Node("c").focusable() }.focusScope(.trap)
      }
      weakRoot = tree.root
      weakScope = tree.node(id: "group")
      #expect(tree.moveFocus(.next).movedTo?.id == "a")
      #expect(tree.moveFocus(.next).movedTo?.id == "b")
      #expect(tree.moveFocus(.previous).movedTo?.id == "a")
      try tree.focus(id: "c")
    }
    // The walk the tree keeps for Tab, and what its scopes remember, do not keep nodes alive.
    #expect(weakRoot == nil)
    #expect(weakScope == nil)
  }
}

@Suite struct FocusDirectionTests {
  /// A grid of `columns` x `rows` cells named `r<row>c<column>`, each 4 wide and 1 high.
  func grid(columns: Int, rows: Int, framed: Bool = true) -> NodeTree {
    NodeTree("window") {
      Node("grid") {
        for row in 0..<rows {
          for column in 0..<columns {
            Node("r\(row)c\(column)").focusable()
              .frame(framed ? NodeFrame(x: Double(column * 4), y: Double(row), width: 4, height: 1) : nil)
          }
        }
      }
      .focusScope()
      Node("outside").focusable().frame(NodeFrame(x: 100, y: 0, width: 4, height: 1))
    }
  }

  @Test func arrowsGoToTheNearestNodeInLineWithinTheScope() throws {
    let tree = grid(columns: 3, rows: 3)
    try tree.focus(id: "r1c1")
    #expect(press(tree, .right) == "r1c2")
    #expect(press(tree, .right) == "r1c2")  // the scope's edge: "outside" is not in the scope
    #expect(press(tree, .down) == "r2c2")
    #expect(press(tree, .left) == "r2c1")
    #expect(press(tree, .up) == "r1c1")
    #expect(press(tree, .up) == "r0c1")
    guard case .stayed = tree.moveFocus(.up) else {
      Issue.record("nothing lies above the top row")
      return
    }
  }

  @Test func directionsPassOverWhatTheFilterOrAnAncestorRefuses() throws {
    let tree = grid(columns: 4, rows: 1)
    try tree.focus(id: "r0c0")
    // The filter refuses the nearest and the next: the move goes on to the nearest it accepts.
    var asked: [String] = []
    tree.focusFilter = { node in
      asked.append(node.id ?? "")
      return !["r0c1", "r0c2"].contains(node.id)
    }
    #expect(press(tree, .right) == "r0c3")
    #expect(asked == ["r0c1", "r0c2", "r0c3"])
    // A cell whose descendants cannot take focus is passed over with them.
    tree.focusFilter = nil
    try tree.focus(id: "r0c0")
    tree.node(id: "r0c1")?.descendantsFocusable(false)
    try tree.node(id: "r0c1")?.addChild(
      Node("inner").focusable().frame(NodeFrame(x: 5, y: 0, width: 1, height: 1)))
    #expect(press(tree, .right) == "r0c1")
    #expect(press(tree, .right) == "r0c2")
  }

  @Test func aFilterThatRefusesEveryCellIsAskedOnceEach() throws {
    let tree = grid(columns: 40, rows: 25)
    try tree.focus(id: "r12c0")
    var asked = 0
    tree.focusFilter = { node in
      asked += 1
      return node.id == "r12c0"
    }
    guard case .stayed = tree.moveFocus(.right) else {
      Issue.record("every cell to the right is refused")
      return
    }
    // Every cell to the right is a candidate (those out of line too), asked about once.
    #expect(asked == 25 * 39)
  }

  @Test func outOfLineNodesAreChosenByDistanceWhenNothingIsInLine() throws {
    let tree = NodeTree("window") {
      Node("origin").focusable().frame(NodeFrame(x: 0, y: 0, width: 2, height: 1))
      Node("far").focusable().frame(NodeFrame(x: 20, y: 5, width: 2, height: 1))
      Node("near").focusable().frame(NodeFrame(x: 4, y: 2, width: 2, height: 1))
      Node("behind").focusable().frame(NodeFrame(x: -6, y: 0, width: 2, height: 1))
    }
    try tree.focus(id: "origin")
    #expect(press(tree, .right) == "near")
    try tree.focus(id: "origin")
    #expect(press(tree, .left) == "behind")
  }

  @Test func withoutFramesDirectionsFollowTabOrder() throws {
    let tree = grid(columns: 2, rows: 2, framed: false)
    try tree.focus(id: "r0c0")
    #expect(press(tree, .right) == "r0c1")
    #expect(press(tree, .down) == "r1c0")
    #expect(press(tree, .left) == "r0c1")
    #expect(press(tree, .up) == "r0c0")
  }
}

@Suite struct FocusModelTests {
  /// A random tree of `count` nodes, each focusable or not, some with a negative order, some
  /// whole subtrees made unfocusable; and, for the reference, what each node declared.
  func randomTree(_ count: Int, _ generator: inout SplitMix64) -> (NodeTree, [Node], [Int: Declared]) {
    let tree = NodeTree("n0") {}
    var nodes = [tree.root]
    var declared: [Int: Declared] = [:]
    for index in 1..<count {
      let parent = nodes[Int(generator.next() % UInt64(nodes.count))]
      let node = Node("n\(index)")
      switch generator.next() % 8 {
      case 0, 1, 2:
        node.focusable()
        declared[index] = .tabStop
      case 3:
        node.focusable(order: -1)
        declared[index] = .hidden
      case 4 where generator.next() % 3 == 0:
        node.descendantsFocusable(false)
        declared[index] = .disablesDescendants
      default: break
      }
      try! parent.addChild(node)
      nodes.append(node)
    }
    return (tree, nodes, declared)
  }

  enum Declared { case tabStop, hidden, disablesDescendants }

  @Test func tabAgreesWithSortingTheFocusableNodesAndTakingTheNext() throws {
    var generator = SplitMix64(seed: 29)
    for round in 0..<300 {
      let (tree, nodes, declared) = randomTree(1 + Int(generator.next() % 40), &generator)
      // The reference: every node in pre-order, and whether it is a tab stop, found from what
      // each node declared rather than by the library.
      var order: [Node] = []
      tree.root.walkSubtree { order.append($0) }
      func index(_ node: Node) -> Int { Int(node.id!.dropFirst())! }
      func isBlocked(_ node: Node) -> Bool {
        var ancestor = node.parent
        while let current = ancestor {
          if declared[index(current)] == .disablesDescendants { return true }
          ancestor = current.parent
        }
        return false
      }
      let stopPositions = order.indices.filter {
        declared[index(order[$0])] == .tabStop && !isBlocked(order[$0])
      }
      let focusable = nodes.filter { [.tabStop, .hidden].contains(declared[index($0)]) && !isBlocked($0) }
      for start in [nil] + focusable {
        for move in [FocusMove.next, .previous] {
          if let start { try tree.focus(start) } else { tree.clearFocus() }
          var expected: Node?
          if !stopPositions.isEmpty {
            let position = start.map { node in order.firstIndex { $0 === node }! }
            switch (move, position) {
            case (.next, nil): expected = order[stopPositions.first!]
            case (_, nil): expected = order[stopPositions.last!]
            case (.next, let position?):
              expected = order[stopPositions.first { $0 > position } ?? stopPositions.first!]
            case (_, let position?):
              expected = order[stopPositions.last { $0 < position } ?? stopPositions.last!]
            }
            if expected === start { expected = nil }
          }
          let moved = tree.moveFocus(move).movedTo
          #expect(moved === expected, "round \(round), \(move) from \(start?.path ?? "nothing")")
        }
      }
    }
  }
}
