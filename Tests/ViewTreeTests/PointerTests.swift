import TestSupport
import Testing
@_spi(Invariants) import ViewTree

private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> NodeFrame {
  NodeFrame(x: x, y: y, width: width, height: height)
}

private func at(_ x: Double, _ y: Double) -> PointerLocation { PointerLocation(x: x, y: y) }

/// The kind of a pointer action, in a word: `Press`, `Enter`, `GotPointerCapture`.
private func kind(of action: any Action) -> String? {
  switch action {
  case is PointerPress: "Press"
  case is PointerRelease: "Release"
  case is PointerClick: "Click"
  case is PointerMove: "Move"
  case is PointerWheel: "Wheel"
  case is PointerEnter: "Enter"
  case is PointerLeave: "Leave"
  case is PointerOver: "Over"
  case is PointerOut: "Out"
  case is GotPointerCapture: "GotPointerCapture"
  case is LostPointerCapture: "LostPointerCapture"
  default: nil
  }
}

/// A recorder of what pointer actions reach which nodes, in order.
private final class PointerLog {
  var entries: [String] = []

  /// Records every pointer action `node` sees in its bubble phase, as `node: Kind`.
  func watch(_ node: Node) {
    let id = node.id ?? "?"
    node.onAction { [weak self] action in
      guard let self, let kind = kind(of: action) else { return }
      entries.append("\(id): \(kind)")
    }
  }

  func take() -> [String] {
    defer { entries = [] }
    return entries
  }
}

@Suite struct HitTestTests {
  @Test func laterSiblingsAndHigherZIndexAreOnTopAndFramesClip() {
    let tree = NodeTree("root") {
      Node("back").frame(frame(0, 0, 10, 10))
      Node("front").frame(frame(5, 5, 10, 10))
      Node("raised").frame(frame(0, 0, 4, 4), zIndex: 1)
      Node("lowered").frame(frame(0, 0, 4, 4))
      Node("panel") {
        Node("inside").frame(frame(20, 0, 2, 2))
        Node("overflow").frame(frame(40, 0, 2, 2))
      }
      .frame(frame(20, 0, 10, 10))
    }
    #expect(tree.node(at: at(6, 6))?.id == "front")
    #expect(tree.node(at: at(2, 6))?.id == "back")
    // `raised` was declared before `lowered`, but its zIndex puts it above.
    #expect(tree.node(at: at(1, 1))?.id == "raised")
    #expect(tree.node(at: at(20, 0))?.id == "inside")
    #expect(tree.node(at: at(25, 5))?.id == "panel")
    // The panel's frame clips its child.
    #expect(tree.node(at: at(40, 0)) == nil)
    // Right and bottom edges are outside.
    #expect(tree.node(at: at(15, 15)) == nil)
    #expect(tree.node(at: at(14.9, 14.9))?.id == "front")
  }

  @Test func behavioursDecideWhatIsBelowSees() {
    let tree = NodeTree("root") {
      Node("base").frame(frame(0, 0, 10, 10))
      Node("glass").frame(frame(0, 0, 10, 10), hitBehavior: .translucent)
      Node("column") { Node("cell").frame(frame(0, 0, 2, 2)) }
        .frame(frame(0, 0, 10, 10), hitBehavior: .deferToChild)
    }
    // The column takes nothing itself: where its cell is, the cell; elsewhere, what is below.
    #expect(tree.node(at: at(1, 1))?.id == "cell")
    #expect(tree.hitTest(at: at(5, 5)).map(\.id) == ["glass", "base"])
    // An opaque cell hides the glass and the base.
    #expect(tree.hitTest(at: at(1, 1)).map(\.id) == ["cell"])
    tree.node(id: "cell")?.frame(frame(0, 0, 2, 2), hitBehavior: .translucent)
    #expect(tree.hitTest(at: at(1, 1)).map(\.id) == ["cell", "glass", "base"])
  }

  @Test func nodesWithoutFramesHostileFramesAndDetachedNodesTakeNoHit() {
    let tree = NodeTree("root") {
      Node("group") { Node("leaf").frame(frame(0, 0, 1, 1)) }
      Node("nan").frame(frame(.nan, 0, 5, 5))
      Node("infinite").frame(frame(0, 0, .infinity, 5))
      Node("empty").frame(frame(3, 3, 0, 0))
      Node("negative").frame(frame(4, 4, -2, -2))
    }
    #expect(tree.node(at: at(0, 0))?.id == "leaf")
    #expect(tree.node(id: "group")?.frame == nil)
    #expect(tree.node(id: "nan")?.frame == nil)
    #expect(tree.node(id: "infinite")?.frame == nil)
    for point in [at(3, 3), at(3.5, 3.5), at(2, 2), at(.nan, 0), at(0, .infinity)] {
      #expect(tree.node(at: point) == nil, "\(point)")
    }
    let leaf = tree.node(id: "leaf")!
    leaf.removeFromParent()
    #expect(tree.node(at: at(0, 0)) == nil)
  }

  @Test(.stress, .timeLimit(.minutes(1)))
  func aMillionSiblingsAreTestedInOneLinearWalk() {
    let tree = NodeTree("root") {
      for index in 0..<1_000_000 { Node(index == 0 ? "first" : nil).frame(frame(Double(index), 0, 1, 1)) }
    }
    // The first sibling is the last one tried: every other frame is tested once.
    #expect(tree.node(at: at(0, 0))?.id == "first")
    #expect(tree.node(at: at(999_999, 0)) === tree.root.children.last)
    #expect(tree.node(at: at(-1, 0)) == nil)
  }

  @Test func aZIndexDeclaredLaterOrOnAMovedChildStillSortsTheSiblings() throws {
    let tree = NodeTree("root") {
      Node("a").frame(frame(0, 0, 2, 2))
      Node("b").frame(frame(0, 0, 2, 2))
    }
    #expect(tree.node(at: at(0, 0))?.id == "b")
    tree.node(id: "a")?.frame(frame(0, 0, 2, 2), zIndex: 2)
    #expect(tree.node(at: at(0, 0))?.id == "a")
    let other = NodeTree("other") { Node("c").frame(frame(0, 0, 2, 2)) }
    let d = Node("d").frame(frame(0, 0, 2, 2), zIndex: 5)
    try other.root.insertChild(d, at: 0)
    #expect(other.node(at: at(0, 0))?.id == "d")
  }
}

@Suite struct PointerRoutingTests {
  /// A window with a toolbar of two buttons, a list of rows and an editor, all framed.
  fileprivate func window(_ log: PointerLog) -> NodeTree {
    let tree = NodeTree("window") {
      Node("toolbar") {
        Node("bold").frame(frame(0, 0, 4, 1)).focusable(focusOnPress: false)
        Node("save").frame(frame(5, 0, 4, 1))
      }
      .frame(frame(0, 0, 80, 1))
      Node("list") {
        for row in 0..<3 { Node("row\(row)").frame(frame(0, Double(1 + row), 20, 1)) }
      }
      .frame(frame(0, 1, 20, 10)).focusable()
      Node("editor").frame(frame(20, 1, 60, 20)).focusable()
    }
    .self
    tree.root.walkSubtree { log.watch($0) }
    return tree
  }

  @Test func aPressAndAReleaseOnOneNodeAreAClickButADragElsewhereIsNot() throws {
    let log = PointerLog()
    let tree = window(log)
    tree.handlePointer(PointerInput(.move, at: at(1, 2)))
    _ = log.take()
    let press = tree.handlePointer(PointerInput(.press(.primary), at: at(1, 2)))
    #expect(press.target?.id == "row1")
    let release = tree.handlePointer(PointerInput(.release(.primary), at: at(3, 2)))
    #expect(release.click?.isHandled == false)
    #expect(release.click != nil)
    #expect(
      log.take() == [
        "row1: Press", "list: Press", "window: Press", "row1: Release", "list: Release", "window: Release",
        "row1: Click", "list: Click", "window: Click",
      ])
    // Pressed on one row, released on another: no click.
    tree.handlePointer(PointerInput(.press(.primary), at: at(1, 2)))
    let drag = tree.handlePointer(PointerInput(.release(.primary), at: at(1, 3)))
    #expect(drag.target?.id == "row2")
    #expect(drag.click == nil)
  }

  @Test func clicksOnOneNodeCloseInTimeCountUp() {
    let log = PointerLog()
    let tree = window(log)
    var counts: [Int] = []
    tree.node(id: "row0")?.handleAction(PointerClick.self) { click in counts.append(click.clickCount) }
    let start = ContinuousClock.now
    func click(after milliseconds: Int, at location: PointerLocation = at(1, 1)) {
      let time = start + .milliseconds(milliseconds)
      tree.handlePointer(PointerInput(.press(.primary), at: location, time: time))
      tree.handlePointer(PointerInput(.release(.primary), at: location, time: time))
    }
    click(after: 0)
    click(after: 200)
    click(after: 400)
    click(after: 2_000)
    click(after: 2_100, at: at(1, 2))  // another row
    click(after: 2_200)
    #expect(counts == [1, 2, 3, 1, 1])
    // A shorter interval applies to the next press, the last click made before it included.
    tree.multiClickInterval = .milliseconds(50)
    click(after: 2_300)
    #expect(counts == [1, 2, 3, 1, 1, 1])
    tree.multiClickInterval = .milliseconds(500)
    click(after: 2_400)
    #expect(counts == [1, 2, 3, 1, 1, 1, 2])
  }

  @Test func pointerActionsPrintTheirModifiersAsKeys() {
    let click = PointerClick(location: at(1, 2), button: .primary, modifiers: [.control, .shift])
    #expect("\(click)".contains("modifiers: [ctrl, shift]"))
    #expect("\(KeyModifiers())" == "[]")
  }

  @Test func eventsWithoutATimeAreTimedWhenRoutedAndKeepTheTimeTheyAreGiven() {
    let log = PointerLog()
    let tree = window(log)
    var counts: [Int] = []
    tree.node(id: "row0")?.handleAction(PointerClick.self) { click in counts.append(click.clickCount) }
    // Two clicks in a row, as fast as the test runs: well within the interval.
    for _ in 0..<2 {
      tree.handlePointer(PointerInput(.press(.primary), at: at(1, 1)))
      tree.handlePointer(PointerInput(.release(.primary), at: at(1, 1)))
    }
    #expect(counts == [1, 2])
    let time = ContinuousClock.now + .seconds(3)
    var input = PointerInput(.move, at: at(1, 1))
    #expect(input.time == nil)
    input.time = time
    #expect(input.time == time)
    #expect(PointerInput(.move, at: at(1, 1), time: time) == input)
  }

  @Test func hoverTellsOnlyTheNodesWhoseHoverChangedAndOverAndOutBubble() {
    let log = PointerLog()
    let tree = window(log)
    tree.handlePointer(PointerInput(.move, at: at(1, 1)))
    #expect(
      log.take() == [
        "row0: Over", "list: Over", "window: Over", "window: Enter", "list: Enter", "row0: Enter",
        "row0: Move",
        "list: Move", "window: Move",
      ])
    #expect(tree.node(id: "row0")?.isHovered == true)
    #expect(tree.node(id: "list")?.isHovered == true)
    #expect(tree.node(id: "editor")?.isHovered == false)
    // To the next row: the list and the window stay hovered and hear only what bubbles.
    tree.handlePointer(PointerInput(.move, at: at(1, 2)))
    #expect(
      log.take() == [
        "row0: Out", "list: Out", "window: Out", "row0: Leave", "row1: Over", "list: Over", "window: Over",
        "row1: Enter", "row1: Move", "list: Move", "window: Move",
      ])
    // Within the row: a move and nothing else.
    tree.handlePointer(PointerInput(.move, at: at(2, 2)))
    #expect(log.take() == ["row1: Move", "list: Move", "window: Move"])
    // Out of every frame: everything leaves, innermost first.
    tree.handlePointer(PointerInput(.move, at: at(90, 90)))
    #expect(
      log.take() == ["row1: Out", "list: Out", "window: Out", "row1: Leave", "list: Leave", "window: Leave"])
    #expect(tree.hoveredNode == nil)
    #expect(tree.root.isHovered == false)
  }

  @Test func aPressFocusesTheNearestFocusableNodeFirstUnlessItOptsOut() throws {
    let log = PointerLog()
    let tree = window(log)
    var reasons: [String] = []
    tree.onFocusChange = { change in reasons.append("\(change.new?.id ?? "-") \(change.reason)") }
    var focusSeenByPress: String?
    // The handlers capture the tree weakly: the tree keeps them, and a strong capture would leak it.
    tree.node(id: "row2")?.handleAction(PointerPress.self) { [weak tree] _ in
      focusSeenByPress = tree?.focusedNode?.id
    }
    // A row cannot take focus; the list above it can, and has it before the press arrives.
    let press = tree.handlePointer(PointerInput(.press(.primary), at: at(1, 3)))
    guard case .moved(let node) = press.focus else {
      Issue.record("the press focused the list: \(press.focus)")
      return
    }
    #expect(node.id == "list")
    #expect(focusSeenByPress == "list")
    tree.handlePointer(PointerInput(.release(.primary), at: at(1, 3)))
    // The bold button opts out: the list keeps the focus.
    let bold = tree.handlePointer(PointerInput(.press(.primary), at: at(1, 0)))
    guard case .unchanged = bold.focus else {
      Issue.record("bold declares focusOnPress: false: \(bold.focus)")
      return
    }
    tree.handlePointer(PointerInput(.release(.primary), at: at(1, 0)))
    // Nothing focusable under the save button: the focus stays too.
    tree.handlePointer(PointerInput(.press(.primary), at: at(6, 0)))
    tree.handlePointer(PointerInput(.release(.primary), at: at(6, 0)))
    #expect(tree.focusedNode?.id == "list")
    #expect(reasons == ["list pointer"])
  }

  @Test func aPressOutsideTheTrapThatHoldsTheFocusGoesNowhere() throws {
    let tree = NodeTree("window") {
      Node("editor").frame(frame(0, 0, 10, 10)).focusable()
      Node("dialog") {
        Node("ok").frame(frame(20, 0, 4, 1)).focusable()
        Node("label").frame(frame(20, 1, 4, 1))
      }
      .focusScope(.trap)
    }
    .self
    tree.root.focusable()
    try tree.focus(id: "ok")
    var pressed = false
    tree.node(id: "editor")?.handleAction(PointerPress.self) { _ in pressed = true }
    let press = tree.handlePointer(PointerInput(.press(.primary), at: at(1, 1)))
    #expect(press.target == nil)
    #expect(press.blockedBy?.id == "dialog")
    #expect(!pressed)
    #expect(tree.focusedNode?.id == "ok")
    tree.handlePointer(PointerInput(.release(.primary), at: at(1, 1)))
    // Inside the dialog, a press whose nearest focusable node is outside it is refused.
    let label = tree.handlePointer(PointerInput(.press(.primary), at: at(21, 1)))
    guard case .refused(let node, let trap) = label.focus else {
      Issue.record("expected a refusal: \(label.focus)")
      return
    }
    #expect(label.target?.id == "label")
    #expect(node === tree.root)
    #expect(trap.id == "dialog")
    #expect(tree.focusedNode?.id == "ok")
  }

  @Test func aCaptureTakesEffectAtTheNextEventHoldsTheHoverAndEndsWithTheLastButton() throws {
    let log = PointerLog()
    let tree = window(log)
    let slider = try #require(tree.node(id: "row0"))
    #expect(throws: ViewTreeError.pointerCaptureWithoutButton(node: "window/list/row0")) {
      try tree.setPointerCapture(slider)
    }
    tree.handlePointer(PointerInput(.press(.primary), at: at(1, 1)))
    try tree.setPointerCapture(slider)
    // Pending until the next event.
    #expect(tree.pointerCapture == nil)
    _ = log.take()
    let moved = tree.handlePointer(PointerInput(.move, at: at(30, 5)))
    #expect(tree.pointerCapture === slider)
    #expect(slider.hasPointerCapture)
    #expect(moved.target === slider)
    #expect(
      log.take() == [
        "row0: GotPointerCapture", "list: GotPointerCapture", "window: GotPointerCapture", "row0: Move",
        "list: Move", "window: Move",
      ])
    #expect(tree.hoveredNode === slider)
    #expect(tree.node(id: "editor")?.isHovered == false)
    // Released over the editor: the release goes to the slider, the capture ends, and the
    // pointer is over the editor again.
    let released = tree.handlePointer(PointerInput(.release(.primary), at: at(30, 5)))
    #expect(released.target === slider)
    #expect(released.click == nil)
    #expect(tree.pointerCapture == nil)
    #expect(tree.hoveredNode?.id == "editor")
    let entries = log.take()
    #expect(entries.first == "row0: Release")
    #expect(entries.contains("row0: LostPointerCapture"))
    #expect(entries.contains("editor: Enter"))
  }

  @Test func aCapturingNodeThatLeavesTheTreeMidDragLosesTheCapture() throws {
    let log = PointerLog()
    let tree = window(log)
    let row = try #require(tree.node(id: "row1"))
    tree.handlePointer(PointerInput(.press(.primary), at: at(1, 2)))
    try tree.setPointerCapture(row)
    tree.handlePointer(PointerInput(.move, at: at(1, 3)))
    #expect(tree.pointerCapture === row)
    row.removeFromParent()
    #expect(tree.pointerCapture == nil)
    #expect(row.isHovered == false)
    // The hover is run again where the pointer is: over the row below, which did not move.
    #expect(tree.hoveredNode?.id == "row2")
    _ = log.take()
    let moved = tree.handlePointer(PointerInput(.move, at: at(1, 3)))
    #expect(moved.target?.id == "row2")
    // The root hears that the capture was lost, first.
    #expect(log.take().first == "window: LostPointerCapture")
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func theWheelGoesToTheNearestScrollableNodeThatCanStillScroll() {
    var logOffset = 0
    var pageOffset = 0
    let tree = NodeTree("page") {
      Node("log") { Node("line").frame(frame(0, 0, 10, 1)) }
        .frame(frame(0, 0, 10, 5))
        .scrollable(.vertical) { direction in direction == .down ? logOffset < 2 : logOffset > 0 }
        .handleAction(PointerWheel.self) { wheel in logOffset += Int(wheel.deltaY) }
    }
    tree.root.frame(frame(0, 0, 80, 24)).scrollable { _ in true }
      .handleAction(PointerWheel.self) { wheel in pageOffset += Int(wheel.deltaY) }
    for _ in 0..<4 { tree.handlePointer(PointerInput(.wheel(deltaX: 0, deltaY: 1), at: at(0, 0))) }
    // The log scrolls to its end, then the page takes the wheel.
    #expect(logOffset == 2)
    #expect(pageOffset == 2)
    let sideways = tree.handlePointer(PointerInput(.wheel(deltaX: 1, deltaY: 0), at: at(0, 0)))
    // Nothing scrolls sideways: the wheel goes to the node under the pointer.
    #expect(sideways.target?.id == "line")
  }

  @Test func aHoveredNodeMovedWithinTheTreeStaysHoveredUnderItsNewParent() throws {
    let log = PointerLog()
    let tree = window(log)
    let row = try #require(tree.node(id: "row1"))
    tree.handlePointer(PointerInput(.move, at: at(1, 2)))
    #expect(tree.hoveredNode === row)
    let list = try #require(tree.node(id: "list"))
    let section = Node("section")
    try tree.root.addChild(section)
    try section.addChild(row)
    // The flags follow the node, whose frame is still under the pointer: the list it left is
    // no longer on the hover path, the section it joined is, and nobody hears of it.
    _ = log.take()
    #expect(tree.hoveredNode === row)
    #expect(section.isHovered && row.isHovered)
    #expect(list.isHovered == false)
    #expect(log.take().isEmpty)
    #expect(tree.checkInvariants().isEmpty)
    // Moved out of the tree, it leaves the pointer over what is under it now.
    let elsewhere = Node("elsewhere")
    try elsewhere.addChild(row)
    #expect(tree.hoveredNode === list)
    #expect(row.isHovered == false && elsewhere.isHovered == false)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aTreeWhoseRootIsAdoptedLeavesThePointerToTheTreeAbove() throws {
    let log = PointerLog()
    let inner = window(log)
    inner.handlePointer(PointerInput(.press(.primary), at: at(1, 2)))
    try inner.setPointerCapture(try #require(inner.node(id: "row1")))
    inner.handlePointer(PointerInput(.move, at: at(1, 2)))
    #expect(inner.pointerCapture?.id == "row1")
    let outer = NodeTree("screen") {}
    outer.root.frame(frame(0, 0, 80, 24))
    try outer.root.addChild(inner.root)
    // The inner tree forgets its hover and capture, and routes nothing while it is a child.
    #expect(inner.hoveredNode == nil && inner.pointerCapture == nil)
    #expect(inner.root.isHovered == false)
    let refused = inner.handlePointer(PointerInput(.move, at: at(1, 2)))
    #expect(refused.target == nil)
    guard case .notDispatched(.notInTree) = refused.outcome else {
      Issue.record("expected notInTree, got \(String(describing: refused.outcome))")
      return
    }
    // The outer tree's hover path runs through the inner nodes, and stops at its own root.
    #expect(outer.handlePointer(PointerInput(.move, at: at(1, 2))).target?.id == "row1")
    #expect(inner.root.isHovered && outer.root.isHovered)
    #expect(outer.checkInvariants().isEmpty)
    #expect(inner.checkInvariants().isEmpty)
    // Removed again, the inner tree routes its own pointer; the outer one forgot the inner nodes.
    inner.root.removeFromParent()
    #expect(outer.hoveredNode === outer.root)
    #expect(inner.handlePointer(PointerInput(.move, at: at(1, 3))).target?.id == "row2")
    #expect(outer.checkInvariants().isEmpty)
    #expect(inner.checkInvariants().isEmpty)
  }

  @Test func hostileSequencesLeaveTheTreeConsistent() throws {
    let log = PointerLog()
    let tree = window(log)
    // A release with no press, a press with no release followed by another press.
    #expect(tree.handlePointer(PointerInput(.release(.secondary), at: at(1, 1))).click == nil)
    tree.handlePointer(PointerInput(.press(.primary), at: at(1, 1)))
    tree.handlePointer(PointerInput(.press(.primary), at: at(1, 2)))
    #expect(tree.handlePointer(PointerInput(.release(.primary), at: at(1, 2))).click != nil)
    // A press handler that removes its own node and moves the focus.
    let row = try #require(tree.node(id: "row2"))
    row.handleAction(PointerPress.self) { [weak row, weak tree] _ in
      row?.removeFromParent()
      try? tree?.focus(id: "editor")
    }
    let press = tree.handlePointer(PointerInput(.press(.primary), at: at(1, 3)))
    #expect(press.outcome?.isHandled == true)
    #expect(tree.focusedNode?.id == "editor")
    #expect(tree.handlePointer(PointerInput(.release(.primary), at: at(1, 3))).click == nil)
    // A press handler that declares the tree anew.
    tree.node(id: "row0")?.handleAction(PointerPress.self) { [weak tree] _ in
      tree?.update(to: NodeDeclaration("window") { NodeDeclaration("editor").frame(frame(0, 0, 80, 24)) })
    }
    tree.handlePointer(PointerInput(.press(.primary), at: at(1, 1)))
    #expect(tree.handlePointer(PointerInput(.release(.primary), at: at(1, 1))).target?.id == "editor")
    #expect(tree.checkInvariants().isEmpty)
  }
}
