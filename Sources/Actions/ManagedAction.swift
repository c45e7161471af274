/// An action that an ``ActionManager`` registers under an identifier, validates and performs.
///
/// ```swift
/// struct DeleteRowAction: ManagedAction {
///   func validate(context: ActionContext) -> Validation {
///     context[SelectionKey.self].isEmpty ? .disabled : .enabled
///   }
///
///   func perform(context: ActionContext) throws {
///     let rows = context[SelectionKey.self]
///     try document.delete(rows)
///   }
/// }
///
/// try manager.register(DeleteRowAction())   // as "DeleteRow"
/// ```
///
/// (In a ViewTree, the values travelling up the tree conform to `ViewTree.Action`; that is a
/// different protocol.)
public protocol ManagedAction {
  /// The identifier the action registers under when none is given: the type's name without a
  /// trailing `Action` (`SaveDocumentAction` is `SaveDocument`; `DoActionStuff` stays as it is).
  static var defaultIdentifier: String { get }

  /// What items show for the action when its validation gives no title; `nil` (the default)
  /// leaves it to the item.
  var title: String? { get }

  /// One sentence saying what the action does, when its validation gives none; `nil` by default.
  var summary: String? { get }

  /// Decides how items for the action look in this context. The default is
  /// ``Validation/enabled``. A ``Validation/title`` or ``Validation/summary`` left `nil` is
  /// filled from ``title`` and ``summary``.
  ///
  /// - Parameter context: The same context ``perform(context:)`` would get.
  /// - Returns: Whether the action is enabled and visible, its title and state.
  func validate(context: ActionContext) -> Validation

  /// Performs the action.
  ///
  /// - Parameter context: The sender, identifier, arguments and provided values.
  /// - Throws: Any error; the manager reports it as ``PerformResult/failed(_:_:)``.
  func perform(context: ActionContext) throws
}

extension ManagedAction {
  /// The type's name without a trailing `Action`.
  public static var defaultIdentifier: String {
    Self.defaultIdentifier(forTypeName: String(describing: Self.self))
  }

  /// None: items keep their own.
  public var title: String? { nil }

  /// None.
  public var summary: String? { nil }

  /// Enabled and visible.
  public func validate(context: ActionContext) -> Validation { .enabled }

  static func defaultIdentifier(forTypeName name: String) -> String {
    let suffix = "Action"
    guard name.hasSuffix(suffix), name.count > suffix.count else { return name }
    return String(name.dropLast(suffix.count))
  }
}

/// An action whose work is asynchronous.
///
/// Perform it with `await manager.perform(...)`; the synchronous `perform` reports
/// ``ActionsError/requiresAwait(_:)`` for it. It runs on the caller's actor.
public protocol AsyncManagedAction: ManagedAction {
  /// Performs the action.
  ///
  /// - Parameter context: The sender, identifier, arguments and provided values.
  /// - Throws: Any error; the manager reports it as ``PerformResult/failed(_:_:)``.
  nonisolated(nonsending) func perform(context: ActionContext) async throws
}

extension AsyncManagedAction {
  /// Refuses: an asynchronous action must be awaited.
  ///
  /// - Throws: ``ActionsError/requiresAwait(_:)``.
  public func perform(context: ActionContext) throws {
    throw ActionsError.requiresAwait(context.identifier.name)
  }
}
