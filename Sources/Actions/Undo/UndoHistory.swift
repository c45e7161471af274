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
///
/// Steps may do anything while they run, this history included: a step is taken off its stack
/// before it runs (and put back if it throws), registering is refused, calling ``undo()`` or
/// ``redo()`` throws ``ActionsError/undoInProgress``, and ``removeAll()`` forgets the running step
/// too. Undo and redo are refused while a group is open (``ActionsError/undoGroupOpen(_:)``): the
/// group's steps are not a step yet.
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
  /// Advances on every `removeAll()`, so that a step that cleared the history is not put back.
  private var clearings = 0

  /// The number of steps a history keeps unless told otherwise.
  public static let defaultLimit = 100

  /// The greatest number of steps kept on each stack; older steps are dropped. ``defaultLimit``
  /// unless set; `nil` keeps all (memory then grows with every step).
  public private(set) var limit: Int? = UndoHistory.defaultLimit

  /// Creates an empty history that keeps ``defaultLimit`` steps.
  public init() {}

  /// Whether ``undo()`` would run a step now: there is one, no step is running and no group is
  /// open.
  public var canUndo: Bool { !undoStack.isEmpty && !isRunningStep && openGroups.isEmpty }
  /// Whether ``redo()`` would run a step now.
  public var canRedo: Bool { !redoStack.isEmpty && !isRunningStep && openGroups.isEmpty }
  /// The names of the steps that can be undone, most recent (the one ``undo()`` would undo) last.
  public var undoNames: [String] { undoStack.map(\.name) }
  /// The name of the step ``undo()`` would undo (`undoNames.last`, without building the list).
  var nextUndoName: String? { undoStack.last?.name }
  /// The names of the steps that can be redone, the next one (the one ``redo()`` would redo) last.
  public var redoNames: [String] { redoStack.map(\.name) }
  /// The name of the step ``redo()`` would redo.
  var nextRedoName: String? { redoStack.last?.name }

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
  /// The step leaves the undo stack before it runs. If its `undo` throws, it goes back and the
  /// error is rethrown; if it cleared the history (``removeAll()``), it is gone.
  ///
  /// - Throws: ``ActionsError/nothingToUndo``, ``ActionsError/undoInProgress`` when called by a
  ///   running step, ``ActionsError/undoGroupOpen(_:)`` while a group is open, or what the step threw.
  public func undo() throws {
    try checkCanRun()
    guard let step = undoStack.popLast() else { throw ActionsError.nothingToUndo }
    try run(step, step.undo, from: \.undoStack, to: \.redoStack)
  }

  /// Redoes the most recently undone step and moves it back to the undo stack.
  ///
  /// - Throws: ``ActionsError/nothingToRedo``, ``ActionsError/undoInProgress``,
  ///   ``ActionsError/undoGroupOpen(_:)``, or what the step threw.
  public func redo() throws {
    try checkCanRun()
    guard let step = redoStack.popLast() else { throw ActionsError.nothingToRedo }
    try run(step, step.redo, from: \.redoStack, to: \.undoStack)
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

  /// Forgets every step, open groups and a running step included.
  public func removeAll() {
    undoStack = []
    redoStack = []
    openGroups = []
    clearings += 1
  }

  private func push(_ step: Step) {
    undoStack.append(step)
    redoStack = []
    trimToLimit()
  }

  private func trimToLimit() {
    guard let limit else { return }
    if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
    if redoStack.count > limit { redoStack.removeFirst(redoStack.count - limit) }
  }

  private func checkCanRun() throws(ActionsError) {
    if isRunningStep { throw .undoInProgress }
    if !openGroups.isEmpty { throw .undoGroupOpen(openGroups[openGroups.count - 1].name) }
  }

  /// Runs `body` of `step`, which was taken off the stack at `source`; then moves it to the stack
  /// at `destination`, or back to `source` if `body` threw, unless the history was cleared
  /// meanwhile.
  private func run(
    _ step: Step, _ body: () throws -> Void, from source: ReferenceWritableKeyPath<UndoHistory, [Step]>,
    to destination: ReferenceWritableKeyPath<UndoHistory, [Step]>
  ) throws {
    let clearingsBefore = clearings
    isRunningStep = true
    defer { isRunningStep = false }
    do {
      try body()
    } catch {
      if clearings == clearingsBefore { self[keyPath: source].append(step) }
      throw error
    }
    if clearings == clearingsBefore {
      self[keyPath: destination].append(step)
      trimToLimit()
    }
  }
}
