/// A value that a node triggers and that travels up the tree until a node handles it.
///
/// `Action` is a marker protocol: any struct, enum or class can be an action. Small value types
/// (up to three words) travel without a heap allocation.
///
/// ```swift
/// struct Save: Action {}
/// enum EditorAction: Action { case delete(row: Int), insert(String) }
/// ```
public protocol Action {
  /// Whether nobody handling an action of this type is worth a report: `true` unless the type
  /// says otherwise. An action whose type says `false` is a notification that most nodes ignore
  /// (every ``PointerAction``, such as a pointer move over a label): unhandled, it reaches neither
  /// ``NodeTree/onUnhandled`` nor the error ``NodeTree/requiresHandling`` makes.
  static var expectsHandler: Bool { get }
}

extension Action {
  /// Actions expect a handler, unless their type says otherwise.
  public static var expectsHandler: Bool { true }

  /// `expectsHandler` of this value's type. Called on an existential, it opens it (its type is
  /// in the box) where `type(of:)` would ask the runtime for the dynamic type.
  var typeExpectsHandler: Bool { Self.expectsHandler }
}

/// What a ``Node/receiveAction(_:)`` or ``Node/captureAction(_:)`` modifier decided.
public enum ActionDisposition: Equatable, Sendable {
  /// The action is handled here: no further modifier on this node or above runs.
  case handled
  /// The action goes on to the next modifier.
  case unhandled
}
