/// The undo and redo stacks of an ``ActionManager``.
///
/// Actions register a step with a name and two closures. Undoing runs the step's `undo` and moves
/// it to the redo stack; redoing runs `redo` and moves it back. Registering a new step clears the
/// redo stack. Steps registered inside a group become one step.
///
/// ```swift
/// func perform(context: ActionContext) throws {
///   let row = document.removeRow(at: index)
///   context.undoHistory.register(named: "Delete Row") {
///     document.insert(row, at: index)
///   } redo: {
///     document.removeRow(at: index)
///   }
/// }
/// ```
///
/// The manager's `Undo` and `Redo` actions validate with titles that name the step ("Undo Delete
/// Row") and are disabled when there is nothing to undo or redo.
public final class UndoHistory {
  /// One undoable step.
  struct Step {
    let name: String
    let undo: () throws -> Void
    let redo: () throws -> Void
  }

  private var undoStack: [Step] = []
  private var redoStack: [Step] = []
  private var openGroups: [(name: String, steps: [Step])] = []
  private var isRunningStep = false

  /// The greatest number of steps kept; older steps are dropped. `nil` (the default) keeps all.
  public private(set) var limit: Int?

  /// Creates an empty history.
  public init() {}

  /// Whether there is a step to undo.
  public var canUndo: Bool { !undoStack.isEmpty }
  /// Whether there is a step to redo.
  public var canRedo: Bool { !redoStack.isEmpty }
  /// The name of the step ``undo()`` would undo.
  public var undoName: String? { undoStack.last?.name }
  /// The name of the step ``redo()`` would redo.
  public var redoName: String? { redoStack.last?.name }
  /// The names of the steps that can be undone, most recent last.
  public var undoNames: [String] { undoStack.map(\.name) }
  /// The names of the steps that can be redone, the next one last.
  public var redoNames: [String] { redoStack.map(\.name) }

  /// Registers an undoable step.
  ///
  /// While a step is being undone or redone, registrations are refused (the step already knows how
  /// to reverse itself) and this returns `false`.
  ///
  /// - Parameters:
  ///   - name: What the step did, for menu titles: "Delete Row".
  ///   - undo: Reverses the step.
  ///   - redo: Does the step again.
  /// - Returns: Whether the step was registered.
  @discardableResult
  public func register(
    named name: String, undo: @escaping () throws -> Void, redo: @escaping () throws -> Void
  ) -> Bool {
    guard !isRunningStep else { return false }
    let step = Step(name: name, undo: undo, redo: redo)
    if openGroups.isEmpty {
      push(step)
    } else {
      openGroups[openGroups.count - 1].steps.append(step)
    }
    return true
  }

  /// Opens a group: steps registered until the matching ``endGroup()`` become one step with this
  /// name. Groups nest.
  public func beginGroup(named name: String) {
    openGroups.append((name, []))
  }

  /// Closes the innermost group. An empty group registers nothing.
  ///
  /// - Throws: ``ActionsError/noOpenUndoGroup`` when no group is open.
  public func endGroup() throws(ActionsError) {
    guard let group = openGroups.popLast() else { throw .noOpenUndoGroup }
    guard !group.steps.isEmpty else { return }
    let steps = group.steps
    let step = Step(
      name: group.name,
      undo: { for step in steps.reversed() { try step.undo() } },
      redo: { for step in steps { try step.redo() } })
    if openGroups.isEmpty {
      push(step)
    } else {
      openGroups[openGroups.count - 1].steps.append(step)
    }
  }

  /// Runs `body` inside a group.
  public func group<R>(named name: String, _ body: () throws -> R) rethrows -> R {
    beginGroup(named: name)
    defer { try? endGroup() }
    return try body()
  }

  /// Undoes the most recent step and moves it to the redo stack.
  ///
  /// If the step's `undo` throws, the history is left as it was and the error is rethrown.
  ///
  /// - Throws: ``ActionsError/nothingToUndo``, or what the step threw.
  public func undo() throws {
    guard let step = undoStack.last else { throw ActionsError.nothingToUndo }
    try run(step.undo)
    undoStack.removeLast()
    redoStack.append(step)
  }

  /// Redoes the most recently undone step and moves it back to the undo stack.
  ///
  /// - Throws: ``ActionsError/nothingToRedo``, or what the step threw.
  public func redo() throws {
    guard let step = redoStack.last else { throw ActionsError.nothingToRedo }
    try run(step.redo)
    redoStack.removeLast()
    undoStack.append(step)
    trimToLimit()
  }

  /// Sets ``limit``.
  ///
  /// - Parameter limit: At least 1, or `nil` for no limit.
  /// - Throws: ``ActionsError/invalidUndoLimit(_:)``.
  public func setLimit(_ limit: Int?) throws(ActionsError) {
    if let limit, limit < 1 { throw .invalidUndoLimit(limit) }
    self.limit = limit
    trimToLimit()
  }

  /// Forgets every step.
  public func removeAll() {
    undoStack = []
    redoStack = []
    openGroups = []
  }

  private func push(_ step: Step) {
    undoStack.append(step)
    redoStack = []
    trimToLimit()
  }

  private func trimToLimit() {
    if let limit, undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
  }

  private func run(_ body: () throws -> Void) throws {
    isRunningStep = true
    defer { isRunningStep = false }
    try body()
  }
}
