import Actions

/// The document the demo edits: a list of rows, a selection, a color, and a lock.
public final class DocumentModel {
  /// The rows shown in the sidebar list.
  public var rows = ["Introduction", "Methods", "Results", "Discussion", "References"]
  /// The selected row in the list, if any.
  public var selection: Int? = 1
  /// The editor's text color.
  public var color = "default"
  /// How many times the document was saved.
  public var saves = 0
  /// While locked, edits are disabled, and blocked by a capture modifier on the window.
  public var isLocked = false
  /// Whether the editor wraps long lines: a check item.
  public var wraps = false
  /// The editor's zoom, in percent: a radio set of three items.
  public var zoom = 100
  /// The new name typed into the rename box, while it is open (`n` in the list).
  public var renaming: String?

  /// Creates the demo document.
  public init() {}
}

/// The selected row, provided by the list node.
enum SelectedRowKey: ActionContextKey {
  static let defaultValue: Int? = nil
}

struct SaveAction: ManagedAction {
  let model: DocumentModel
  var title: String? { "Save" }
  var summary: String? { "Writes the document to disk." }
  func perform(context: ActionContext) throws { model.saves += 1 }
}

struct DeleteRowAction: ManagedAction {
  let model: DocumentModel
  var summary: String? { "Removes the selected row; Undo puts it back." }

  func validate(context: ActionContext) -> Validation {
    Validation(isEnabled: context[SelectedRowKey.self] != nil && !model.isLocked, title: "Delete Row")
  }

  func perform(context: ActionContext) throws {
    guard let index = context[SelectedRowKey.self], model.rows.indices.contains(index) else { return }
    let model = model
    let row = model.rows.remove(at: index)
    model.selection = model.rows.isEmpty ? nil : min(index, model.rows.count - 1)
    context.undoHistory.register(named: "Delete Row") {
      model.rows.insert(row, at: index)
      model.selection = index
    } redo: {
      model.rows.remove(at: index)
      model.selection = model.rows.isEmpty ? nil : min(index, model.rows.count - 1)
    }
  }
}

struct SetColorAction: ManagedAction {
  let model: DocumentModel
  var title: String? { "Set Color" }
  var summary: String? { "Changes the editor's text color." }

  func validate(context: ActionContext) -> Validation { model.isLocked ? .disabled : .enabled }

  func perform(context: ActionContext) throws {
    let model = model
    let old = model.color
    let new = context.value(forKey: "color", as: String.self) ?? "default"
    model.color = new
    context.undoHistory.register(named: "Set Color") {
      model.color = old
    } redo: {
      model.color = new
    }
  }
}

struct ToggleLockAction: ManagedAction {
  let model: DocumentModel
  var summary: String? { "Blocks edits to the document until unlocked." }
  func validate(context: ActionContext) -> Validation {
    Validation(title: "Lock", state: model.isLocked ? .on : .off)
  }
  func perform(context: ActionContext) throws { model.isLocked.toggle() }
}

/// A check item: on while the editor wraps lines.
struct ToggleWrapAction: ManagedAction {
  let model: DocumentModel
  var title: String? { "Wrap Lines" }
  var summary: String? { "Wraps long lines at the editor's edge." }
  func validate(context: ActionContext) -> Validation { Validation(state: model.wraps ? .on : .off) }
  func perform(context: ActionContext) throws { model.wraps.toggle() }
}

/// A radio set: one identifier per member (`Zoom(level: 150)`), each on while it is the zoom.
struct ZoomAction: ManagedAction {
  struct NoLevel: Error {}
  let model: DocumentModel
  var summary: String? { "Sets the editor's zoom." }

  func validate(context: ActionContext) -> Validation {
    guard case .int(let level)? = context.identifier["level"] else { return .unavailable }
    return Validation(title: "Zoom \(level)%", state: level == model.zoom ? .on : .off)
  }

  func perform(context: ActionContext) throws {
    guard case .int(let level)? = context.identifier["level"] else { throw NoLevel() }
    model.zoom = level
  }
}

struct MoveSelectionAction: ManagedAction {
  let model: DocumentModel
  let step: Int
  var summary: String? { "Moves the selection in the list." }
  func perform(context: ActionContext) throws {
    guard !model.rows.isEmpty else { return }
    let current = model.selection ?? 0
    model.selection = max(0, min(model.rows.count - 1, current + step))
  }
}
