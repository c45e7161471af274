import TestSupport
import Testing
@_spi(Invariants) import ViewTree

/// The focus rules "Moving focus" states, each on the case that broke it.
@Suite struct FocusRepairTests {
  /// A chain `depth` nodes deep under `top`, returned from the top down.
  private func chain(under top: Node, depth: Int) throws -> [Node] {
    var nodes: [Node] = []
    nodes.reserveCapacity(depth)
    var bottom = top
    for _ in 0..<depth {
      let child = Node()
      try bottom.addChild(child)
      nodes.append(child)
      bottom = child
    }
    return nodes
  }

  @Test(.stress, .timeLimit(.minutes(1)))
  func removingAMillionDeepChainThatHoldsTheFocusIsLinear() throws {
    let tree = NodeTree("root") { Node("list").focusable() }
    let top = Node("top")
    try tree.root.addChild(top)
    let nodes = try chain(under: top, depth: 1_000_000)
    nodes[500_000].focusScope(.trap)
    nodes[999_999].focusable()
    try tree.focus(id: "list")
    try tree.focus(nodes[999_999])
    var changes: [String] = []
    tree.onFocusChange = { change in changes.append("\(change.new?.id ?? "-") \(change.reason)") }
    // The trap in the middle leaves with the focus: focus goes back to the node that opened it.
    #expect(top.removeFromParent())
    #expect(changes == ["list restore"])
    // Nothing focusable above the cut: the same removal repairs to none.
    try tree.root.addChild(top)
    tree.onFocusChange = nil
    try tree.focus(nodes[999_999])
    nodes[500_000].focusScope(.group)
    tree.onFocusChange = { change in changes.append("\(change.new?.id ?? "-") \(change.reason)") }
    #expect(top.removeFromParent())
    #expect(changes == ["list restore", "- repair"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func repairLooksUpFromTheCutPastWhatIsBlocked() throws {
    let tree = NodeTree("root") {
      Node("outer") {
        Node("panel") {
          Node("inner") { Node("leaf").focusable() }.focusable()
        }
        .focusable()
      }
      .focusable()
    }
    let panel = try #require(tree.node(id: "panel"))
    try tree.focus(id: "leaf")
    // The focused leaf keeps focus until it leaves; then `inner` is blocked by `panel`, which
    // itself is not.
    panel.descendantsFocusable(false)
    tree.node(id: "leaf")?.removeFromParent()
    #expect(tree.focusedNode?.id == "panel")
    // With the filter refusing `panel`, the next one up.
    panel.descendantsFocusable(true)
    let leaf = Node("leaf").focusable()
    try tree.node(id: "inner")?.addChild(leaf)
    try tree.focus(leaf)
    panel.descendantsFocusable(false)
    tree.focusFilter = { $0.id != "panel" }
    leaf.removeFromParent()
    #expect(tree.focusedNode?.id == "outer")
  }

  @Test func nestedTrapsEachGiveFocusBackToTheirOwnOpener() throws {
    let tree = NodeTree("root") {
      Node("list").focusable()
      Node("outer") {
        Node("o1").focusable()
        Node("inner") { Node("i1").focusable() }.focusScope(.trap)
      }
      .focusScope(.trap)
    }
    var changes: [String] = []
    tree.onFocusChange = { change in changes.append("\(change.new?.id ?? "-") \(change.reason)") }
    try tree.focus(id: "list")
    try tree.focus(id: "outer")  // o1; opener: list
    try tree.focus(id: "inner")  // i1; opener: o1
    tree.node(id: "inner")!.removeFromParent()
    #expect(tree.focusedNode?.id == "o1")
    tree.node(id: "outer")!.removeFromParent()
    #expect(tree.focusedNode?.id == "list")
    #expect(
      changes == [
        "list programmatic", "o1 programmatic", "i1 programmatic", "o1 restore", "list restore",
      ])
  }

  @Test func changesMadeInsideOnFocusChangeAreReportedAfterItReturnsInOrder() throws {
    let tree = NodeTree("root") {
      Node("a").focusable()
      Node("b").focusable()
      Node("box") { Node("c").focusable() }.focusable()
    }
    var depth = 0
    var deepest = 0
    var log: [String] = []
    // Weakly: the tree keeps its callback.
    tree.onFocusChange = { [weak tree] change in
      guard let tree else { return }
      depth += 1
      defer { depth -= 1 }
      deepest = max(deepest, depth)
      log.append("\(change.old?.id ?? "-") -> \(change.new?.id ?? "-") \(change.reason)")
      switch change.new?.id {
      // A focus made inside the callback, and one made inside the callback that reports it.
      case "a": try? tree.focus(id: "b")
      case "b": try? tree.focus(id: "c")
      // A removal made inside the callback: its repair is reported after it returns.
      case "c": tree.node(id: "c")?.removeFromParent()
      default: break
      }
    }
    try tree.focus(id: "a")
    #expect(deepest == 1)
    #expect(
      log == [
        "- -> a programmatic", "a -> b programmatic", "b -> c programmatic", "c -> box repair",
      ])
    #expect(tree.focusedNode?.id == "box")
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aRemovalInAnAdoptedTreeRepairsOnlyOnceEveryTreeAboveHasAdvanced() throws {
    // The inner tree's callback dispatches in the outer tree: by then the outer tree knows the
    // node left (its version advanced), so the dispatch does not reach the removed node.
    let inner = NodeTree("inner") { Node("field").focusable() }
    let outer = NodeTree("outer") { Node("slot") }
    try outer.node(id: "slot")?.addChild(inner.root)
    try inner.focus(id: "field")
    var reached: [String] = []
    let field = try #require(inner.node(id: "field"))
    field.handleAction(Ping.self) { _ in reached.append("field") }
    var outcome: ActionOutcome?
    inner.onFocusChange = { _ in outcome = field.trigger(Ping(count: 1)) }
    field.removeFromParent()
    #expect(reached.isEmpty)
    guard case .notDispatched(.notInTree)? = outcome else {
      Issue.record("the removed node dispatched: \(String(describing: outcome))")
      return
    }
  }
}

@Suite struct NodeFrameTests {
  @Test func aFrameThatIsNotFiniteNeverWinsADirectionMove() throws {
    let tree = NodeTree("root") {
      Node("a").focusable().frame(NodeFrame(x: 0, y: 0, width: 4, height: 1))
      Node("n").focusable().frame(NodeFrame(x: 0, y: 5, width: .nan, height: 1))
      Node("inf").focusable().frame(NodeFrame(x: 0, y: 7, width: 4, height: .infinity))
      Node("from").focusable().frame(NodeFrame(x: 0, y: 10, width: 4, height: 1))
    }
    try tree.focus(id: "from")
    #expect(tree.moveFocus(.up).movedTo?.id == "a")
    // A node whose own frame is not finite moves as if it had none: up is Shift-Tab.
    try tree.focus(id: "n")
    #expect(tree.moveFocus(.up).movedTo?.id == "a")
    try tree.focus(id: "n")
    #expect(tree.moveFocus(.down).movedTo?.id == "inf")
    #expect(!NodeFrame(x: .nan, y: 0, width: 1, height: 1).isFinite)
    #expect(NodeFrame(x: 0, y: 0, width: -1, height: 0).isFinite)
  }
}

@Suite struct AutofocusTests {
  func dialog(open: Bool) -> NodeDeclaration {
    NodeDeclaration("window") {
      NodeDeclaration("list").focusable()
      if open {
        NodeDeclaration("confirm") {
          NodeDeclaration("ok").focusable()
          NodeDeclaration("cancel").focusable()
        }
        .focusScope(.trap, defaultFocus: "cancel", autofocus: true)
      }
    }
  }

  @Test func aDialogThatAppearsTakesFocusAtItsDefaultAndGivesItBackWhenItGoes() throws {
    let tree = NodeTree(declaring: dialog(open: false))
    try tree.focus(id: "list")
    var changes: [String] = []
    tree.onFocusChange = { change in changes.append("\(change.new?.id ?? "-") \(change.reason)") }
    tree.update(to: dialog(open: true))
    #expect(tree.focusedNode?.id == "cancel")
    // Declared again, the open dialog does not take focus again.
    try tree.focus(id: "ok")
    tree.update(to: dialog(open: true))
    #expect(tree.focusedNode?.id == "ok")
    tree.update(to: dialog(open: false))
    #expect(changes == ["cancel autofocus", "ok programmatic", "list restore"])
  }

  @Test func aScopeAddedOrInATreeMadeWithItTakesFocus() throws {
    let made = NodeTree(declaring: dialog(open: true))
    #expect(made.focusedNode?.id == "cancel")
    let tree = NodeTree("root") { Node("list").focusable() }
    let panel = Node("panel") { Node("field").focusable() }.focusScope(autofocus: true)
    try tree.root.addChild(panel)
    #expect(tree.focusedNode?.id == "field")
    // A scope outside the root's tree asks nothing until it enters one.
    let loose = Node("loose") { Node("x").focusable() }.focusScope(autofocus: true)
    #expect(loose.tree == nil)
    try tree.root.addChild(loose)
    #expect(tree.focusedNode?.id == "x")
  }

  @Test func aScopeWithNothingToFocusWaitsForAnUpdateThatGivesItSome() throws {
    func declare(_ fields: [String]) -> NodeDeclaration {
      NodeDeclaration("root") {
        NodeDeclaration("list").focusable()
        NodeDeclaration("panel") { for id in fields { NodeDeclaration(id).focusable() } }
          .focusScope(autofocus: true)
      }
    }
    let tree = NodeTree(declaring: declare([]))
    #expect(tree.focusedNode == nil)
    tree.update(to: declare(["name"]))
    #expect(tree.focusedNode?.id == "name")
    // Served once: a later update leaves the focus where the user put it.
    try tree.focus(id: "list")
    tree.update(to: declare(["name", "age"]))
    #expect(tree.focusedNode?.id == "list")
  }

  @Test func aScopeOutsideTheTrapThatHasTheFocusReportsAndLeavesItThere() throws {
    let tree = NodeTree("root") {
      Node("dialog") { Node("ok").focusable() }.focusScope(.trap)
    }
    var problems: [String] = []
    tree.onProblem = { problem, node in problems.append("\(node.id ?? "?"): \(problem)") }
    try tree.focus(id: "dialog")
    try tree.root.addChild(Node("panel") { Node("field").focusable() }.focusScope(autofocus: true))
    #expect(tree.focusedNode?.id == "ok")
    #expect(
      problems == [
        "panel: 'root/panel' is outside 'root/dialog', which traps the focus until it leaves the tree"
      ])
  }

  @Test func aNodeThatStartsToDeclareAutofocusInATreeTakesFocus() throws {
    let tree = NodeTree("root") {
      Node("list").focusable()
      Node("panel") { Node("field").focusable() }.focusScope()
    }
    try tree.focus(id: "list")
    tree.node(id: "panel")?.focusScope(autofocus: true)
    // The change is complete once the modifier returns; the next update or insertion serves it.
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("list").focusable()
        NodeDeclaration("panel") { NodeDeclaration("field").focusable() }.focusScope(autofocus: true)
      })
    #expect(tree.focusedNode?.id == "field")
  }
}

@Suite struct HandleBindingPromiseTests {
  @Test func aRootBoundToAHandleRefusesAnUnboundDeclaration() throws {
    let handle = NodeHandle()
    let tree = NodeTree(declaring: NodeDeclaration("root").bound(to: handle))
    var problems: [String] = []
    tree.onProblem = { problem, node in problems.append("\(node.path): \(problem)") }
    tree.update(to: NodeDeclaration("stranger") { NodeDeclaration("intruder") })
    #expect(tree.root.id == "root")
    #expect(tree.root.children.isEmpty)
    #expect(problems.count == 1)
    #expect(tree.root.problems.map { $0 as? ViewTreeError } == [.handleMismatch(node: "root")])
    // The handle's own declaration, and one bound to it, still update it.
    handle.update(to: NodeDeclaration("root") { NodeDeclaration("child") })
    #expect(tree.root.children.map(\.id) == ["child"])
    tree.update(to: NodeDeclaration("root").bound(to: handle))
    #expect(tree.root.children.isEmpty)
  }

  @Test func unchangedKeepsAHandlesNodeWithThatID() throws {
    let form = NodeHandle()
    form.update(to: NodeDeclaration("form") { NodeDeclaration("field") })
    let tree = NodeTree(declaring: NodeDeclaration("root") { NodeDeclaration.slot(form) })
    let node = try #require(form.node)
    tree.update(to: NodeDeclaration("root") { NodeDeclaration.unchanged("form") })
    #expect(tree.root.children.first === node)
    #expect(node.children.map(\.id) == ["field"])
    #expect(tree.root.problems.isEmpty)
    #expect(form.node === node)
  }
}
