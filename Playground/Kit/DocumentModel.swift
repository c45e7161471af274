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
  /// While locked, edits are blocked by a capture modifier on the window.
  public var isLocked = false

  /// Creates the demo document.
  public init() {}
}

/// The selected row, provided by the list node.
enum SelectedRowKey: ActionContextKey {
  static let defaultValue: Int? = nil
}

struct SaveAction: ManagedAction {
  let model: DocumentModel
  func perform(context: ActionContext) throws { model.saves += 1 }
}

struct DeleteRowAction: ManagedAction {
  let model: DocumentModel

  func validate(context: ActionContext) -> Validation {
    context[SelectedRowKey.self] == nil
      ? Validation(isEnabled: false, title: "Delete Row") : Validation(title: "Delete Row")
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
  func validate(context: ActionContext) -> Validation {
    Validation(title: model.isLocked ? "Unlock" : "Lock", state: model.isLocked ? .on : .off)
  }
  func perform(context: ActionContext) throws { model.isLocked.toggle() }
}

struct MoveSelectionAction: ManagedAction {
  let model: DocumentModel
  let step: Int
  func perform(context: ActionContext) throws {
    guard !model.rows.isEmpty else { return }
    let current = model.selection ?? 0
    model.selection = max(0, min(model.rows.count - 1, current + step))
  }
}
