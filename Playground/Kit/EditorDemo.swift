import Actions
import ViewTree
import ViewTreeActions

/// The demo: a document editor declared as a tree, with a manager, providers, key bindings, a
/// transform, a capture and menus, driven one key press at a time.
public final class EditorDemo {
  /// The document.
  public let model = DocumentModel()
  /// The manager on the window.
  public let manager = ActionManager()
  /// The tree.
  public let tree: NodeTree
  /// Log lines, oldest first.
  public internal(set) var log: [String] = []
  /// Whether `q` was pressed.
  public private(set) var wantsToQuit = false

  /// Whether the "Delete rows?" confirmation is open.
  public private(set) var isConfirming = false
  /// How the screen shows the tree: scrolled by the wheel.
  let view = TreeView()
  /// The first line of the tree the screen shows.
  public var treeScroll: Int { view.first }
  /// Set by the `AskDeleteRows` action; the dialog opens once the key press is over.
  private var wantsConfirmation = false
  /// Set by the dialog's actions (its buttons' items, Escape): whether to delete every row. The
  /// dialog closes once the key press or the click is over.
  private var dialogChoice: Bool?
  /// Set by the `Rename` action; the box opens once the key press is over.
  private var wantsRename = false
  /// Set by the rename box's actions: whether to keep the name typed. The box closes once the
  /// key press is over.
  private var renameChoice: Bool?
  /// Whether the panel shows the inspector rather than the menus (f2).
  public private(set) var showsInspector = false
  private var steps: [ActionStep] = []

  /// Builds the demo with focus on the list, and `keymap` as the tree's user keymap (its load
  /// issues, if any, are the log's first lines).
  public init(keymap: Keymap? = nil) {
    let model = model
    try! manager.register([
      SaveAction(model: model), DeleteRowAction(model: model), SetColorAction(model: model),
      ToggleLockAction(model: model), ToggleWrapAction(model: model), ZoomAction(model: model),
    ])
    try! manager.register(MoveSelectionAction(model: model, step: -1), as: "SelectPrevious")
    try! manager.register(MoveSelectionAction(model: model, step: 1), as: "SelectNext")
    // A step back past any first row: the action stops at the first.
    try! manager.register(MoveSelectionAction(model: model, step: Int.min / 2), as: "SelectFirst")
    tree = NodeTree(declaring: Self.declare(model, manager, view, confirming: false))
    try! tree.focus(id: "list")
    tree.stepObserver = { [weak self] step in self?.steps.append(step) }
    try! manager.register(AskAction { [weak self] in self?.wantsConfirmation = true }, as: "AskDeleteRows")
    // The rename box: `n` opens it on the selected row; Enter or `j k` renames the row and closes
    // it; Escape closes it; Backspace erases.
    let isRenaming = { [weak self] in self?.model.renaming != nil }
    try! manager.register(
      AskAction(title: "Rename") { [weak self] in self?.wantsRename = true }, as: "Rename")
    try! manager.register(
      AskAction(title: "Finish Renaming", isAvailable: isRenaming) { [weak self] in self?.renameChoice = true
      },
      as: "FinishRename")
    try! manager.register(
      AskAction(title: "Cancel Renaming", isAvailable: isRenaming) { [weak self] in self?.renameChoice = false
      },
      as: "CancelRename")
    try! manager.register(
      AskAction(title: "Erase", isAvailable: isRenaming) {
        model.renaming = model.renaming.map { String($0.dropLast()) }
      },
      as: "EraseRenameText")
    let isOpen = { [weak self] in self?.isConfirming ?? false }
    try! manager.register(
      AskAction(title: "Cancel", isAvailable: isOpen) { [weak self] in self?.dialogChoice = false },
      as: "CancelDeleteRows")
    try! manager.register(
      AskAction(title: "Delete All", isAvailable: isOpen) { [weak self] in self?.dialogChoice = true },
      as: "ConfirmDeleteRows")
    if let keymap {
      tree.userKeymap = keymap
      log.append("keymap: \(keymap.entries.count) bindings, \(keymap.issues.count) lines not read")
      for issue in keymap.issues + keymap.unknownActions(in: manager) {
        log.append(contentsOf: issue.description.split(separator: "\n").map(String.init))
      }
    }
    tree.onFocusChange = { [weak self] change in
      // The drawing follows the focus again, but for a click, which landed where the user saw it.
      self?.view.followsFocus = change.reason != .pointer
      guard change.reason != .programmatic else { return }
      self?.log.append("focus -> \(change.new?.label ?? "none") (\(change.reason))")
    }
  }

  /// The whole tree, declared from the document as it is now: the demo re-declares it after
  /// every key press, as a declarative toolkit re-evaluates its views, and the live tree follows
  /// (the list's rows come and go with the document; focus and everything else stays).
  ///
  /// Focus is declared, not kept by hand: the list, the editor, the toolbar's button and the
  /// swatches are focusable; the toolbar and the swatches are groups (the swatches move with the
  /// arrow keys, by their frames); the confirmation dialog traps Tab until it closes.
  static func declare(
    _ model: DocumentModel, _ manager: ActionManager, _ view: TreeView, confirming: Bool
  ) -> NodeDeclaration {
    NodeDeclaration("window") {
      NodeDeclaration("menubar") {
        NodeDeclaration("file") {
          NodeDeclaration("save").actionItem("menu.Save")
        }
        NodeDeclaration("edit") {
          NodeDeclaration("undo").actionItem("menu.Undo")
          NodeDeclaration("redo").actionItem("menu.Redo")
          NodeDeclaration("delete").actionItem("menu.DeleteRow")
          NodeDeclaration("red").actionItem(#"menu.SetColor("color": "red")"#)
          NodeDeclaration("lock").actionItem("menu.ToggleLock")
        }
        // A check item and a radio set: states of identifiers.
        NodeDeclaration("view") {
          NodeDeclaration("wrap").actionItem("menu.ToggleWrap")
          for level in [100, 150, 200] {
            NodeDeclaration("zoom\(level)").actionItem("menu.Zoom(level: \(level))")
          }
        }
      }
      NodeDeclaration("toolbar") {
        NodeDeclaration("save").actionItem("toolbar.Save").focusable()
      }
      .focusScope()
      NodeDeclaration("sidebar") {
        NodeDeclaration("list") {
          for row in model.rows { NodeDeclaration(row) }
        }
        // A click on a row selects it: the list handles its rows' clicks, given the row clicked.
        .handleAction(PointerClick.self) { _, row in
          if let index = model.rows.firstIndex(where: { $0 == row.id }) { model.selection = index }
        }
        .provideActionContext { context in context[SelectedRowKey.self] = model.selection }
        .bindKey("del", to: "Delete").bindKey("backspace", to: "Delete").bindKey("up", to: "SelectPrevious")
        .bindKey("down", to: "SelectNext").bindKey("x", to: "AskDeleteRows")
        // A sequence, as in vim; in the list it hides the window's `g`, which begins it.
        .bindKey("g g", to: "SelectFirst").bindKey("n", to: "Rename")
        .focusable()
        // Where a user keymap's `[List]` bindings apply (see `--keymap`).
        .keyContext("List")
        if model.renaming != nil {
          // A text owner: letters bound on the list and the window (d, g, r, l, w) are typed
          // here; its own `j k` leaves it, as insert mode does in vim.
          NodeDeclaration("rename").focusable().takesText()
            .bindKey("enter", to: "FinishRename").bindKey("j k", to: "FinishRename")
            .bindKey("escape", to: "CancelRename").bindKey("backspace", to: "EraseRenameText")
            .handleAction(InsertText.self) { insert in model.renaming = (model.renaming ?? "") + insert.text }
        }
      }
      // The list's Delete key asks for a generic "Delete"; the sidebar knows that means a row.
      .transformAction((any ManagedActionRequest).self) { request in
        request.identifier == "Delete" ? request.redirected(to: "DeleteRow") : request
      }
      NodeDeclaration("editor").focusable().keyContext("Editor")
      // Color swatches in a grid of two rows: the arrow keys move by their frames.
      NodeDeclaration("swatches") {
        for color in Self.swatches {
          // The arrow keys move by the frames the screen gives the swatches (see `placeSwatches`);
          // a click on one sets the color, as its key does.
          NodeDeclaration(color).focusable()
            .actionItem("swatch.SetColor(color: \(color))")
        }
      }
      .focusScope()
      .bindKey("left", to: "focus.Left").bindKey("right", to: "focus.Right")
      .bindKey("up", to: "focus.Up").bindKey("down", to: "focus.Down")
      if confirming {
        // The buttons are items: Enter at one, or a click on it, chooses it.
        NodeDeclaration("confirm") {
          NodeDeclaration("cancel").focusable().actionItem("dialog.CancelDeleteRows")
          NodeDeclaration("delete-all").focusable().actionItem("dialog.ConfirmDeleteRows")
        }
        // Focus enters the dialog when it appears, at its default button; while it holds the
        // focus, the rest of the window is inert: no click, no hover, no binding outside it.
        .focusScope(.trap, defaultFocus: "cancel", autofocus: true)
        .bindKey("escape", to: "CancelDeleteRows")
      }
    }
    // A locked document blocks edits before they reach anyone: a capture on the window. (The
    // edits' own validation says they are disabled while locked, so that menus show why.)
    .captureAction(PerformRequest.self) { request in
      let edits = ["DeleteRow", "SetColor"]
      return model.isLocked && edits.contains(where: { request.identifier.contains($0) })
        ? .handled : .unhandled
    }
    .actionManager(manager)
    // The drawing of the tree scrolls with the wheel, while there is more of it that way.
    .scrollable(.vertical) { direction in view.canScroll(direction) }
    .handleAction(PointerWheel.self) { wheel in view.scroll(by: Int(wheel.deltaY)) }
    .bindKey("ctrl+s", to: "Save").bindKey("ctrl+z", to: "Undo").bindKey("ctrl+y", to: "Redo")
    .bindKey("del", to: "DeleteRow").bindKey("l", to: "ToggleLock").bindKey("w", to: "ToggleWrap")
    .bindKey("ctrl+k 1", to: "Zoom(level: 100)").bindKey("ctrl+k 2", to: "Zoom(level: 200)")
    .bindKey("r", to: #"SetColor("color": "red")"#).bindKey("g", to: #"SetColor("color": "green")"#)
    .bindKey("b", to: #"SetColor(color: blue)"#)
    .bindKey("ctrl+k ctrl+s", to: "Save").bindKey("ctrl+k ctrl+z", to: "Undo")
  }

  /// Re-declares the tree from the document.
  func render() { tree.update(to: Self.declare(model, manager, view, confirming: isConfirming)) }

  /// The swatches' colors, in rows of three.
  static let swatches = ["red", "green", "blue", "cyan", "magenta", "yellow"]

  /// The columns a swatch takes in the swatch panel's grid.
  static let swatchWidth = 8

  /// Whether the next key is explained rather than pressed (after `?`).
  public private(set) var explainsNextKey = false

  /// The label of the focused node.
  public var focusLabel: String { tree.focusedNode?.label ?? "window" }

  /// Handles one key press and returns the log lines it added.
  @discardableResult
  public func press(_ chord: KeyChord) -> [String] { press(KeyEvent(chord)) }

  /// A key event: a press or a repeat as ``press(_:)-(KeyChord)``, with the event's alternates
  /// tried for the tree's bindings; a release goes to the tree alone (it fires only bindings that
  /// ask for releases) and is not logged.
  @discardableResult
  public func press(_ event: KeyEvent) -> [String] {
    let chord = event.chord
    guard event.kind != .release else {
      tree.firstResponder.handleKey(event)
      return []
    }
    let start = log.count
    if let query = paletteQuery {
      pressInPalette(chord, query: query)
      return Array(log[start...])
    }
    switch chord {
    case KeyChord(.character("p"), modifiers: .control):
      palette = CommandPalette(from: tree.focusedNode ?? tree.root)
      paletteQuery = ""
      log.append("palette: \(palette?.entries.count ?? 0) commands from \(focusLabel); type to filter")
    case KeyChord(.character("q")), KeyChord(.character("c"), modifiers: .control):
      wantsToQuit = true
      log.append("\(chord): quit")
    case KeyChord(.function(2)):
      showsInspector.toggle()
    case KeyChord(.character("?")) where !explainsNextKey:
      explainsNextKey = true
      log.append("why? press a key to see what it does at \(focusLabel)")
    case _ where explainsNextKey:
      explainsNextKey = false
      log.append("why \(chord) at \(focusLabel):")
      let explanation = tree.explainKey(event, at: tree.firstResponder)
      log.append(contentsOf: explanation.description.split(separator: "\n").map { "  " + $0 })
    default:
      steps = []
      let result = tree.firstResponder.handleKey(event)
      if wantsConfirmation {
        wantsConfirmation = false
        log.append(describe(result))
        openConfirmation()
        break
      }
      log.append(describe(result))
      render()
      closeConfirmationIfChosen()
      openRenameBoxIfWanted()
      closeRenameBoxIfChosen()
    }
    return Array(log[start...])
  }

  // MARK: - The command palette (ctrl+p)

  /// The text typed into the open palette; `nil` while it is closed.
  public private(set) var paletteQuery: String?
  private var palette: CommandPalette?

  /// The open palette's best matches, as shown: `chord  title`, and with `summaries`
  /// `: what it does`.
  public func paletteLines(limit: Int = 5, summaries: Bool = true) -> [String] {
    guard let palette, let query = paletteQuery else { return [] }
    return palette.matches(query).prefix(limit).map { match in
      match.entry.description + (summaries ? match.entry.summary.map { ": \($0)" } ?? "" : "")
    }
  }

  /// A key while the palette is open: text filters, Backspace erases, Enter performs the best
  /// match from the focus, Escape closes.
  private func pressInPalette(_ chord: KeyChord, query: String) {
    switch chord.key {
    case .escape:
      paletteQuery = nil
      log.append("palette closed")
    case .enter:
      paletteQuery = nil
      guard let best = palette?.matches(query).first?.entry else {
        log.append("palette '\(query)': no match")
        return
      }
      let result = tree.firstResponder.perform(best.identifier)
      log.append("palette '\(query)' -> \(best.identifier): \(result)")
      render()
    case .backspace, .delete:
      paletteQuery = String(query.dropLast())
      log.append("palette '\(paletteQuery ?? "")': " + paletteLines(limit: 3).joined(separator: " | "))
    case .character(let character) where chord.modifiers.isEmpty:
      paletteQuery = query + String(character)
      log.append("palette '\(paletteQuery ?? "")': " + paletteLines(limit: 3).joined(separator: " | "))
    default:
      break
    }
  }

  /// Pasted text: typed into the palette when it is open, into the rename box when it has the
  /// focus (as `InsertText`, never matched against bindings), otherwise logged and ignored.
  @discardableResult
  public func paste(_ text: String) -> [String] {
    let start = log.count
    if let query = paletteQuery {
      paletteQuery = query + text
      log.append("palette '\(paletteQuery ?? "")': " + paletteLines(limit: 3).joined(separator: " | "))
    } else if tree.firstResponder.takesText {
      log.append("\(tree.firstResponder.insertText(text, isPaste: true))")
      render()
    } else {
      log.append("pasted \(text.count) characters (nothing here takes text)")
    }
    return Array(log[start...])
  }

  /// An input method composing `text` at the rename box, as a toolkit reports it: the preedit
  /// grows a character at a time (a key pressed meanwhile reaches no binding), then the input
  /// method commits the text.
  @discardableResult
  public func compose(_ text: String) -> [String] {
    let start = log.count
    let owner = tree.firstResponder
    guard owner.takesText else {
      log.append("compose: nothing here takes text")
      return []
    }
    var preedit = ""
    for character in text {
      preedit.append(character)
      if let cancelled = owner.updateComposition(preedit) {
        log.append("\(cancelled.typed) cancelled (composing)")
      }
      log.append("composing '\(preedit)': \(owner.handleKey(KeyChord(.character("j"))))")
    }
    log.append("commit: \(owner.insertText(text))")
    render()
    return Array(log[start...])
  }

  /// The rename box, once the key press that asked for it is over: on the selected row, focused.
  private func openRenameBoxIfWanted() {
    guard wantsRename else { return }
    wantsRename = false
    guard let selection = model.selection, model.rows.indices.contains(selection) else {
      log.append("rename: no row selected")
      return
    }
    model.renaming = ""
    render()
    do {
      try tree.focus(id: "rename")
      log.append("rename '\(model.rows[selection])': type a name; enter or j k to finish, escape to cancel")
    } catch {
      log.append("rename: \(error)")
    }
  }

  /// Closes the rename box once its action chose to, renaming the selected row to what was typed
  /// if it kept it and it is not empty; the focus goes back to the list.
  private func closeRenameBoxIfChosen() {
    guard let keep = renameChoice, let name = model.renaming else { return }
    renameChoice = nil
    // The focus goes back before the box goes away, so that it never falls to nothing.
    do {
      try tree.focus(id: "list")
    } catch {
      log.append("rename: \(error)")
    }
    model.renaming = nil
    if keep, !name.isEmpty, let selection = model.selection, model.rows.indices.contains(selection) {
      log.append("renamed '\(model.rows[selection])' to '\(name)'")
      model.rows[selection] = name
    }
    render()
  }

  // MARK: - The footer and the inspector

  /// The key bindings in effect at the focus, as a footer shows them (nearest first, a toggle's
  /// state beside it, disabled ones marked); while a key sequence is pending, what can follow it.
  public func footerLine() -> String { footerItems().joined(separator: " · ") }

  /// The footer's items: `ctrl+s Save`, or first `ctrl+k …` and the keys that can follow.
  func footerItems() -> [String] {
    if let pending = tree.pendingKeys {
      let continuations = pending.validatedContinuations().map { entry in
        let next = entry.keys.map { KeySequence(Array($0.chords.dropFirst(pending.typed.chords.count))) }
        return "\(next?.description ?? "") \(Self.footerText(entry))"
      }
      guard let first = continuations.first else { return ["\(pending.typed) …"] }
      return ["\(pending.typed) … \(first)"] + continuations.dropFirst()
    }
    return tree.firstResponder.bindingsInEffect(includingShadowed: false).map { binding in
      "\(binding.formattedKeys(.display) ?? "") \(Self.footerText(binding))"
    }
  }

  /// `Lock [on]`, `Delete Row (off)`.
  private static func footerText(_ entry: ActionEntry) -> String {
    let state = entry.validation.state.map { " [\($0)]" } ?? ""
    return entry.title + state + (entry.validation.isEnabled ? "" : " (off)")
  }

  /// Ends a pending key sequence that waited too long, as vim does after a second: at the
  /// rename box, a prefix that is text is typed.
  public func keysTimedOut() {
    guard let result = tree.pendingKeysTimedOut() else { return }
    keysTimedOut(result)
  }

  /// Logs what the end of a pending key sequence that waited too long did (see
  /// `TerminalEvent.keysTimedOut`).
  public func keysTimedOut(_ result: KeyPressResult) {
    log.append(describe(result))
    render()
    closeRenameBoxIfChosen()
  }

  /// The focused node as an inspector shows it: its modifiers and what ViewTreeActions knows about
  /// it (bindings, item, manager).
  public func inspectorLines() -> [String] {
    let node = tree.focusedNode ?? tree.root
    guard let entry = node.snapshot(annotate: { $0.actionAnnotations }).nodes.first else { return [] }
    var lines = ["\(node.path)"] + entry.modifiers.map { "  \($0)" }
    for key in entry.annotations.keys.sorted() {
      for value in entry.annotations[key] ?? [] { lines.append("  \(key): \(value)") }
    }
    return lines
  }

  // MARK: - The confirmation dialog (x in the list)

  /// Opens "Delete rows?": declared into the tree, whose autofocus enters it at its default.
  private func openConfirmation() {
    isConfirming = true
    render()
    log.append("Delete rows? (Tab cycles inside, Enter chooses, Esc cancels) focus: \(focusLabel)")
  }

  /// Closes the dialog if one of its actions chose how (a button's item, Escape).
  func closeConfirmationIfChosen() {
    guard let deleting = dialogChoice.take() else { return }
    closeConfirmation(deleting: deleting)
  }

  /// Closes the dialog, deleting every row first if asked: the dialog leaves the tree, and focus
  /// returns to the node that opened it.
  func closeConfirmation(deleting: Bool) {
    if deleting {
      model.rows.removeAll()
      model.selection = nil
    }
    isConfirming = false
    log.append(deleting ? "deleted every row" : "cancelled")
    render()
  }

  /// One line for a key press: the binding, the path the request took, and what happened.
  private func describe(_ result: KeyPressResult) -> String {
    if case .movedFocus(let binding, .stayed) = result {
      return "\(binding.keys) -> \(binding.identifier): stayed"
    }
    if case .movedFocus(let binding, _) = result { return "\(binding.keys) -> \(binding.identifier)" }
    guard case .resolved(let binding, let performed) = result else { return "\(result)" }
    var visited: [String] = []
    var transforms: [String] = []
    for step in steps where step.nestingLevel == 0 {
      let label = step.node.label + (step.phase == .capture ? "(capture)" : "")
      if visited.last != label { visited.append(label) }
      // A transform that gave the action back unchanged is not worth a mention in the log.
      if case .transformed = step.result, "\(step.actionBefore)" != "\(step.actionAfter)" {
        transforms.append("\(step.actionBefore) -> \(step.actionAfter)")
      }
    }
    let what: String =
      switch performed {
      case .answered(.performed, _): "performed"
      case .answered(.disabled(_, let validation), _): "disabled (\(validation.title ?? "no title"))"
      case .answered(let other, _): "\(other)"
      case .unanswered(.handled(let node, _)): "blocked by \(node.label)"
      case .unanswered(let outcome): "not performed: \(outcome)"
      }
    let path = visited.joined(separator: " -> ")
    let transformed = transforms.isEmpty ? "" : " [transformed \(transforms.joined(separator: ", "))]"
    return "\(binding.keys) -> \(binding.identifier): \(path)\(transformed) => \(what)"
  }

  /// The dialog's buttons and their titles, the focused one in brackets.
  func dialogButtons() -> [(Node, String)] {
    ["cancel", "delete-all"].compactMap { id in
      tree.node(id: id).map { ($0, tree.focusedNode?.id == id ? "[\(id)]" : " \(id) ") }
    }
  }

  /// The swatches, a row of the grid at a time: each node and its cell, `swatchWidth` wide, the
  /// focused one in brackets.
  func swatchRows() -> [[(Node, String)]] {
    stride(from: 0, to: Self.swatches.count, by: 3).map { start in
      Self.swatches[start..<min(start + 3, Self.swatches.count)].compactMap { color in
        guard let node = tree.node(id: color) else { return nil }
        let text = tree.focusedNode === node ? "[\(color)]" : color
        return (node, text + String(repeating: " ", count: max(1, Self.swatchWidth - text.count)))
      }
    }
  }

  /// Whether `node` is the list's row of the selection.
  func isSelectedRow(_ node: Node) -> Bool {
    guard let selection = model.selection, model.rows.indices.contains(selection) else { return false }
    return node.parent?.id == "list" && node.id == model.rows[selection]
  }

  /// The menu items, validated against the current focus, each with its line:
  /// `[x] title  keys (disabled)`, a check mark for a check item or radio member that is on, the
  /// keys that reach the item's action.
  func menuItemLines() -> [(Node, String)] {
    tree.validateItems(in: tree.node(id: "menubar")).compactMap { item in
      guard let node = item.node else { return nil }
      let check =
        switch item.validation.state {
        case .on: "[x] "
        case .off: "[ ] "
        case .mixed: "[-] "
        case nil: ""
        }
      let keys = item.formattedKeys(.display).map { "  \($0)" } ?? ""
      return (node, check + item.title + keys + (item.validation.isEnabled ? "" : " (disabled)"))
    }
  }

  /// The menu items' lines, as the scripted tour prints them.
  public func menuLines() -> [String] { menuItemLines().map(\.1) }

  /// Declares the frames of the tree's drawing: each node's frame is the block of its lines
  /// (from its own to its last descendant's) in rows `top..<top + rows` of the screen, `width`
  /// columns wide, from tree line `firstLine` on; the window is the whole screen; nodes scrolled
  /// out of sight have none. The menus, the swatches and the dialog take the pointer where the
  /// panel draws them (see `placePanel`), so their groups have no frame and clip nothing.
  ///
  /// - Parameters:
  ///   - nodes: The nodes in the drawing's order (pre-order, inactive branches left out).
  ///   - firstLine: The first tree line shown.
  ///   - rows: How many tree lines are shown.
  ///   - top: The screen row of the first one.
  ///   - width: The columns of the tree's part of the screen.
  ///   - screen: The screen's size: the window's frame.
  func layOutTree(
    _ nodes: [Node], firstLine: Int, rows: Int, top: Int, width: Int, screen: (width: Int, height: Int)
  ) {
    // Each node's last descendant's line: the line before the next node that is not below it.
    var lastLine = Array(nodes.indices)
    var open: [Int] = []
    for (line, node) in nodes.enumerated() {
      while let parent = open.last, !node.isDescendant(of: nodes[parent]) { open.removeLast() }
      for ancestor in open { lastLine[ancestor] = line }
      open.append(line)
    }
    view.lineCount = nodes.count
    view.visibleLines = rows
    let drawnElsewhere = ["menubar", "swatches", "confirm"].compactMap { tree.node(id: $0) }
    for (line, node) in nodes.enumerated() {
      if drawnElsewhere.contains(where: { node.isDescendant(of: $0) }) {
        if drawnElsewhere.contains(where: { $0 === node }), node.id != "confirm" { node.frame(nil) }
        continue
      }
      if node === tree.root {
        node.frame(NodeFrame(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height)))
        continue
      }
      let first = max(line, firstLine)
      let last = min(lastLine[line], firstLine + rows - 1)
      node.frame(
        first > last
          ? nil
          : NodeFrame(
            x: 0, y: Double(top + first - firstLine), width: Double(width), height: Double(last - first + 1)))
    }
  }

  /// Declares the frames of what the panel draws: the swatches, the menu items and the dialog's
  /// buttons where they are drawn, the dialog over its lines; a menu item the panel does not
  /// draw (the dialog or the palette is shown instead) has none.
  func placePanel(_ placed: [(Node, NodeFrame)], dialog: NodeFrame?) {
    let framed = Set(placed.map { ObjectIdentifier($0.0) })
    tree.node(id: "menubar")?.walkSubtree { node in
      if !framed.contains(ObjectIdentifier(node)) { node.frame(nil) }
    }
    for (node, frame) in placed { node.frame(frame) }
    tree.node(id: "confirm")?.frame(dialog)
  }
}

/// How the screen shows the tree: the first line shown, which follows the focus until the wheel
/// or a click (which lands where the user saw the tree) fixes it, and how much of the tree there
/// is to scroll (set when it is laid out).
final class TreeView {
  var first = 0
  var followsFocus = true
  var lineCount = 0
  var visibleLines = 0

  /// The first line to show: centered on the focus while the view follows it; always within the
  /// drawing.
  func firstLine(focusedLine: Int, visible: Int, count: Int) -> Int {
    if followsFocus { first = focusedLine - visible / 2 }
    first = max(0, min(first, count - visible))
    return first
  }

  /// Scrolls by `lines`; the view stops following the focus.
  func scroll(by lines: Int) {
    followsFocus = false
    first = max(0, min(first + lines, lineCount - visibleLines))
  }

  /// Whether the drawing can scroll further that way.
  func canScroll(_ direction: ScrollDirection) -> Bool {
    direction == .down ? first < lineCount - visibleLines : first > 0
  }
}

/// Asks for the "Delete rows?" confirmation, or answers it: an action that tells the demo, which
/// opens or closes the dialog once the key press or the click is over; `isAvailable` says when it
/// is offered at all (the dialog's answers only while it is open).
struct AskAction: ManagedAction {
  var title: String?
  var isAvailable: () -> Bool = { true }
  let ask: () -> Void
  func validate(context: ActionContext) -> Validation { isAvailable() ? .enabled : .unavailable }
  func perform(context: ActionContext) throws { ask() }
}
