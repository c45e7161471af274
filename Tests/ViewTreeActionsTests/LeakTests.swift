import Actions
import Testing
import ViewTree
import ViewTreeActions

/// Trees with managers, bindings, observers, providers and async handlers are freed, with
/// everything they reference, once nothing outside holds them.
@Suite struct LeakTests {
  final class Owner: ActionContextProvider {
    var node: Node?
    func provide(to context: ActionContext) { context[DocumentKey.self] = "owned" }
  }

  struct Ask: Request {
    typealias Result = String
  }

  @Test @MainActor func aFullyEquippedTreeIsFreedWhenDropped() async throws {
    weak var weakTree: NodeTree?
    weak var weakManager: ActionManager?
    weak var weakModel: Model?
    weak var weakOwner: Owner?
    weak var weakEditor: Node?
    do {
      let editor = Editor()
      weakTree = editor.tree
      weakManager = editor.manager
      weakModel = editor.model
      weakEditor = editor.node("editor")
      let owner = Owner()
      weakOwner = owner
      owner.node = editor.node("editor")  // the owner holds its node; the node holds it weakly
      editor.node("editor").provideActionContext(weak: owner)
      let model = editor.model
      editor.manager.addObserver { event in model.saves.append("observed \(event.identifier.name)") }
      editor.tree.root.bindKey("ctrl+s", to: "Save").bindKey("ctrl+k ctrl+s", to: "Save")
      editor.node("editor").focusable()
      editor.node("list").focusable()
      editor.tree.root.respond(to: Ask.self) { _ in model.rows.first ?? "" }
      editor.node("sidebar").handleAction(Open.self) { (_: Open) async throws in
        await Task.yield()
        model.rows.append("opened")
      }
      try editor.tree.focus(id: "editor")
      #expect(await editor.tree.firstResponder.perform("menu.Save").isPerformed)
      #expect(
        try await editor.tree.firstResponder.handleKey(KeyChord(parsing: "ctrl+s")).description.contains(
          "performed"))
      #expect(editor.tree.validateItems().count == 5)
      #expect(try await editor.tree.firstResponder.request(Ask()) == "alpha")
      #expect(await editor.node("list").trigger(Open()).isHandled)
      // A Tab walks the tree from the focus; a key sequence left pending is kept on the root.
      #expect(editor.tree.moveFocus(.next).movedTo != nil)
      guard case .pending = try await editor.tree.firstResponder.handleKey(KeyChord(parsing: "ctrl+k")) else {
        Issue.record("ctrl+k begins a sequence")
        return
      }
      owner.node = nil
    }
    #expect(weakTree == nil)
    #expect(weakManager == nil)
    #expect(weakModel == nil)
    #expect(weakOwner == nil)
    #expect(weakEditor == nil)
  }

  @Test func aRecycledContextDoesNotKeepItsSenderAlive() throws {
    final class Sender {}
    let manager = ActionManager()
    try manager.register(SaveAction(model: Model()))
    weak var weakSender: Sender?
    do {
      let sender = Sender()
      weakSender = sender
      manager.perform("Save", sender: sender) { $0[DocumentKey.self] = "x" }
      _ = manager.validate("Save", sender: sender)
    }
    #expect(weakSender == nil)
  }
}

struct Open: Action {}
