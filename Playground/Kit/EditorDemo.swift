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
  public private(set) var log: [String] = []
  /// Whether `q` was pressed.
  public private(set) var wantsToQuit = false

  /// The nodes Tab moves focus between, in order.
  let focusOrder = ["list", "editor", "toolbar"]
  private var steps: [ActionStep] = []

  /// Builds the demo with focus on the list.
  public init() {
    let model = model
    try! manager.register([
      SaveAction(model: model), DeleteRowAction(model: model), SetColorAction(model: model),
      ToggleLockAction(model: model),
    ])
    try! manager.register(MoveSelectionAction(model: model, step: -1), as: "SelectPrevious")
    try! manager.register(MoveSelectionAction(model: model, step: 1), as: "SelectNext")
    tree = NodeTree(declaring: Self.declare(model, manager))
    try! tree.focus(id: "list")
    tree.stepObserver = { [weak self] step in self?.steps.append(step) }
  }

  /// The whole tree, declared from the document as it is now: the demo re-declares it after
  /// every key press, as a declarative toolkit re-evaluates its views, and the live tree follows
  /// (the list's rows come and go with the document; focus and everything else stays).
  static func declare(_ model: DocumentModel, _ manager: ActionManager) -> NodeDeclaration {
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
      }
      NodeDeclaration("toolbar") {
        NodeDeclaration("save").actionItem("toolbar.Save")
      }
      NodeDeclaration("sidebar") {
        NodeDeclaration("list") {
          for row in model.rows { NodeDeclaration(row) }
        }
        .provideActionContext { context in context[SelectedRowKey.self] = model.selection }
        .bindKey("del", to: "Delete").bindKey("backspace", to: "Delete").bindKey("up", to: "SelectPrevious")
        .bindKey("down", to: "SelectNext")
      }
      // The list's Delete key asks for a generic "Delete"; the sidebar knows that means a row.
      .transformAction(ManagedActionRequest.self) { request in
        request.identifier == "Delete" ? request.redirected(to: "DeleteRow") : request
      }
      NodeDeclaration("editor")
    }
    // A locked document blocks edits before they reach anyone: a capture on the window.
    .captureAction(ManagedActionRequest.self) { request in
      let edits = ["DeleteRow", "SetColor"]
      return model.isLocked && edits.contains(where: { request.identifier.contains($0) })
        ? .handled : .unhandled
    }
    .actionManager(manager)
    .bindKey("ctrl+s", to: "Save").bindKey("ctrl+z", to: "Undo").bindKey("ctrl+y", to: "Redo")
    .bindKey("del", to: "DeleteRow").bindKey("l", to: "ToggleLock")
    .bindKey("r", to: #"SetColor("color": "red")"#).bindKey("g", to: #"SetColor("color": "green")"#)
    .bindKey("b", to: #"SetColor(color: blue)"#)
  }

  /// Re-declares the tree from the document.
  func render() { tree.update(to: Self.declare(model, manager)) }

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
    case KeyChord(.tab): moveFocus(by: 1)
    case KeyChord(.tab, modifiers: .shift): moveFocus(by: -1)
    case KeyChord(.character("q")), KeyChord(.character("c"), modifiers: .control):
      wantsToQuit = true
      log.append("\(chord): quit")
    default:
      steps = []
      let result = tree.firstResponder.handleKey(chord)
      log.append(describe(result))
      render()
    }
    return Array(log[start...])
  }

  // MARK: - The command palette (ctrl+p)

  /// The text typed into the open palette; `nil` while it is closed.
  public private(set) var paletteQuery: String?
  private var palette: CommandPalette?

  /// The open palette's best matches, as shown: `title  chord`.
  public func paletteLines(limit: Int = 5) -> [String] {
    guard let palette, let query = paletteQuery else { return [] }
    return palette.matches(query).prefix(limit).map(\.entry.description)
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

  /// The key bindings in effect at the focus, as a footer shows them (nearest first, disabled
  /// ones marked).
  public func footerLine() -> String {
    tree.firstResponder.bindingsInEffect(includingShadowed: false).map { binding in
      "\(binding.chord?.description ?? "") \(binding.title)"
        + (binding.validation.isEnabled ? "" : " (off)")
    }.joined(separator: " · ")
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

  private func moveFocus(by offset: Int) {
    let index = focusOrder.firstIndex(of: focusLabel) ?? 0
    let next = focusOrder[(index + offset + focusOrder.count) % focusOrder.count]
    try? tree.focus(id: next)
    log.append("focus -> \(next)")
  }

  /// One line for a key press: the binding, the path the request took, and what happened.
  private func describe(_ result: KeyPressResult) -> String {
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
      case .notPerformed(.handled(let node, _)): "blocked by \(node.label)"
      case .notPerformed(let outcome): "not performed: \(outcome)"
      }
    let path = visited.joined(separator: " -> ")
    let transformed = transforms.isEmpty ? "" : " [transformed \(transforms.joined(separator: ", "))]"
    return "\(binding.chord) -> \(binding.identifier): \(path)\(transformed) => \(what)"
  }

  /// The menu items, validated against the current focus: `title (state)`.
  public func menuLines() -> [String] {
    tree.validateItems(in: tree.node(id: "menubar")).map { item in
      let title = item.validation.title ?? item.node?.label ?? item.identifier
      let state = item.validation.isEnabled ? "" : " (disabled)"
      let check = item.validation.state == .on ? " [on]" : ""
      return "\(title)\(check)\(state)"
    }
  }
}
