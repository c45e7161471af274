import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> NodeFrame {
  NodeFrame(x: x, y: y, width: width, height: height)
}

private func at(_ x: Double, _ y: Double) -> PointerLocation { PointerLocation(x: x, y: y) }

/// A click on an action item activates it, as Enter does, unless a handler takes the click.
@Suite struct ClickActivationTests {
  struct Named: ManagedAction {
    let log: Log
    let name: String
    func perform(context: ActionContext) throws {
      let sender = (context.sender as? Node)?.id ?? "?"
      log("\(name) from \(sender)")
    }
  }

  func makeTree(_ log: Log) throws -> NodeTree {
    let manager = ActionManager()
    try manager.register(Named(log: log, name: "Save"), as: "Save")
    try manager.register(Named(log: log, name: "Open"), as: "Open")
    let tree = NodeTree("window") {
      Node("toolbar") {
        Node("save") { Node("label").frame(frame(0, 0, 2, 1)) }
          .actionItem("menu.Save").frame(frame(0, 0, 4, 1)).focusable(focusOnPress: false)
        Node("open").actionItem("Open").frame(frame(5, 0, 4, 1))
          .handleAction(PointerClick.self) { _ in log("the open button handled its click") }
      }
      Node("editor").focusable().frame(frame(0, 1, 20, 5))
    }
    tree.root.actionManager(manager)
    return tree
  }

  func click(_ tree: NodeTree, at location: PointerLocation, _ button: PointerButton = .primary)
    -> PointerResult
  {
    tree.handlePointer(PointerInput(.press(button), at: location))
    return tree.handlePointer(PointerInput(.release(button), at: location))
  }

  @Test func aPrimaryClickOnAnItemPerformsItAsEnterDoes() throws {
    let log = Log()
    let tree = try makeTree(log)
    var unhandled: [String] = []
    tree.onUnhandled = { action, _ in unhandled.append("\(type(of: action))") }
    try tree.focus(id: "editor")
    let result = click(tree, at: at(3, 0))
    #expect(result.activation?.isPerformed == true)
    #expect(log.entries == ["Save from save"])
    // The click itself went unhandled, and the item took it: no report.
    guard case .unhandled? = result.click else {
      Issue.record("expected the click unhandled: \(String(describing: result.click))")
      return
    }
    #expect(unhandled.isEmpty)
    // Performed from the focus, which the item did not take.
    #expect(tree.focusedNode?.id == "editor")
  }

  @Test func aClickOnANodeInsideAnItemActivatesTheItem() throws {
    let log = Log()
    let tree = try makeTree(log)
    _ = click(tree, at: at(1, 0))
    #expect(log.entries == ["Save from save"])
  }

  @Test func aHandledClickAnotherButtonOrNoItemActivatesNothing() throws {
    let log = Log()
    let tree = try makeTree(log)
    var unhandled: [String] = []
    tree.onUnhandled = { action, _ in unhandled.append("\(type(of: action))") }
    #expect(click(tree, at: at(6, 0)).activation == nil)
    #expect(log.entries == ["the open button handled its click"])
    #expect(click(tree, at: at(3, 0), .secondary).activation == nil)
    #expect(click(tree, at: at(3, 3)).activation == nil)
    #expect(log.entries == ["the open button handled its click"])
    // A click that activates nothing is reported as before.
    #expect(unhandled.contains("PointerClick"))
  }

  @Test func handlersSeeTheNodeAnActionWasDispatchedAt() throws {
    var clicked: [String] = []
    var entered: [String] = []
    let tree = NodeTree("list") {
      for row in 0..<3 { Node("row\(row)").frame(frame(0, Double(row), 10, 1)) }
    }
    tree.root.frame(frame(0, 0, 10, 3))
      .handleAction(PointerClick.self) { _, row in clicked.append(row.id ?? "?") }
      .onAction(PointerOver.self) { _, row in entered.append(row.id ?? "?") }
    _ = click(tree, at: at(1, 2))
    tree.handlePointer(PointerInput(.move, at: at(1, 0)))
    #expect(clicked == ["row2"])
    #expect(entered == ["row2", "row0"])
  }
}
