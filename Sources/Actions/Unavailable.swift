// Names this module had, kept so that code using them gets a fix-it instead of "has no member".
// Each is listed in the CHANGELOG. Each type's stubs share one extension, whose access level
// they take.

public extension ActionContext {
  /// Removed: a context is filled by the providers given to a perform.
  @available(*, unavailable, message: "pass the providers to ActionManager.perform(_:providers:)")
  func beginProviding() {}

  /// Removed: a context is filled by the providers given to a perform.
  @available(*, unavailable, message: "pass the providers to ActionManager.perform(_:providers:)")
  func endProviding() {}

  /// Removed: providers run when they are given to a perform.
  @available(*, unavailable, message: "pass the providers to ActionManager.perform(_:providers:)")
  func collect(from providers: some Sequence<any ActionContextProvider>) {}

  /// Removed: the arguments are the identifier's.
  @available(*, unavailable, renamed: "identifier.arguments")
  var arguments: [ActionArgument] { identifier.arguments }

  /// Removed: read the list with `values(in:as:)`.
  @available(*, unavailable, message: "use values(in:as:) and a for loop")
  func forEach<T>(in list: String, as type: T.Type, _ body: (T) throws -> Void) rethrows {}
}

public extension ActionManager {
  /// Removed: a perform builds its own context; set values in its `configure` closure.
  @available(*, unavailable, message: "use perform(_:sender:providers:configure:)")
  func perform(context: ActionContext) -> PerformResult { fatalError() }

  /// Removed: a validation builds its own context; set values in its `configure` closure.
  @available(*, unavailable, message: "use validate(_:sender:providers:configure:)")
  func validate(context: ActionContext) -> Validation { fatalError() }
}

public extension UndoHistory {
  /// Removed: the last of ``undoNames``.
  @available(*, unavailable, renamed: "undoNames.last")
  var undoName: String? { nil }

  /// Removed: the last of ``redoNames``.
  @available(*, unavailable, renamed: "redoNames.last")
  var redoName: String? { nil }
}
