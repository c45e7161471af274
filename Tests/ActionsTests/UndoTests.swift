import Actions
import Testing

/// Deletes the last row of a shared list and registers how to undo it.
struct DeleteLastRowAction: ManagedAction {
  let rows: Rows
  func validate(context: ActionContext) -> Validation { rows.values.isEmpty ? .disabled : .enabled }
  func perform(context: ActionContext) throws {
    guard let row = rows.values.popLast() else { return }
    let rows = rows
    context.undoHistory.register(named: "Delete Row") {
      rows.values.append(row)
    } redo: {
      rows.values.removeLast()
    }
  }
}

final class Rows {
  var values: [String]
  init(_ values: [String]) { self.values = values }
}

@Suite struct UndoTests {
  @Test func undoAndRedoAreActionsWhoseTitlesNameTheStep() throws {
    let manager = ActionManager()
    let rows = Rows(["a", "b"])
    try manager.register(DeleteLastRowAction(rows: rows))
    #expect(manager.validate("menu.Undo") == Validation(isEnabled: false, title: "Undo"))
    #expect(manager.validate("menu.Redo") == Validation(isEnabled: false, title: "Redo"))
    #expect(manager.perform("Undo").error as? ActionsError == nil)
    guard case .disabled = manager.perform("Undo") else {
      Issue.record("Undo with nothing to undo must be disabled")
      return
    }

    manager.perform("DeleteLastRow")
    #expect(rows.values == ["a"])
    #expect(manager.validate("Undo") == Validation(title: "Undo Delete Row"))
    #expect(manager.perform("Edit.Undo").isPerformed)
    #expect(rows.values == ["a", "b"])
    #expect(manager.validate("Redo") == Validation(title: "Redo Delete Row"))
    #expect(manager.validate("Undo").isEnabled == false)
    #expect(manager.perform("Redo").isPerformed)
    #expect(rows.values == ["a"])
  }

  @Test func aNewStepClearsTheRedoStack() throws {
    let history = UndoHistory()
    var value = 0
    history.register(named: "One", undo: { value -= 1 }, redo: { value += 1 })
    try history.undo()
    #expect(history.canRedo)
    history.register(named: "Two", undo: {}, redo: {})
    #expect(history.canRedo == false)
    #expect(history.undoNames == ["Two"])
    #expect(value == -1)
  }

  @Test func groupsUndoAsOneStepInReverseOrder() throws {
    let history = UndoHistory()
    var log: [String] = []
    history.group(named: "Paste") {
      history.register(named: "insert a", undo: { log.append("undo a") }, redo: { log.append("redo a") })
      history.beginGroup(named: "inner")
      history.register(named: "insert b", undo: { log.append("undo b") }, redo: { log.append("redo b") })
      try? history.endGroup()
    }
    #expect(history.undoNames == ["Paste"])
    try history.undo()
    try history.redo()
    #expect(log == ["undo b", "undo a", "redo a", "redo b"])
    #expect(throws: ActionsError.noOpenUndoGroup) { try history.endGroup() }
  }

  @Test func theLimitDropsTheOldestSteps() throws {
    let history = UndoHistory()
    #expect(throws: ActionsError.invalidUndoLimit(0)) { try history.setLimit(0) }
    try history.setLimit(2)
    for name in ["1", "2", "3"] { history.register(named: name, undo: {}, redo: {}) }
    #expect(history.undoNames == ["2", "3"])
  }

  @Test func aFailingUndoLeavesTheHistoryAsItWas() throws {
    struct Broken: Error {}
    let history = UndoHistory()
    history.register(named: "Fragile", undo: { throw Broken() }, redo: {})
    #expect(throws: Broken.self) { try history.undo() }
    #expect(history.undoNames == ["Fragile"])
    #expect(history.canRedo == false)
  }

  @Test func registrationsWhileUndoingAreRefused() throws {
    let history = UndoHistory()
    var refused = false
    history.register(
      named: "Outer",
      undo: { [unowned history] in refused = !history.register(named: "nested", undo: {}, redo: {}) },
      redo: {})
    try history.undo()
    #expect(refused)
    #expect(history.redoNames == ["Outer"])
    #expect(throws: ActionsError.nothingToUndo) { try history.undo() }
  }
}
