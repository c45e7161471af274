import Actions
import Testing
import ViewTree
import ViewTreeActions

@Suite struct BindingsInEffectTests {
  @Test func aFooterListsTheNearestBindingsFirstWithValidationAndShadowing() throws {
    let editor = Editor()
    editor.tree.root.bindKey("ctrl+s", to: "Save").bindKey("del", to: "DeleteRow")
    editor.node("editor").bindKey("ctrl+s", to: "SetColor(color: blue)")
    try editor.tree.focus(id: "editor")
    let bindings = editor.tree.bindingsInEffect()
    #expect(
      bindings.map { "\($0.binding.node.label) \($0.binding.chord)" } == [
        "editor ctrl+s", "window ctrl+s", "window delete",
      ])
    #expect(bindings.map(\.isInEffect) == [true, false, true])
    #expect(bindings[1].shadowedBy?.node.label == "editor")
    // Validated from the focus, as a key press there would be: the editor has no selection.
    #expect(bindings[2].validation.isEnabled == false)
    #expect(bindings[1].validation.title == "Save report.txt")
    #expect(
      editor.tree.bindingsInEffect(includingShadowed: false).map(\.description) == [
        "ctrl+s  SetColor(color: blue)", "delete  DeleteRow (disabled)",
      ])
    // Listing performs nothing.
    #expect(editor.model.colors.isEmpty)
    #expect(editor.model.saves.isEmpty)
  }

  @Test func theFooterFollowsTheFocus() throws {
    let editor = Editor()
    editor.tree.root.bindKey("ctrl+s", to: "Save")
    editor.node("list").bindKey("del", to: "DeleteRow")
    try editor.tree.focus(id: "list")
    #expect(editor.tree.bindingsInEffect().map(\.binding.chord.description) == ["delete", "ctrl+s"])
    try editor.tree.focus(id: "editor")
    #expect(editor.tree.bindingsInEffect().map(\.binding.chord.description) == ["ctrl+s"])
    #expect(Node("loose").bindingsInEffect().isEmpty)
  }
}

@Suite struct PerformPredictionTests {
  @Test func theNearestManagerAnswersUnlessAClosureDecides() {
    let editor = Editor()
    let save = editor.node("editor").performPrediction(for: "menu.Save")
    #expect(save.answerer.handler === editor.tree.root)
    #expect(save.manager === editor.manager)
    #expect(save.isRegistered)
    #expect(!editor.node("editor").performPrediction(for: "Missing").isRegistered)
    #expect(!editor.node("editor").performPrediction(for: "Broken(").isRegistered)
    // A transform of the request on the way decides where it goes.
    editor.node("sidebar").transformAction(ManagedActionRequest.self) { $0 }
    guard case .undetermined(let node, _) = editor.node("list").performPrediction(for: "Save").answerer else {
      Issue.record("expected undetermined at the sidebar")
      return
    }
    #expect(node.id == "sidebar")
    #expect(editor.model.saves.isEmpty)
  }
}
