import TestSupport
import Testing
import ViewTree
import ViewTreeActions

// The per-view adapter of the article "Integrating a declarative toolkit", compiled and run here
// by a small toolkit that re-renders one view at a time, from a nonisolated and from a main-actor
// context; `theArticleShowsThisAdapter` checks that the article shows exactly the code between the
// markers.

// per-view-adapter:begin
/// What a view adds to its own node: its modifiers, as SwiftUI's view modifiers.
protocol RespondingView {
  func responder(_ node: NodeDeclaration, trigger: TriggerAction) -> NodeDeclaration
}

/// The toolkit's environment key that hands a view's trigger to the views in its `body`; computed,
/// as a stored `static let` of a non-`Sendable` type is an error in Swift 6.
enum TriggerKey {
  static var defaultValue: TriggerAction? { nil }
}

/// The responder tree of one window: a node per view, each updated when its view's `body` runs.
final class ResponderGraph {
  let rootHandle = NodeHandle()
  let tree: NodeTree

  init() {
    tree = NodeTree(declaring: NodeDeclaration().bound(to: rootHandle))
    tree.onProblem = { problem, node in print("responder: \(node.path): \(problem)") }
  }

  /// After a view's `body` ran: its node, with its child views' nodes in the body's order.
  func bodyDidRun(_ view: some RespondingView, handle: NodeHandle, id: String?, children: [NodeHandle]) {
    let node = NodeDeclaration(id) { for child in children { NodeDeclaration.slot(child) } }
    handle.update(to: view.responder(node, trigger: handle.triggerAction))
  }

  /// Key input from the terminal or window system; `false` when nothing is bound.
  func key(_ chord: KeyChord) -> Bool {
    if case .unbound = tree.firstResponder.handleKey(chord) { return false }
    return true
  }
}
// per-view-adapter:end

struct DeleteNote: Action {}

/// A list of notes and its rows, as a toolkit keeps them: each view with its state and its handle.
final class NotesList: RespondingView {
  var notes: [String]
  var log: [String] = []
  let handle: NodeHandle
  /// The rows' views and handles, by the toolkit's identity (the note).
  var rows: [String: (view: NoteRow, handle: NodeHandle)] = [:]

  init(notes: [String], handle: NodeHandle) {
    self.notes = notes
    self.handle = handle
  }

  func responder(_ node: NodeDeclaration, trigger: TriggerAction) -> NodeDeclaration {
    node.onAction { [weak self] action in self?.log.append("list saw \(action)") }
  }
}

final class NoteRow: RespondingView {
  let note: String
  weak var list: NotesList?
  /// What the row's button got from the environment when the row declared itself.
  var environmentTrigger = TriggerKey.defaultValue

  init(note: String, list: NotesList) {
    self.note = note
    self.list = list
  }

  func responder(_ node: NodeDeclaration, trigger: TriggerAction) -> NodeDeclaration {
    environmentTrigger = trigger
    return node.focusable().handleAction(DeleteNote.self) { [weak list, note] _ in
      list?.log.append("delete \(note)")
      list?.notes.removeAll { $0 == note }
    }
  }
}

/// The toolkit's render pass: the list's body, then its rows' bodies in a shuffled order; rows
/// whose state did not change are frozen (not evaluated) when `onlyList` is set.
func render(_ list: NotesList, on graph: ResponderGraph, onlyList: Bool = false, seed: UInt64) {
  for note in list.notes where list.rows[note] == nil {
    list.rows[note] = (NoteRow(note: note, list: list), NodeHandle())
  }
  // Rows that went away: their storage, and so their handle, is dropped.
  for note in list.rows.keys where !list.notes.contains(note) { list.rows[note] = nil }
  graph.bodyDidRun(list, handle: list.handle, id: "notes", children: list.notes.map { list.rows[$0]!.handle })
  guard !onlyList else { return }
  var generator = SplitMix64(seed: seed)
  for note in list.notes.shuffled(using: &generator) {
    let row = list.rows[note]!
    graph.bodyDidRun(row.view, handle: row.handle, id: note, children: [])
  }
}

@Suite struct PerViewAdapterTests {
  @Test func theArticleShowsThisAdapter() throws {
    try expectReadmeShows(
      marker: "per-view-adapter", imports: ["import ViewTree", "import ViewTreeActions"],
      document: "Sources/ViewTree/ViewTree.docc/IntegratingADeclarativeToolkit.md")
  }

  /// Runs the same app from whatever isolation the caller has.
  static func runApp() throws -> [String] {
    let graph = ResponderGraph()
    let list = NotesList(notes: ["a", "b", "c"], handle: graph.rootHandle)
    render(list, on: graph, seed: 1)
    #expect(graph.tree.root.children.map(\.id) == ["a", "b", "c"])
    try graph.tree.focus(id: "c")

    // The button of row b triggers from row b's node, through the trigger it got at declaration.
    let rowB = try #require(list.rows["b"]?.view.environmentTrigger)
    #expect(rowB(DeleteNote()).handler?.id == "b")
    // Only the list's state changed: the list re-renders, the rows are frozen.
    render(list, on: graph, onlyList: true, seed: 2)
    #expect(graph.tree.root.children.map(\.id) == ["a", "c"])
    #expect(graph.tree.focusedNode?.id == "c")

    // A note inserted in the middle lands in the middle; rows render in another order.
    list.notes.insert("n", at: 1)
    render(list, on: graph, seed: 3)
    #expect(graph.tree.root.children.map(\.id) == ["a", "n", "c"])
    #expect(list.rows["n"]?.view.environmentTrigger?(DeleteNote()).handler?.id == "n")
    #expect(graph.tree.root.problems.isEmpty)
    return list.log
  }

  @Test func theAdapterRunsAToolkitThatRendersOneViewAtATime() throws {
    #expect(try Self.runApp() == ["delete b", "delete n"])
  }

  @MainActor @Test func theAdapterRunsOnTheMainActorToo() throws {
    #expect(try Self.runApp() == ["delete b", "delete n"])
    // A main-actor view conforms with an isolated conformance; its handlers run on the main actor.
    let graph = ResponderGraph()
    let counter = MainActorCounter()
    graph.bodyDidRun(counter, handle: graph.rootHandle, id: "counter", children: [])
    #expect(counter.trigger?(DeleteNote()).handler === graph.tree.root)
    #expect(counter.count == 1)
  }
}

@MainActor final class MainActorCounter: @MainActor RespondingView {
  var count = 0
  var trigger = TriggerKey.defaultValue

  func responder(_ node: NodeDeclaration, trigger: TriggerAction) -> NodeDeclaration {
    self.trigger = trigger
    return node.handleAction(DeleteNote.self) { [weak self] _ in self?.count += 1 }
  }
}
