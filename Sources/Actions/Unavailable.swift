// Names this module had, kept so that code using them gets a fix-it instead of "has no member".
// Each is listed in the CHANGELOG. They are grouped by type.

extension ActionContext {
  /// Removed: a context is filled by the providers given to a perform.
  @available(*, unavailable, message: "pass the providers to ActionManager.perform(_:providers:)")
  public func beginProviding() {}

  /// Removed: a context is filled by the providers given to a perform.
  @available(*, unavailable, message: "pass the providers to ActionManager.perform(_:providers:)")
  public func endProviding() {}

  /// Removed: providers run when they are given to a perform.
  @available(*, unavailable, message: "pass the providers to ActionManager.perform(_:providers:)")
  public func collect(from providers: some Sequence<any ActionContextProvider>) {}

  /// Removed: the arguments are the identifier's.
  @available(*, unavailable, renamed: "identifier.arguments")
  public var arguments: [ActionArgument] { identifier.arguments }

  /// Removed: read the list with `values(in:as:)`.
  @available(*, unavailable, message: "use values(in:as:) and a for loop")
  public func forEach<T>(in list: String, as type: T.Type, _ body: (T) throws -> Void) rethrows {}
}

extension ActionManager {
  /// Removed: a perform builds its own context; set values in its `configure` closure.
  @available(*, unavailable, message: "use perform(_:sender:providers:configure:)")
  public func perform(context: ActionContext) -> PerformResult { fatalError() }

  /// Removed: a validation builds its own context; set values in its `configure` closure.
  @available(*, unavailable, message: "use validate(_:sender:providers:configure:)")
  public func validate(context: ActionContext) -> Validation { fatalError() }
}

extension UndoHistory {
  /// Removed: the last of ``undoNames``.
  @available(*, unavailable, renamed: "undoNames.last")
  public var undoName: String? { nil }

  /// Removed: the last of ``redoNames``.
  @available(*, unavailable, renamed: "redoNames.last")
  public var redoName: String? { nil }
}
