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
    let bindings = editor.tree.firstResponder.bindingsInEffect()
    #expect(
      bindings.map { "\($0.node!.label) \($0.keys!)" } == [
        "editor ctrl+s", "window ctrl+s", "window delete", "window tab", "window shift+tab",
      ])
    #expect(bindings.map { $0.shadowedBy == nil } == [true, false, true, true, true])
    // The tree's defaults come last, on its root.
    #expect(bindings.suffix(2).map(\.identifier) == ["focus.Next", "focus.Previous"])
    #expect(bindings[1].shadowedBy?.node?.label == "editor")
    // Validated from the focus, as a key press there would be: the editor has no selection.
    #expect(bindings[2].validation.isEnabled == false)
    #expect(bindings[1].validation.title == "Save report.txt")
    #expect(
      editor.tree.firstResponder.bindingsInEffect(includingShadowed: false).map(\.description) == [
        "ctrl+s  SetColor(color: blue)", "delete  DeleteRow (disabled)", "tab  Focus next",
        "shift+tab  Focus previous",
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
    #expect(
      editor.tree.firstResponder.bindingsInEffect().map(\.keys?.description) == [
        "delete", "ctrl+s", "tab", "shift+tab",
      ])
    try editor.tree.focus(id: "editor")
    #expect(
      editor.tree.firstResponder.bindingsInEffect().map(\.keys?.description) == [
        "ctrl+s", "tab", "shift+tab",
      ])
    #expect(Node("loose").bindingsInEffect().isEmpty)
  }
}

@Suite struct WhoWouldAnswerTests {
  /// Which manager would answer a perform, and whether it knows the identifier: the handler
  /// prediction of its request, the manager there, and its registry.
  @Test func theNearestManagerAnswersUnlessAClosureDecides() throws {
    let editor = Editor()
    let prediction = editor.node("editor").handlerPrediction(for: PerformRequest.self)
    #expect(prediction.handler === editor.tree.root)
    let manager = try #require(prediction.handler?.attachedActionManager)
    #expect(manager === editor.manager)
    #expect(manager.action(named: "Save") != nil)
    #expect(manager.action(named: "Missing") == nil)
    // A transform of the request on the way decides where it goes.
    editor.node("sidebar").transformAction((any ManagedActionRequest).self) { $0 }
    let undetermined = editor.node("list").handlerPrediction(for: PerformRequest.self)
    guard case .undetermined(let node, _) = undetermined else {
      Issue.record("expected undetermined at the sidebar")
      return
    }
    #expect(node.id == "sidebar")
    #expect(undetermined.handler == nil)
    #expect(editor.model.saves.isEmpty)
  }
}

@Suite struct CommandPaletteTests {
  @Test func aPaletteOffersTheNearestManagersIdentifiersValidatedAtItsNode() throws {
    let editor = Editor()
    editor.tree.root.bindKey("ctrl+s", to: "Save")
    let palette = CommandPalette(from: editor.node("editor"))
    #expect(palette.entries.map(\.identifier).sorted() == editor.manager.registeredIdentifiers)
    let save = try #require(palette.entries.first { $0.identifier == "Save" })
    #expect(save.title == "Save report.txt")
    #expect(save.keys?.description == "ctrl+s")
    #expect(save.description == "ctrl+s  Save report.txt")
    let delete = try #require(palette.entries.first { $0.identifier == "DeleteRow" })
    #expect(!delete.validation.isEnabled)  // the editor provides no selection
    // Typing filters by subsequence, best first; performing the choice works.
    let matches = palette.matches("srep")
    #expect(matches.first?.entry.identifier == "Save")
    #expect(matches.first?.matchedOffsets == [0, 5, 6, 7])
    #expect(editor.node("editor").perform(matches[0].entry.identifier).isPerformed)
    #expect(palette.matches("zzz").isEmpty)
    #expect(palette.matches("").count == palette.entries.filter(\.validation.isVisible).count)
    #expect(CommandPalette(from: Node("loose")).entries.isEmpty)
  }

  @Test func wordStartsAndRunsRankFirst() {
    let palette = CommandPalette(
      entries: ["Find and Replace", "Format Document", "Fold All", "Reformat", "Hidden"].map { title in
        ActionEntry(
          identifier: title, validation: Validation(isVisible: title != "Hidden", title: title), keys: nil)
      })
    #expect(palette.matches("fd").map(\.entry.title).prefix(1) == ["Format Document"])
    #expect(palette.matches("form").map(\.entry.title) == ["Format Document", "Reformat"])
    #expect(palette.matches("hid").isEmpty)  // invisible entries are not offered
    #expect(palette.matches("F a R").first?.entry.title == "Find and Replace")
  }

  @Test func matchingIsByCharacterNotByByte() {
    func palette(_ titles: [String]) -> CommandPalette {
      CommandPalette(
        entries: titles.map { title in
          ActionEntry(identifier: title, validation: Validation(title: title), keys: nil)
        })
    }
    // "é" (C3 A9) shares a byte with each of "ã" (C3 A3) and "©" (C2 A9), but no character.
    #expect(palette(["ã©"]).matches("é").isEmpty)
    // A precomposed "é" matches a decomposed one; offsets count characters.
    let matches = palette(["Café Noir"]).matches("e\u{301}n")
    #expect(matches.map(\.entry.title) == ["Café Noir"])
    #expect(matches.first?.matchedOffsets == [3, 5])
    #expect(palette(["日本語の保存"]).matches("保存").first?.matchedOffsets == [4, 5])
  }
}
