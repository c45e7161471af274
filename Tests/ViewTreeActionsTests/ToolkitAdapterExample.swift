import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

// The adapter of the article "Integrating a declarative toolkit", compiled and run by
// `theAdapterRunsAToolkitApp`; `theArticleShowsThisAdapter` checks that the article shows exactly
// the code between the markers.

// toolkit-adapter:begin
/// What the toolkit's views give the adapter: their responder declaration, from `body`.
@MainActor protocol ResponderView {
  var responder: NodeDeclaration { get }
}

/// Owns the responder tree of one window, and keeps it what the views declare.
@MainActor final class ResponderHost<Root: ResponderView> {
  let tree: NodeTree
  private let root: () -> Root
  private(set) var focusedID: String?

  init(_ root: @escaping () -> Root) {
    self.root = root
    tree = NodeTree(declaring: root().responder)
    tree.onFocusChange = { [weak self] change in self?.focusedID = change.new?.id }
    tree.onProblem = { problem, node in print("responder: \(node.path): \(problem)") }
  }

  /// Call wherever the toolkit re-evaluates `body`: after every state change.
  func render() { tree.update(to: root().responder) }

  /// Focus where the user clicked; the error says why a node cannot take it (no `focusable()`).
  func focus(_ id: String) throws(ViewTreeError) { try tree.focus(id: id) }

  /// Key input from the terminal or window system; `false` when nothing is bound.
  func key(_ chord: KeyChord) -> Bool {
    defer { render() }
    if case .unbound = tree.firstResponder.handleKey(chord) { return false }
    return true
  }

  /// Buttons and menus: the action starts at the focus.
  func trigger(_ action: some Action) -> ActionOutcome.Summary {
    defer { render() }
    return tree.firstResponder.trigger(action).summary
  }
}
// toolkit-adapter:end

/// A small app on the adapter: a list of notes with a counter of saves.
@MainActor final class NotesApp: ResponderView {
  struct Delete: Action { var note: String }
  var notes = ["a", "b", "c"]
  var saves = 0
  let manager = ActionManager()

  @MainActor struct SaveNotes: @MainActor ManagedAction {
    unowned let app: NotesApp
    static let defaultIdentifier = "Save"
    func perform(context: ActionContext) throws { app.saves += 1 }
  }

  init() { try! manager.register(SaveNotes(app: self)) }

  // integrating-responder:begin
  var responder: NodeDeclaration {
    NodeDeclaration("window") {
      NodeDeclaration("list") {
        for note in notes {
          NodeDeclaration(note).focusable().handleAction(Delete.self) { [unowned self] delete in
            notes.removeAll { $0 == delete.note }
          }
        }
      }
      .focusable()
    }
    .actionManager(manager)
    .bindKey("ctrl+s", to: "Save")
  }
  // integrating-responder:end
}

@MainActor @Suite struct ToolkitAdapterTests {
  @Test func theAdapterRunsAToolkitApp() throws {
    let app = NotesApp()
    let host = ResponderHost { app }
    try host.focus("b")
    #expect(host.focusedID == "b")
    // A node that does not declare `focusable()` is refused, loudly.
    #expect(throws: ViewTreeError.notFocusable(node: "window", reason: "it does not declare focusable()")) {
      try host.focus("window")
    }
    #expect(host.trigger(NotesApp.Delete(note: "b")).nodePath == "window/list/b")
    // The note left the state, so its node left the tree; focus moved to the list.
    #expect(app.notes == ["a", "c"])
    #expect(host.tree.node(id: "b") == nil)
    #expect(host.focusedID == "list")
    #expect(host.key(try KeyChord(parsing: "ctrl+s")))
    #expect(!host.key(try KeyChord(parsing: "ctrl+q")))
    #expect(app.saves == 1)
    // The manager's two responders (perform, validate), once each however often it re-declared.
    #expect(host.tree.root.modifiers.count == 2)
  }

  @Test func theArticleShowsThisAdapter() throws {
    try expectReadmeShows(
      marker: "toolkit-adapter", imports: ["import ViewTree", "import ViewTreeActions"],
      document: "Sources/ViewTree/ViewTree.docc/IntegratingADeclarativeToolkit.md")
  }
}
