import Actions
import Testing

// Steps and actions that re-enter their history or manager: a step that clears the history or
// calls `undo()` while it is undone, several steps (the right one must move), undo inside an open
// group (no step may be lost), the history's bound, and an action that performs itself (the
// manager's reentrancy guard stops it before the stack overflows).

/// An action that performs its own identifier again, through its manager.
struct PerformAgainAction: ManagedAction {
  let manager: () -> ActionManager?
  let record: (PerformResult) -> Void
  func perform(context: ActionContext) throws {
    guard let manager = manager() else { return }
    record(manager.perform(context.identifier.name))
  }
}

@Suite struct ReentrancyTests {
  @Test func aStepThatClearsTheHistoryWhileBeingUndone() throws {
    let history = UndoHistory()
    history.register(named: "A", undo: { [unowned history] in history.removeAll() }, redo: {})
    try history.undo()
    #expect(history.undoNames.isEmpty)
    #expect(history.redoNames.isEmpty)
  }

  @Test func aStepThatUndoesFromInsideIsRefusedWithoutRecursing() throws {
    let history = UndoHistory()
    var inner: Result<Void, any Error>?
    history.register(
      named: "A", undo: { [unowned history] in inner = Result { try history.undo() } }, redo: {})
    try history.undo()
    #expect(throws: ActionsError.undoInProgress) { try inner?.get() }
    #expect(history.redoNames == ["A"])
  }

  @Test func withSeveralStepsTheUndoneStepIsTheOneMoved() throws {
    let history = UndoHistory()
    var ran: [String] = []
    history.register(named: "A", undo: { ran.append("A") }, redo: {})
    history.register(
      named: "B",
      undo: { [unowned history] in
        ran.append("B")
        // A nested undo is refused, so "A" stays where it is.
        _ = try? history.undo()
      }, redo: {})
    try history.undo()
    #expect(ran == ["B"])
    #expect(history.undoNames == ["A"])
    #expect(history.redoNames == ["B"])
  }

  @Test func aStepThatRegistersOrRegroupsWhileRunning() throws {
    let history = UndoHistory()
    history.register(
      named: "A",
      undo: { [unowned history] in
        history.register(named: "refused", undo: {}, redo: {})
        history.beginGroup(named: "G")
      }, redo: {})
    try history.undo()
    #expect(history.redoNames == ["A"])
    // The group the step opened is open now: undo and redo wait for it.
    #expect(throws: ActionsError.undoGroupOpen("G")) { try history.redo() }
    try history.endGroup()
    try history.redo()
    #expect(history.undoNames == ["A"])
  }

  @Test func undoWhileAGroupIsOpenIsRefusedAndLosesNothing() throws {
    let history = UndoHistory()
    history.register(named: "Before", undo: {}, redo: {})
    history.beginGroup(named: "Typing")
    history.register(named: "t", undo: {}, redo: {})
    #expect(history.canUndo == false)
    #expect(throws: ActionsError.undoGroupOpen("Typing")) { try history.undo() }
    try history.endGroup()
    #expect(history.undoNames == ["Before", "Typing"])
    try history.undo()
    try history.undo()
    #expect(history.redoNames == ["Typing", "Before"])
  }

  @Test func theUndoAndRedoActionsAreDisabledWhileAGroupIsOpen() throws {
    let manager = ActionManager()
    manager.undoHistory.register(named: "Delete", undo: {}, redo: {})
    #expect(manager.validate("Undo").isEnabled)
    manager.undoHistory.beginGroup(named: "Typing")
    #expect(manager.validate("Undo") == Validation(isEnabled: false, title: "Undo"))
  }

  @Test func aHistoryHasADefaultLimit() throws {
    let history = UndoHistory()
    #expect(history.limit == UndoHistory.defaultLimit)
    for index in 0..<(UndoHistory.defaultLimit + 10) {
      history.register(named: "\(index)", undo: {}, redo: {})
    }
    #expect(history.undoNames.count == UndoHistory.defaultLimit)
    #expect(history.undoNames.first == "10")
    try history.setLimit(nil)
    #expect(history.limit == nil)
  }

  @Test func aManagerStopsAnActionThatPerformsItselfAtItsLimit() throws {
    let manager = ActionManager()
    try manager.setReentrancyLimit(5)
    var results: [PerformResult] = []
    try manager.register(
      PerformAgainAction(manager: { [weak manager] in manager }, record: { results.append($0) }), as: "Again")
    #expect(manager.perform("Again").isPerformed)
    // Five performs ran, one inside another; the sixth was refused.
    #expect(results.count == 5)
    guard case .failed(_, ActionsError.reentrancyLimit(5)) = results.first else {
      Issue.record("expected the innermost perform to be refused, got \(String(describing: results.first))")
      return
    }
    #expect(results.dropFirst().allSatisfy { $0.isPerformed })
    #expect(throws: ActionsError.invalidReentrancyLimit(0)) { try manager.setReentrancyLimit(0) }
    // The depth is back to zero: a new perform runs.
    results.removeAll()
    #expect(manager.perform("Again").isPerformed)
  }
}
