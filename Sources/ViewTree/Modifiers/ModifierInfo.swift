/// The kinds of modifier a node can carry.
public enum ModifierKind: String, Hashable, Sendable, CaseIterable {
  /// ``Node/captureAction(_:)``: runs in the capture phase, root to target.
  case capture = "captureAction"
  /// ``Node/receiveAction(_:)``: decides handled or unhandled in the bubble phase.
  case receive = "receiveAction"
  /// ``Node/transformAction(_:)``: replaces the action in the bubble phase.
  case transform = "transformAction"
  /// ``Node/liftAction(_:)``: a typed transform that embeds a child action in a parent action.
  case lift = "liftAction"
  /// ``Node/handleAction(_:)``: handles the action and stops it.
  case handle = "handleAction"
  /// `Node.respond(to:with:)`: answers a ``Request`` and stops it.
  case respond = "respond"
  /// ``Node/onAction(_:)``: observes the action without changing or stopping it.
  case observe = "onAction"
  /// ``Node/catchError(_:)``: catches errors thrown by modifiers at or below this node.
  case catchError = "catchError"
}

/// Identifies one modifier attached to a node, for ``Node/removeModifier(_:)``.
///
/// An identifier is unique among the modifiers a node has ever carried; two nodes may number
/// their modifiers alike.
public struct ModifierID: Hashable, Sendable, CustomStringConvertible {
  /// The modifier's serial: unique among the modifiers of one node, never reused on it.
  let serial: UInt64

  init(serial: UInt64) { self.serial = serial }

  /// The serial prefixed with `#`.
  public var description: String { "#\(serial)" }
}

/// A description of a modifier attached to a node.
public struct ModifierInfo: Hashable, CustomStringConvertible {
  /// The modifier's identifier, for ``Node/removeModifier(_:)``.
  public let id: ModifierID
  /// The kind of modifier.
  public let kind: ModifierKind
  /// The action (or, for ``ModifierKind/catchError``, error) type a typed modifier matches; `nil`
  /// when the modifier sees every action.
  public let actionType: Any.Type?
  /// The type a ``ModifierKind/lift`` modifier produces; `nil` for other kinds.
  public let outputType: Any.Type?

  init(of id: ModifierID, kind: ModifierKind, actionType: Any.Type?, outputType: Any.Type?) {
    self.id = id
    self.kind = kind
    self.actionType = actionType
    self.outputType = outputType
  }

  /// The modifier as it reads in code, such as `handleAction(Save)` or
  /// `liftAction(MovieAction -> AppAction)`.
  public var description: String {
    switch (actionType, outputType) {
    case (nil, _): kind.rawValue
    case (let input?, nil): "\(kind.rawValue)(\(input))"
    case (let input?, let output?): "\(kind.rawValue)(\(input) -> \(output))"
    }
  }

  /// Two descriptions are equal when they describe the same modifier.
  public static func == (lhs: ModifierInfo, rhs: ModifierInfo) -> Bool { lhs.id == rhs.id }

  /// Hashes the modifier's identifier.
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
