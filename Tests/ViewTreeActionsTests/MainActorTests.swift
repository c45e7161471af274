import Actions
import Testing
import ViewTree
import ViewTreeActions

/// The whole API from the main actor, as a toolkit's views and models use it.
@MainActor
@Suite struct MainActorTests {
  /// A main-actor model, as a toolkit's document or view model is.
  @MainActor final class Document {
    var saves = 0
    var title = "Untitled"
  }

  /// A managed action on a main-actor type: its conformance is main-actor isolated, so the
  /// manager may call it only from the main actor, which is where the tree lives.
  @MainActor struct SaveDocument: @MainActor ManagedAction {
    let document: Document
    static let defaultIdentifier = "Save"
    func validate(context: ActionContext) -> Validation { Validation(title: "Save \(document.title)") }
    func perform(context: ActionContext) throws { document.saves += 1 }
  }

  struct Rename: Action { var title: String }

  @Test func aMainActorToolkitDeclaresPerformsAndReturnsSummariesFromTasks() async throws {
    let document = Document()
    let manager = ActionManager()
    try manager.register(SaveDocument(document: document))
    let tree = NodeTree(
      declaring: NodeDeclaration("window") {
        NodeDeclaration("editor").focusable().handleAction(Rename.self) { rename in
          document.title = rename.title
        }
      }
      .actionManager(manager)
      .bindKey("ctrl+s", to: "Save"))
    try tree.focus(id: "editor")

    // Results a Task can return: summaries are Sendable.
    let renamed = await Task { @MainActor in tree.firstResponder.trigger(Rename(title: "Notes")).summary }
      .value
    #expect(renamed.kind == .handled)
    #expect(renamed.nodePath == "window/editor")
    #expect(document.title == "Notes")

    let performed = await Task { @MainActor in
      let result = tree.firstResponder.perform("Save")
      return (result.answer, result.handler?.path)
    }.value
    #expect(performed.0?.isPerformed == true)
    #expect(performed.1 == "window")
    #expect(tree.firstResponder.validate("Save").title == "Save Notes")

    // The synchronous form (in an async function, a closure picks it over the awaited one).
    let press: (KeyChord) -> KeyPressResult = { tree.firstResponder.handleKey($0) }
    let key: KeyPressResult = press(try KeyChord(parsing: "ctrl+s"))
    guard case .resolved(_, let result) = key, result.isPerformed else {
      Issue.record("expected ctrl+s to save, got \(key)")
      return
    }
    #expect(document.saves == 2)

    let unplugged = await Task { @MainActor in Node("loose").trigger(Rename(title: "x")).summary }.value
    #expect(unplugged.kind == .notDispatched(.notInTree))
  }
}
