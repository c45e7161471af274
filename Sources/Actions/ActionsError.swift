/// Errors reported by ``ActionManager`` and ``UndoHistory``.
public enum ActionsError: Error, Hashable, CustomStringConvertible {
  /// An action is already registered under this identifier.
  case duplicateIdentifier(String)
  /// The identifier cannot be registered: it must be a bare name, without a prefix or arguments.
  case invalidRegistrationIdentifier(String, ParseError<InvalidIdentifier>?)
  /// No action is registered under this identifier.
  case notRegistered(String)
  /// The action is asynchronous: perform it with `await manager.perform(...)`.
  case requiresAwait(String)
  /// ``UndoHistory/endGroup()`` was called with no group open.
  case noOpenUndoGroup
  /// There is nothing to undo.
  case nothingToUndo
  /// There is nothing to redo.
  case nothingToRedo
  /// An undo limit must be at least 1.
  case invalidUndoLimit(Int)
  /// ``UndoHistory/undo()`` or ``UndoHistory/redo()`` was called by a step that is being undone or
  /// redone.
  case undoInProgress
  /// ``UndoHistory/undo()`` or ``UndoHistory/redo()`` was called while the named group was open.
  case undoGroupOpen(String)
  /// A reentrancy limit must be at least 1.
  case invalidReentrancyLimit(Int)
  /// The manager was already performing this deep, one perform inside another (see
  /// ``ActionManager/reentrancyLimit``).
  case reentrancyLimit(Int)

  /// A sentence that says what went wrong.
  public var description: String {
    switch self {
    case .duplicateIdentifier(let identifier):
      "an action is already registered as '\(identifier)'"
    case .invalidRegistrationIdentifier(let identifier, let error):
      "'\(identifier)' cannot be registered: use a bare name without a prefix or arguments"
        + (error.map { "\n\($0)" } ?? "")
    case .notRegistered(let identifier):
      "no action is registered as '\(identifier)'"
    case .requiresAwait(let identifier):
      "'\(identifier)' is asynchronous: perform it with 'await manager.perform(...)'"
    case .noOpenUndoGroup:
      "endGroup() was called with no undo group open"
    case .nothingToUndo:
      "there is nothing to undo"
    case .nothingToRedo:
      "there is nothing to redo"
    case .invalidUndoLimit(let limit):
      "the undo limit must be at least 1, not \(limit)"
    case .undoInProgress:
      "cannot undo or redo from inside a step that is being undone or redone"
    case .undoGroupOpen(let name):
      "cannot undo or redo while the undo group '\(name)' is open: end it first"
    case .invalidReentrancyLimit(let limit):
      "the reentrancy limit must be at least 1, not \(limit)"
    case .reentrancyLimit(let limit):
      "the manager is already performing \(limit) actions inside one another (its reentrancy limit)"
    }
  }
}
