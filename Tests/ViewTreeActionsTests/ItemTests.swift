import Actions
import Testing
import ViewTree
import ViewTreeActions

@Suite struct ItemTests {
  @Test func validatingAMenuFollowsTheFocus() throws {
    let editor = Editor()
    let edit = editor.node("edit")

    try editor.tree.focus(id: "editor")
    let fromEditor = editor.tree.validateItems(in: edit)
    #expect(fromEditor.map(\.node?.id) == ["undo", "redo", "delete", "red"])
    #expect(fromEditor.map(\.validation.isEnabled) == [false, false, false, true])

    try editor.tree.focus(id: "list")
    let fromList = editor.tree.validateItems(in: edit)
    #expect(fromList.map(\.validation.isEnabled) == [false, false, true, true])

    let everything = editor.tree.validateItems()
    #expect(everything.map(\.identifier).first == "menu.Save")
    #expect(everything.first?.validation.isEnabled == false)
  }

  /// Check items and radio sets need no mechanism of their own: a radio set is one action with an
  /// argument, one identifier per member, each validating on when its argument is the current
  /// value (the pattern of "Connecting an action manager").
  @Test func checkItemsAndRadioSetsAreStatesOfIdentifiers() throws {
    final class View {
      var zoom = 100
      var wraps = false
    }
    struct NoLevel: Error {}
    struct ZoomAction: ManagedAction {
      let view: View
      func validate(context: ActionContext) -> Validation {
        guard case .int(let level)? = context.identifier["level"] else { return .unavailable }
        return Validation(title: "\(level)%", state: level == view.zoom ? .on : .off)
      }
      func perform(context: ActionContext) throws {
        guard case .int(let level)? = context.identifier["level"] else { throw NoLevel() }
        view.zoom = level
      }
    }
    struct ToggleWrapAction: ManagedAction {
      let view: View
      func validate(context: ActionContext) -> Validation { Validation(state: view.wraps ? .on : .off) }
      func perform(context: ActionContext) throws { view.wraps.toggle() }
    }
    let view = View()
    let manager = ActionManager()
    try manager.register([ZoomAction(view: view), ToggleWrapAction(view: view)])
    let tree = NodeTree("root") {
      Node("menu") {
        Node("wrap").actionItem("ToggleWrap")
        Node("zoom100").actionItem("Zoom(level: 100)")
        Node("zoom150").actionItem("Zoom(level: 150)")
        Node("zoom200").actionItem("Zoom(level: 200)")
      }
    }
    tree.root.actionManager(manager)
    func states() -> [Validation.State?] { tree.validateItems().map(\.validation.state) }
    #expect(states() == [.off, .on, .off, .off])
    #expect(tree.validateItems().map(\.title) == ["ToggleWrap", "100%", "150%", "200%"])

    #expect(try tree.activate(tree.node(id: "zoom150")!).isPerformed)
    #expect(view.zoom == 150)
    #expect(states() == [.off, .off, .on, .off])
    #expect(try tree.activate(tree.node(id: "wrap")!).isPerformed)
    #expect(states() == [.on, .off, .on, .off])

    // The members of a set are the items whose identifiers share a name: exactly one is on.
    let sets = Dictionary(grouping: tree.validateItems()) {
      try! ActionIdentifier(parsing: $0.identifier).name
    }
    #expect(sets["Zoom"]?.filter { $0.validation.state == .on }.map(\.node?.id) == ["zoom150"])
    // An identifier without the argument is no member: it validates as unavailable.
    #expect(tree.root.validate("Zoom") == .unavailable)
  }

  @Test func eachIdentifiersFirstItemIsTheSenderOfItsValidationEvenWhenRequestsAreKept() throws {
    struct NameSender: ManagedAction {
      func validate(context: ActionContext) -> Validation {
        Validation(title: (context.sender as? Node)?.id ?? "?")
      }
      func perform(context: ActionContext) throws {}
    }
    let manager = ActionManager()
    try manager.register(NameSender())
    let tree = NodeTree("root") {
      Node("menu") {
        Node("a").actionItem("NameSender(n: 1)")
        Node("b").actionItem("NameSender(n: 2)")
        Node("c").actionItem("NameSender(n: 3)")
        // One identifier is one entry: validated once, its first item the sender.
        Node("d").actionItem("NameSender(n: 4)")
        Node("e").actionItem("NameSender(n: 4)")
      }
    }
    tree.root.actionManager(manager)
    #expect(tree.validateItems().map(\.validation.title) == ["a", "b", "c", "d", "d"])
    #expect(tree.validateItems().map(\.node?.id) == ["a", "b", "c", "d", "e"])
    // A modifier that keeps every request it sees: a kept request keeps its own sender.
    var kept: [any ManagedActionRequest] = []
    tree.root.captureAction((any ManagedActionRequest).self) { request in
      kept.append(request)
      return .unhandled
    }
    #expect(tree.validateItems().map(\.validation.title) == ["a", "b", "c", "d", "d"])
    #expect(kept.map { ($0.sender as? Node)?.id } == ["a", "b", "c", "d"])
    // The kept requests hold the tree's nodes, which hold the modifier that keeps them.
    kept.removeAll()
  }

  @Test func itemsFollowRegistrationChangesAndTheManagerThatAnswers() throws {
    let editor = Editor()
    let edit = editor.node("edit")
    try editor.tree.focus(id: "list")
    #expect(editor.tree.validateItems(in: edit).map(\.validation.isEnabled) == [false, false, true, true])
    try editor.manager.unregister("DeleteRow")
    #expect(editor.tree.validateItems(in: edit).map(\.validation.isEnabled) == [false, false, false, true])
    try editor.manager.register(DeleteRowAction(model: editor.model))
    #expect(editor.tree.validateItems(in: edit).map(\.validation.isEnabled) == [false, false, true, true])

    // A nearer manager that knows only SetColor now answers for the same items.
    let nearer = ActionManager()
    try nearer.register(SetColorAction(model: editor.model))
    editor.node("sidebar").actionManager(nearer)
    #expect(editor.tree.validateItems(in: edit).map(\.validation.isEnabled) == [false, false, false, true])
    let red = try #require(editor.tree.validateItems(in: edit).last)
    #expect(red.identifier == #"color.SetColor("color": "red")"#)
    // From the editor, the root's manager answers again: it knows Save, which the nearer one does
    // not.
    try editor.tree.focus(id: "editor")
    #expect(editor.tree.validateItems().first?.validation.isEnabled == true)
    try editor.tree.focus(id: "list")
    #expect(editor.tree.validateItems().first?.validation.isEnabled == false)
  }

  @Test func activatingAnItemPerformsItsIdentifierWithTheItemAsSender() throws {
    let editor = Editor()
    let red = editor.node("red")
    let result = try editor.tree.activate(red)
    #expect(result.isPerformed)
    #expect(editor.model.colors == ["red"])
    #expect(editor.model.senders.last == red.path)
    #expect(throws: ViewTreeActionsError.notAnItem(node: "window/editor")) {
      try editor.tree.activate(editor.node("editor"))
    }
  }

  @Test func undoWorksThroughTheTreeWithTitlesFromAnyFocus() throws {
    let editor = Editor()
    try editor.tree.focus(id: "list")
    #expect(try editor.tree.activate(editor.node("delete")).isPerformed)
    #expect(editor.model.rows == ["alpha", "gamma"])

    try editor.tree.focus(id: "editor")
    let undo = editor.tree.validateItems(in: editor.node("edit")).first { $0.node?.id == "undo" }
    #expect(undo?.validation == Validation(title: "Undo Delete Row"))
    #expect(try editor.tree.activate(editor.node("undo")).isPerformed)
    #expect(editor.model.rows == ["alpha", "beta", "gamma"])
    #expect(editor.tree.firstResponder.validate("Edit.Redo") == Validation(title: "Redo Delete Row"))
    #expect(editor.tree.firstResponder.validate("Edit.Undo").isEnabled == false)
  }
}
