import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

/// Key bindings outside a modal scope that holds the focus do not resolve, but for those marked
/// to pass it.
@Suite struct ModalKeyTests {
  struct Named: ManagedAction {
    let log: Log
    let name: String
    var title: String? { name }
    func perform(context: ActionContext) throws { log(name) }
  }

  func makeTree(_ log: Log) throws -> NodeTree {
    let manager = ActionManager()
    for name in ["Quit", "Delete", "Cancel", "Refresh"] {
      try manager.register(Named(log: log, name: name), as: name)
    }
    let tree = NodeTree("window") {
      Node("list") { Node("row").focusable() }
        .bindKey("d", to: "Delete")
      Node("dialog") {
        Node("cancel").focusable().actionItem("Cancel")
      }
      .focusScope(.trap)
      .bindKey("escape", to: "Cancel")
    }
    tree.root.actionManager(manager)
      .bindKey("ctrl+q", to: "Quit", passesModal: true)
      .bindKey("f5", to: "Refresh")
    return tree
  }

  @Test func onlyBindingsInsideTheModalOrMarkedToPassItResolve() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "row")
    tree.firstResponder.handleKey(try KeyChord(parsing: "f5"))
    #expect(log.entries == ["Refresh"])
    try tree.focus(id: "cancel")
    let focus = tree.firstResponder
    // The root's f5 is outside the dialog: it does not resolve.
    guard case .unbound = focus.handleKey(try KeyChord(parsing: "f5")) else {
      Issue.record("a binding outside the modal resolved")
      return
    }
    // The global quit passes the modal; the dialog's own binding and Enter's default work.
    focus.handleKey(try KeyChord(parsing: "ctrl+q"))
    focus.handleKey(try KeyChord(parsing: "escape"))
    focus.handleKey(KeyChord(.enter))
    #expect(log.entries == ["Refresh", "Quit", "Cancel", "Cancel"])
    // A key pressed at an inert node resolves only what passes the modal.
    let row = try #require(tree.node(id: "row"))
    guard case .unbound = row.handleKey(try KeyChord(parsing: "d")) else {
      Issue.record("a key pressed at an inert node resolved")
      return
    }
  }

  @Test func whatIsShownIsWhatIsReachable() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "cancel")
    let footer = tree.firstResponder.bindingsInEffect(includingShadowed: true).map {
      $0.keys?.description ?? ""
    }
    #expect(footer.contains("ctrl+q"))
    #expect(footer.contains("escape"))
    #expect(!footer.contains("f5"))
    let offered = tree.offeredActions(includingRegistered: false).map(\.identifier)
    #expect(!offered.contains("Refresh"))
    #expect(offered.contains("Quit"))
    #expect(tree.validateItems().map(\.identifier) == ["Cancel"])
  }
}
