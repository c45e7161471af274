/// A key for a single, typed value in an ``ActionContext``, like SwiftUI's `EnvironmentKey`.
///
/// ```swift
/// enum SelectionKey: ActionContextKey {
///   static let defaultValue: [Int] = []
/// }
///
/// context[SelectionKey.self] = [3, 4]
/// let rows = context[SelectionKey.self]
/// ```
public protocol ActionContextKey {
  /// The type of the key's value.
  associatedtype Value
  /// The value read when the key has not been set.
  static var defaultValue: Value { get }
}

/// The answer of ``ActionContext/lookup(_:as:)``: a value, or exactly why there is none.
public enum ContextLookup<Value> {
  /// The key holds a value of the requested type.
  case found(Value)
  /// Nothing is stored under the key, and no identifier argument has that name.
  case missing
  /// The key holds a value of another type.
  case wrongType(found: Any.Type)

  /// The value, or `nil` when it is missing or of another type.
  public var value: Value? {
    if case .found(let value) = self { return value }
    return nil
  }
}

/// Something that adds values to the context of actions performed while it is in the chain, such
/// as the focused view controller or document.
///
/// Providers run nearest first (the object closest to the sender first). A single-valued key keeps
/// the first value given to it: the caller's own values, then the nearest provider's. Lists collect
/// every provider's values, nearest first.
///
/// ```swift
/// extension DocumentController: ActionContextProvider {
///   func provide(to context: ActionContext) {
///     context[DocumentKey.self] = document
///     context.append(self, to: "observers")
///   }
/// }
/// ```
public protocol ActionContextProvider {
  /// Adds this provider's values to the context.
  ///
  /// - Parameter context: The context being built, for validation or for performing.
  func provide(to context: ActionContext)
}
