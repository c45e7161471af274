import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

// The Swift blocks of ViewTreeActions' articles and the README's key and placement blocks, each
// between markers, compiled here and run where the block has a result (`DocsCompileTests` checks
// that the documents show exactly these regions).

/// What the blocks take from their surroundings: a document, its actions, a selection.
enum ActionsArticleContext {
  final class Document {
    var isDirty = true
    var saves = 0
    func save() throws { saves += 1 }
  }

  enum DocumentKey: ActionContextKey {
    static var defaultValue: Document? { nil }
  }

  enum SelectionKey: ActionContextKey {
    static let defaultValue: [Int] = []
  }

  final class DocumentView {
    var zoom = 100
    var wraps = false
  }

  enum ZoomError: Error { case noLevel }

  struct SaveAction: ManagedAction {
    func validate(context: ActionContext) -> Validation {
      context[DocumentKey.self]?.isDirty == true ? .enabled : .disabled
    }
    func perform(context: ActionContext) throws { try context[DocumentKey.self]?.save() }
  }

  struct DeleteRowAction: ManagedAction {
    func validate(context: ActionContext) -> Validation {
      context[SelectionKey.self].isEmpty ? .disabled : .enabled
    }
    func perform(context: ActionContext) throws {}
  }

  struct ToggleWrapAction: ManagedAction {
    let view: DocumentView
    func validate(context: ActionContext) -> Validation { Validation(state: view.wraps ? .on : .off) }
    func perform(context: ActionContext) throws { view.wraps.toggle() }
  }

  final class EditorController: ActionContextProvider {
    let document = Document()
    func provide(to context: ActionContext) { context[DocumentKey.self] = document }
  }

  final class ListView {
    var selection = [2]
  }
}

@Suite struct ViewTreeActionsArticleExamples {
  typealias Document = ActionsArticleContext.Document
  typealias DocumentKey = ActionsArticleContext.DocumentKey
  typealias SelectionKey = ActionsArticleContext.SelectionKey
  typealias DocumentView = ActionsArticleContext.DocumentView
  typealias ZoomError = ActionsArticleContext.ZoomError
  typealias SaveAction = ActionsArticleContext.SaveAction
  typealias DeleteRowAction = ActionsArticleContext.DeleteRowAction

  @Test func connectingAManagerPerformsAndValidatesThroughTheTree() throws {
    let list = ActionsArticleContext.ListView()
    let editorController = ActionsArticleContext.EditorController()
    let window = Node("window")
    // connecting-register:begin
    let manager = ActionManager()
    try manager.register([SaveAction(), DeleteRowAction()])
    window.actionManager(manager)
    // connecting-register:end
    let tree = try NodeTree(root: window)
    let panes = Node("panes") {
      // connecting-providers:begin
      Node("list")
        .provideActionContext { context in context[SelectionKey.self] = list.selection }
      Node("editor")
        .provideActionContext(weak: editorController)  // an ActionContextProvider, held weakly
      // connecting-providers:end
    }
    try window.addChild(panes)
    let editor = try #require(tree.node(id: "editor")).focusable()
    try tree.focus(editor)
    var results: [String] = []
    // connecting-perform:begin
    editor.perform("menu.Save")  // from a node; the node is the sender
    tree.firstResponder.perform("menu.Save")  // from the focused node (or the root)
    // The same path and context, nothing performed:
    let canSave = tree.firstResponder.validate("menu.Save").isEnabled
    // connecting-perform:end
    #expect(canSave)
    results.append("\(tree.firstResponder.validate("DeleteRow").isEnabled)")
    #expect(editorController.document.saves == 2)
    #expect(results == ["false"])
    #expect(tree.node(id: "list").map { $0.validate("DeleteRow").isEnabled } == true)
  }

  @Test func itemsValidateAndActivate() throws {
    let log = Log()
    struct SetColor: ManagedAction {
      let log: Log
      func perform(context: ActionContext) throws {
        log("color \(context.identifier["color"].map { "\($0)" } ?? "?")")
      }
    }
    let manager = ActionManager()
    try manager.register(SetColor(log: log), as: "SetColor")
    var rendered: [String] = []
    func render(_ node: Node?, enabled: Bool, title: String) {
      rendered.append("\(node?.id ?? "?") \(title) \(enabled)")
    }
    let tree = NodeTree("window") {}
    tree.root.actionManager(manager)
    // connecting-items:begin
    let editMenu = Node("edit") {
      Node("undo").actionItem("menu.Undo")
      Node("red").actionItem(#"color.SetColor("color": "red")"#)
    }

    for entry in tree.validateItems(in: editMenu) {
      render(entry.node, enabled: entry.validation.isEnabled, title: entry.title)
    }
    let redItem = editMenu.children[1]
    try tree.activate(redItem)  // performs from the focus, with the item as sender
    // connecting-items:end
    #expect(log.entries == ["color red"])
    // A menu validates against the focus, wherever the menu is.
    #expect(rendered == ["undo Undo false", #"red color.SetColor("color": "red") true"#])
  }

  @Test func checkItemsAndRadioSetsAreStates() throws {
    let view = DocumentView()
    // connecting-states:begin
    struct ZoomAction: ManagedAction {
      let view: DocumentView

      func validate(context: ActionContext) -> Validation {
        guard case .int(let level)? = context.identifier["level"] else { return .unavailable }
        return Validation(title: "\(level)%", state: level == view.zoom ? .on : .off)
      }

      func perform(context: ActionContext) throws {
        guard case .int(let level)? = context.identifier["level"] else { throw ZoomError.noLevel }
        view.zoom = level
      }
    }

    let menu = Node("view") {
      Node("wrap").actionItem("ToggleWrap")  // a check item
      Node("zoom100").actionItem("Zoom(level: 100)")  // a radio set of three
      Node("zoom150").actionItem("Zoom(level: 150)")
      Node("zoom200").actionItem("Zoom(level: 200)")
    }
    // connecting-states:end
    let manager = ActionManager()
    try manager.register([ZoomAction(view: view), ActionsArticleContext.ToggleWrapAction(view: view)])
    let tree = try NodeTree(root: menu)
    menu.actionManager(manager)
    try tree.activate(try #require(tree.node(id: "zoom150")))
    #expect(tree.validateItems().map { $0.validation.state } == [.off, .off, .on, .off])
  }

  @Test func keysArePerformedFromTheFocus() throws {
    let log = Log()
    struct Named: ManagedAction {
      let log: Log
      let name: String
      func perform(context: ActionContext) throws { log(name) }
    }
    let manager = ActionManager()
    for name in ["Save", "SaveAll", "Delete", "SelectFirst"] {
      try manager.register(Named(log: log, name: name), as: name)
    }
    let editor = Node("editor").focusable()
    let window = Node("window") { editor }
    window.actionManager(manager)
    let tree = try NodeTree(root: window)
    try tree.focus(editor)
    // connecting-keys:begin
    editor.bindKey("ctrl+s", to: "Save")
    window.bindKey("ctrl+z", to: "Undo").bindKey("ctrl+k ctrl+s", to: "SaveAll")
    try tree.firstResponder.handleKey(KeyChord(parsing: "ctrl+s"))
    // connecting-keys:end
    #expect(log.entries == ["Save"])
    let declared = Node("declared") {
      let window = Node("window")
      // key-bindings-declaring:begin
      Node("list")
        .bindKey("del", to: "Delete")
        .bindKey("g g", to: "SelectFirst")
      window
        .bindKey("ctrl+s", to: "Save")
        .bindKey("ctrl+k ctrl+s", to: "SaveAll")
      // key-bindings-declaring:end
    }
    let list = declared.children[0]
    #expect(list.keyBindings.map(\.description) == ["delete -> Delete", "g g -> SelectFirst"])
    #expect(declared.children[1].keyBindings.count == 2)
  }

  @Test func defaultsPendingKeysAndModalBindings() throws {
    let tree = NodeTree("window") { Node("editor").focusable() }
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    // key-bindings-defaults:begin
    do {
      tree.defaultKeyBindings = [
        try KeyBinding("tab", to: "focus.Next"),
        try KeyBinding("ctrl+w l", to: "focus.Right"),
      ]
    } catch {
      print(error)  // a ViewTreeActionsError: keys or an identifier that do not parse
    }
    // key-bindings-defaults:end
    #expect(printed.isEmpty)
    #expect(tree.defaultKeyBindings.count == 2)

    let manager = ActionManager()
    struct Named: ManagedAction {
      let title: String?
      func perform(context: ActionContext) throws {}
    }
    try manager.register(Named(title: "Save All"), as: "SaveAll")
    tree.root.actionManager(manager).bindKey("ctrl+k ctrl+s", to: "SaveAll")
    tree.firstResponder.handleKey(try KeyChord(parsing: "ctrl+k"))
    var footer: [String] = []
    // key-bindings-pending:begin
    if let pending = tree.pendingKeys {
      footer = pending.validatedContinuations().map(\.description)  // "ctrl+k ctrl+s  Save All", …
    }
    // key-bindings-pending:end
    #expect(footer == ["ctrl+k ctrl+s  Save All"])

    let window = tree.root
    // key-bindings-modal:begin
    window.bindKey("ctrl+q", to: "Quit", passesModal: true)  // quits even with a dialog open
    window.bindKey("f5", to: "Refresh")  // inert while the dialog is up
    // key-bindings-modal:end
    #expect(window.keyBindings.map(\.passesModal) == [false, true, false])
  }

  @Test func theOfferedListAndAnActionsTitleAndSummary() throws {
    let document = Document()
    // menus-summary:begin
    struct SaveAction: ManagedAction {
      var title: String? { "Save" }
      var summary: String? { "Writes the document to disk." }
      func perform(context: ActionContext) throws { try context[DocumentKey.self]?.save() }
    }
    // menus-summary:end
    let manager = ActionManager()
    try manager.register(SaveAction())
    let tree = NodeTree("window") {
      Node("editor").focusable().bindKey("ctrl+s", to: "Save").provideActionContext {
        $0[DocumentKey.self] = document
      }
    }
    tree.root.actionManager(manager)
    try tree.focus(id: "editor")
    var printed: [String] = []
    func print(_ values: Any...) { printed.append(values.map { "\($0)" }.joined(separator: " ")) }
    // menus-offered:begin
    for entry in tree.offeredActions() where entry.validation.isVisible {
      print(entry.title, entry.formattedKeys(.display) ?? "", entry.validation.isEnabled)
    }
    // menus-offered:end
    #expect(printed.first == "Save ctrl+s true")
    tree.firstResponder.perform("Save")
    #expect(document.saves == 1)
  }

  @Test func theModuleOverviewValidatesAMenuAndPerformsAKey() throws {
    let document = Document()
    let manager = ActionManager()
    try manager.register(SaveAction())
    // view-tree-actions-overview:begin
    let tree = NodeTree("window") {
      Node("menu") { Node("save").actionItem("menu.Save") }
      Node("editor").focusable().provideActionContext { $0[DocumentKey.self] = document }
    }
    tree.root.actionManager(manager)
    tree.root.bindKey("ctrl+s", to: "Save")

    try tree.focus(id: "editor")
    let menu = tree.validateItems(in: tree.node(id: "menu"))  // the Save item is enabled
    try tree.firstResponder.handleKey(KeyChord(parsing: "ctrl+s"))  // performs Save from the editor
    // view-tree-actions-overview:end
    #expect(menu.map(\.validation.isEnabled) == [true])
    #expect(document.saves == 1)
  }

  @Test func theReadmesKeySequenceWaitsThenPerforms() throws {
    let log = Log()
    struct Named: ManagedAction {
      let log: Log
      let name: String
      func perform(context: ActionContext) throws { log(name) }
    }
    let manager = ActionManager()
    try manager.register(Named(log: log, name: "SaveAll"), as: "SaveAll")
    try manager.register(Named(log: log, name: "UndoAll"), as: "UndoAll")
    let tree = NodeTree("window") {}
    tree.root.actionManager(manager)
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    // readme-key-sequences:begin
    tree.root.bindKey("ctrl+k ctrl+s", to: "SaveAll").bindKey("ctrl+k ctrl+z", to: "UndoAll")
    print(tree.firstResponder.handleKey(try KeyChord(parsing: "ctrl+k")))  // ctrl+k … (2 continuations)
    // ["ctrl+k ctrl+s  SaveAll", "ctrl+k ctrl+z  UndoAll"]: what can follow, for a which-key footer
    print(tree.pendingKeys?.validatedContinuations().map(\.description) ?? [])
    tree.firstResponder.handleKey(try KeyChord(parsing: "ctrl+s"))  // performs SaveAll
    // readme-key-sequences:end
    #expect(
      printed == ["ctrl+k … (2 continuations)", #"["ctrl+k ctrl+s  SaveAll", "ctrl+k ctrl+z  UndoAll"]"#])
    #expect(log.entries == ["SaveAll"])
  }

  @Test func aViewThatPlacesItselfUpdatesThenPlaces() throws {
    let rootHandle = NodeHandle()
    rootHandle.update(to: NodeDeclaration("root"))
    // readme-placing:begin
    func viewDidUpdate(
      _ node: NodeDeclaration?, handle: NodeHandle, parent: NodeHandle?, order: PlacementOrder
    ) {
      if let node { handle.update(to: node) }
      handle.place(in: parent ?? rootHandle, order: order)
    }
    // readme-placing:end
    let list = NodeHandle()
    let row = NodeHandle()
    viewDidUpdate(NodeDeclaration("row"), handle: row, parent: list, order: [0])
    viewDidUpdate(NodeDeclaration("list"), handle: list, parent: nil, order: [0])
    #expect(rootHandle.node?.children.first?.children.first?.id == "row")
  }

  @Test func keymapsRebindByContextAndExplainWhy() throws {
    let log = Log()
    let manager = ActionManager()
    for name in ["Save", "SaveAll", "DeleteRow"] { try manager.register(RunAction { log(name) }, as: name) }
    // keymaps-intro:begin
    let tree = NodeTree("window") {
      Node("list").focusable().keyContext("List")
      Node("editor").focusable().keyContext("Editor mode=insert").bindKey("ctrl+s", to: "Save")
    }
    tree.root.keyContext("Workspace")

    let keymap = Keymap(
      parsing: """
        [Editor && mode == insert]
        ctrl+s = SaveAll
        [List]
        d = DeleteRow
        """,
      source: "user.keymap")
    for issue in keymap.issues { print(issue) }
    tree.userKeymap = keymap
    // keymaps-intro:end
    tree.root.actionManager(manager)
    try tree.focus(id: "editor")
    // keymaps-explain:begin
    print(tree.explainKey(try KeyChord(parsing: "ctrl+s"), at: tree.firstResponder))
    // 0: ctrl+s -> SaveAll [user user.keymap:2 on window/editor, depth 1, when Editor && mode == insert]: wins
    // 1: ctrl+s -> Save [nodes on window/editor, depth 1]: shadowed by 0 (higher layer)
    // keymaps-explain:end
    #expect(
      tree.explainKey(try KeyChord(parsing: "ctrl+s"), at: tree.firstResponder).description == """
        0: ctrl+s -> SaveAll [user user.keymap:2 on window/editor, depth 1, when Editor && mode == insert]: wins
        1: ctrl+s -> Save [nodes on window/editor, depth 1]: shadowed by 0 (higher layer)
        """)
    tree.firstResponder.handleKey(try KeyChord(parsing: "ctrl+s"))
    try tree.focus(id: "list")
    tree.firstResponder.handleKey(try KeyChord(parsing: "d"))
    #expect(log.entries == ["SaveAll", "DeleteRow"])
  }
}
