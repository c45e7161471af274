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
  /// How many lines the wheel scrolled the drawing of the tree from where the focus puts it.
  public var treeScroll: Int { view.scroll }
  /// Set by the `AskDeleteRows` action; the dialog opens once the key press is over.
  private var wantsConfirmation = false
  private var steps: [ActionStep] = []

  /// Builds the demo with focus on the list.
  public init() {
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
    tree.onFocusChange = { [weak self] change in
      // The drawing follows the focus again.
      self?.view.scroll = 0
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
          // A click on a row selects it.
          for (index, row) in model.rows.enumerated() {
            NodeDeclaration(row).handleAction(PointerClick.self) { _ in model.selection = index }
          }
        }
        .provideActionContext { context in context[SelectedRowKey.self] = model.selection }
        .bindKey("del", to: "Delete").bindKey("backspace", to: "Delete").bindKey("up", to: "SelectPrevious")
        .bindKey("down", to: "SelectNext").bindKey("x", to: "AskDeleteRows")
        // A sequence, as in vim; in the list it hides the window's `g`, which begins it.
        .bindKey("g g", to: "SelectFirst")
        .focusable()
      }
      // The list's Delete key asks for a generic "Delete"; the sidebar knows that means a row.
      .transformAction((any ManagedActionRequest).self) { request in
        request.identifier == "Delete" ? request.redirected(to: "DeleteRow") : request
      }
      NodeDeclaration("editor").focusable()
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
        NodeDeclaration("confirm") {
          NodeDeclaration("cancel").focusable()
          NodeDeclaration("delete-all").focusable()
        }
        // Focus enters the dialog when it appears, at its default button.
        .focusScope(.trap, defaultFocus: "cancel", autofocus: true)
      }
    }
    // A locked document blocks edits before they reach anyone: a capture on the window.
    .captureAction((any ManagedActionRequest).self) { request in
      let edits = ["DeleteRow", "SetColor"]
      return model.isLocked && edits.contains(where: { request.identifier.contains($0) })
        ? .handled : .unhandled
    }
    .actionManager(manager)
    // The drawing of the tree scrolls with the wheel, while there is more of it that way.
    .scrollable(.vertical) { direction in view.canScroll(direction) }
    .handleAction(PointerWheel.self) { wheel in view.scroll += Int(wheel.deltaY) }
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

  /// The label of the focused node.
  public var focusLabel: String { tree.focusedNode?.label ?? "window" }

  /// Handles one key press and returns the log lines it added.
  @discardableResult
  public func press(_ chord: KeyChord) -> [String] {
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
    case KeyChord(.enter) where isConfirming, KeyChord(.escape) where isConfirming:
      closeConfirmation(deleting: chord.key == .enter && tree.focusedNode?.id == "delete-all")
    default:
      steps = []
      let result = tree.firstResponder.handleKey(chord)
      if wantsConfirmation {
        wantsConfirmation = false
        log.append(describe(result))
        openConfirmation()
        break
      }
      log.append(describe(result))
      render()
    }
    return Array(log[start...])
  }

  // MARK: - The command palette (ctrl+p)

  /// The text typed into the open palette; `nil` while it is closed.
  public private(set) var paletteQuery: String?
  private var palette: CommandPalette?

  /// The open palette's best matches, as shown: `chord  title: what it does`.
  public func paletteLines(limit: Int = 5) -> [String] {
    guard let palette, let query = paletteQuery else { return [] }
    return palette.matches(query).prefix(limit).map { match in
      match.entry.description + (match.entry.summary.map { ": \($0)" } ?? "")
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

  /// Pasted text: typed into the palette when it is open, otherwise logged and ignored.
  public func paste(_ text: String) {
    if let query = paletteQuery {
      paletteQuery = query + text
      log.append("palette '\(paletteQuery ?? "")': " + paletteLines(limit: 3).joined(separator: " | "))
    } else {
      log.append("pasted \(text.count) characters (nothing here takes text)")
    }
  }

  // MARK: - The footer and the inspector

  /// The key bindings in effect at the focus, as a footer shows them (nearest first, a toggle's
  /// state beside it, disabled ones marked); while a key sequence is pending, what can follow it.
  public func footerLine() -> String {
    if let pending = tree.pendingKeys {
      return "\(pending.typed) … "
        + pending.validatedContinuations().map { entry in
          let next = entry.keys.map { KeySequence(Array($0.chords.dropFirst(pending.typed.chords.count))) }
          return "\(next?.description ?? "") \(Self.footerText(entry))"
        }.joined(separator: " · ")
    }
    return tree.firstResponder.bindingsInEffect(includingShadowed: false).map { binding in
      "\(binding.formattedKeys(.display) ?? "") \(Self.footerText(binding))"
    }.joined(separator: " · ")
  }

  /// `Lock [on]`, `Delete Row (off)`.
  private static func footerText(_ entry: ActionEntry) -> String {
    let state = entry.validation.state.map { " [\($0)]" } ?? ""
    return entry.title + state + (entry.validation.isEnabled ? "" : " (off)")
  }

  /// Cancels a pending key sequence that waited too long, as vim does after a second.
  public func keysTimedOut() {
    guard let pending = tree.cancelPendingKeys() else { return }
    log.append("\(pending.typed) cancelled (timed out)")
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

  /// The dialog's buttons, the focused one in brackets.
  public func dialogButtons() -> String {
    ["cancel", "delete-all"].map { (id: String) in tree.focusedNode?.id == id ? "[\(id)]" : " \(id) " }
      .joined(separator: " ")
  }

  /// The swatches, a line per row of the grid, each in a cell `swatchWidth` wide, the focused
  /// one in brackets.
  public func swatchLines() -> [String] {
    stride(from: 0, to: Self.swatches.count, by: 3).map { start in
      Self.swatches[start..<min(start + 3, Self.swatches.count)].map { color in
        let text = tree.focusedNode?.id == color ? "[\(color)]" : color
        return text + String(repeating: " ", count: max(1, Self.swatchWidth - text.count))
      }.joined()
    }
  }

  /// Declares the swatches' frames: the grid the screen draws them in, with its top-left corner
  /// at `column`, `row`. The arrow keys move by these frames, and the pointer hits them there.
  public func placeSwatches(column: Int, row: Int) {
    for (index, color) in Self.swatches.enumerated() {
      tree.node(id: color)?.frame(
        NodeFrame(
          x: Double(column + index % 3 * Self.swatchWidth), y: Double(row + index / 3),
          width: Double(Self.swatchWidth), height: 1))
    }
  }

  /// The menu items, validated against the current focus: `[x] title  keys (disabled)`, a check
  /// mark for a check item or radio member that is on, the keys that reach the item's action.
  public func menuLines() -> [String] {
    tree.validateItems(in: tree.node(id: "menubar")).map { item in
      let title = item.validation.title ?? item.node?.label ?? item.identifier
      let check =
        switch item.validation.state {
        case .on: "[x] "
        case .off: "[ ] "
        case .mixed: "[-] "
        case nil: ""
        }
      let keys = item.formattedKeys(.display).map { "  \($0)" } ?? ""
      return check + title + keys + (item.validation.isEnabled ? "" : " (disabled)")
    }
  }
}

/// How the screen shows the tree: how far the wheel scrolled it, and how much of it there is to
/// scroll (set when it is laid out).
final class TreeView {
  var scroll = 0
  var lineCount = 0
  var visibleLines = 0

  /// Whether the drawing can scroll further that way.
  func canScroll(_ direction: ScrollDirection) -> Bool {
    direction == .down ? scroll < lineCount - visibleLines : scroll > -lineCount
  }
}

/// Asks for the "Delete rows?" confirmation: enabled while there are rows.
struct AskAction: ManagedAction {
  let ask: () -> Void
  func perform(context: ActionContext) throws { ask() }
}
