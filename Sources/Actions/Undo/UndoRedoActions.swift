/// The `Undo` action every ``ActionManager`` registers: undoes the most recent step of the
/// context's ``UndoHistory``. Its title names the step ("Undo Delete Row"); it is disabled when
/// there is nothing to undo.
struct UndoAction: ManagedAction {
  static var defaultIdentifier: String { "Undo" }

  func validate(context: ActionContext) -> Validation {
    guard context.undoHistory.canUndo, let name = context.undoHistory.nextUndoName else {
      return Validation(isEnabled: false, title: "Undo")
    }
    return Validation(title: "Undo \(name)")
  }

  func perform(context: ActionContext) throws { try context.undoHistory.undo() }
}

/// The `Redo` action every ``ActionManager`` registers.
struct RedoAction: ManagedAction {
  static var defaultIdentifier: String { "Redo" }

  func validate(context: ActionContext) -> Validation {
    guard context.undoHistory.canRedo, let name = context.undoHistory.nextRedoName else {
      return Validation(isEnabled: false, title: "Redo")
    }
    return Validation(title: "Redo \(name)")
  }

  func perform(context: ActionContext) throws { try context.undoHistory.redo() }
}
