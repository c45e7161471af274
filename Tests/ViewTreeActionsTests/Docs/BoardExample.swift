import Testing
import ViewTree
import ViewTreeActions

// The board of the article "A first app: where the features meet", between markers, compiled
// and run here (`DocsCompileTests` checks that the article shows exactly this region).

// board-app:begin
/// A kanban board: columns of cards, a confirm dialog, keys and the mouse, with no glue between
/// the features: the tree keeps the focus on a moved card, gives a deleted card's focus to its
/// neighbour, makes the board inert behind the dialog, and activates a card that is clicked.
@MainActor final class Board {
  /// Runs a closure as an action, with the context it is performed in.
  @MainActor struct Run: @MainActor ManagedAction {
    let body: (ActionContext) -> Void
    func perform(context: ActionContext) throws { body(context) }
  }

  var columns: [(name: String, cards: [String])] = [("todo", ["a", "b"]), ("done", ["c"])]
  var asking: String?  // the card the dialog asks about
  var log: [String] = []
  let manager = ActionManager()
  private var handles: [String: NodeHandle] = [:]
  private(set) lazy var tree = NodeTree(declaring: body)

  init() throws {
    func card(_ context: ActionContext) -> String? { context.value(forKey: "card", as: String.self) }
    try manager.register(Run { [unowned self] in log.append("open \(card($0) ?? "?")") }, as: "Open")
    try manager.register(Run { [unowned self] in asking = card($0) }, as: "AskDelete")
    try manager.register(Run { [unowned self] _ in asking = nil }, as: "Dismiss")
    try manager.register(Run { [unowned self] in if let name = card($0) { move(name) } }, as: "Move")
    try manager.register(
      Run { [unowned self] context in
        for index in columns.indices { columns[index].cards.removeAll { $0 == card(context) } }
        asking = nil
      }, as: "Delete")
  }

  /// The board as the toolkit declares it after every change.
  var body: NodeDeclaration {
    NodeDeclaration("board") {
      for (x, column) in columns.enumerated() {
        NodeDeclaration(column.name) {
          for (y, name) in column.cards.enumerated() {
            // A card keeps its node, and so its focus, wherever the board puts it.
            NodeDeclaration(name).bound(to: handle(name))
              .focusable().actionItem("Open(card: \(name))")
              .bindKey("m", to: "Move(card: \(name))").bindKey("d", to: "AskDelete(card: \(name))")
              .frame(NodeFrame(x: Double(20 * x), y: Double(y), width: 18, height: 1))
          }
        }
        .focusScope(repair: .neighbor)  // a deleted card's focus goes to the next card
      }
      if let name = asking {
        NodeDeclaration("confirm") {
          NodeDeclaration("yes").focusable().actionItem("Delete(card: \(name))")
          NodeDeclaration("no").focusable().actionItem("Dismiss")
        }
        .focusScope(.trap, autofocus: true)  // modal: the board behind it is inert
        .bindKey("escape", to: "Dismiss")
        .frame(NodeFrame(x: 10, y: 10, width: 20, height: 2))
      }
    }
    .actionManager(manager)
    .bindKey("ctrl+q", to: "Quit", passesModal: true)  // works behind the dialog too
  }

  /// The event loop's two entry points: each re-declares the board afterwards.
  func key(_ chord: KeyChord) {
    tree.firstResponder.handleKey(chord)
    tree.update(to: body)
  }

  func pointer(_ input: PointerInput) {
    tree.handlePointer(input)
    tree.update(to: body)
  }

  private func handle(_ name: String) -> NodeHandle {
    if let handle = handles[name] { return handle }
    let handle = NodeHandle()
    handles[name] = handle
    return handle
  }

  private func move(_ name: String) {
    guard let from = columns.firstIndex(where: { $0.cards.contains(name) }) else { return }
    columns[from].cards.removeAll { $0 == name }
    columns[(from + 1) % columns.count].cards.append(name)
  }
}
// board-app:end

@MainActor @Suite struct BoardExampleTests {
  func click(_ board: Board, x: Double, y: Double) {
    board.pointer(PointerInput(.press(.primary), at: PointerLocation(x: x, y: y)))
    board.pointer(PointerInput(.release(.primary), at: PointerLocation(x: x, y: y)))
  }

  @Test func theFeaturesMeetWithoutGlue() throws {
    let board = try Board()
    var changes: [String] = []
    board.tree.onFocusChange = { changes.append("\($0.new?.id ?? "-") \($0.reason)") }
    try board.tree.focus(id: "b")
    // A moved card keeps the focus, and nobody hears of a change.
    board.key(try KeyChord(parsing: "m"))
    #expect(board.columns.map(\.cards) == [["a"], ["c", "b"]])
    #expect(board.tree.focusedNode?.id == "b")
    #expect(changes == ["b programmatic"])
    // A click on a card opens it: it is an item.
    click(board, x: 1, y: 0)
    #expect(board.log == ["open a"])
    #expect(board.tree.focusedNode?.id == "a")
    // The dialog: modal. A click behind it does nothing; the global quit still resolves.
    try board.tree.focus(id: "b")
    board.key(try KeyChord(parsing: "d"))
    #expect(board.tree.focusedNode?.id == "yes")
    click(board, x: 1, y: 0)
    #expect(board.log == ["open a"])
    let quit = board.tree.firstResponder.resolveKey(try KeyChord(parsing: "ctrl+q"))
    guard case .binding = quit else {
      Issue.record("the quit binding does not pass the modal: \(quit)")
      return
    }
    guard case .unbound = board.tree.firstResponder.resolveKey(try KeyChord(parsing: "m")) else {
      Issue.record("a card's binding resolved behind the dialog")
      return
    }
    // Enter deletes the card; the dialog closes; the card's focus goes to its neighbour.
    board.key(KeyChord(.enter))
    #expect(board.columns.map(\.cards) == [["a"], ["c"]])
    #expect(board.tree.focusedNode?.id == "c")
  }
}
