/// What the modifier methods attach to: a live ``Node``, or a ``NodeDeclaration`` that a node is
/// later updated to.
///
/// Every modifier (`handleAction`, `receiveAction`, `transformAction`, `captureAction`,
/// `onAction`, `liftAction`, `catchError`, `respond`, `requiresHandling(_:)`) is declared once, on this
/// protocol, so a node and a declaration take exactly the same syntax. On a node, a modifier is
/// attached at once and the node is returned; on a declaration, it is recorded and the extended
/// declaration is returned.
///
/// The library provides the only two conforming types; conform nothing else.
public protocol ModifierHost {
  /// Returns this host with `modifier` added after the ones it has.
  ///
  /// - Parameter modifier: The modifier, made by one of the modifier methods.
  /// - Returns: For a ``Node``, the node itself, changed; for a ``NodeDeclaration``, a copy with
  ///   the modifier.
  consuming func adding(_ modifier: consuming DeclaredModifier) -> Self

  /// Whether every action triggered from this node or below must be handled (see
  /// ``Node/requiresHandling``); ``requiresHandling(_:)`` sets it in a chain of modifiers.
  var requiresHandling: Bool { get set }

  /// Whether a modifier of `kind` matching exactly `type` is already there.
  ///
  /// - Parameters:
  ///   - kind: The kind of modifier.
  ///   - type: The type it matches.
  /// - Returns: `true` if one is.
  func hasModifier(_ kind: ModifierKind, matching type: Any.Type) -> Bool

  /// Returns this host without its modifiers of `kind` matching exactly `type`.
  ///
  /// - Parameters:
  ///   - kind: The kind of modifier.
  ///   - type: The type they match.
  /// - Returns: For a ``Node``, the node itself, changed; for a ``NodeDeclaration``, a copy.
  consuming func removingModifiers(_ kind: ModifierKind, matching type: Any.Type) -> Self

  /// The value attached (or declared) for `key`, or its default value.
  subscript<Key: NodeAttachmentKey>(attachment key: Key.Type) -> Key.Value { get }

  /// Returns this host with `value` attached for `key` (see ``NodeAttachmentKey``).
  ///
  /// On a declaration, the value is attached when a node is updated to it; an update also removes
  /// the attachments the node's previous declaration made and this one does not.
  ///
  /// - Parameters:
  ///   - key: The attachment's key.
  ///   - value: The value.
  /// - Returns: For a ``Node``, the node itself, changed; for a ``NodeDeclaration``, a copy.
  consuming func settingAttachment<Key: NodeAttachmentKey>(_ key: Key.Type, to value: Key.Value) -> Self

  /// Returns this host with the value for `key` changed by `body` where it is kept: a value that
  /// grows one modifier at a time (a list of key bindings) grows without being copied, where
  /// reading it and setting it again copies it each time.
  ///
  /// While `body` runs, the host reads `key`'s default value.
  ///
  /// - Parameters:
  ///   - key: The attachment's key.
  ///   - body: Changes the value (the key's default value when none is attached).
  /// - Returns: For a ``Node``, the node itself, changed; for a ``NodeDeclaration``, a copy.
  consuming func updatingAttachment<Key: NodeAttachmentKey>(
    _ key: Key.Type, _ body: (inout Key.Value) -> Void
  ) -> Self

  /// Returns this host with `problem` reported: a mistake in a declaration, such as a second
  /// responder for one request type or a key chord that does not parse, which the modifier
  /// method that found it did not apply.
  ///
  /// Modifier methods never throw, so that they fit a `body` that cannot; they report instead. A
  /// node keeps its problems in ``Node/problems`` and passes each to its tree's
  /// ``NodeTree/onProblem``; a declaration keeps them in ``NodeDeclaration/problems`` until a node
  /// is updated to it.
  ///
  /// - Parameter problem: What went wrong.
  /// - Returns: For a ``Node``, the node itself; for a ``NodeDeclaration``, a copy.
  consuming func reporting(_ problem: any Error) -> Self
}

/// One modifier as a modifier method made it: its kind, the type it matches and its closure. Only
/// the modifier methods create them.
///
/// A node stores each with its serial and what the dispatcher tests (`ModifierEntry`); an update
/// whose declaration has the node's shapes swaps only the closures.
public struct DeclaredModifier {
  // The small field last: the struct packs into fewer bytes.
  /// The type a typed modifier matches; `nil` for untyped modifiers.
  let matchType: Any.Type?
  /// The type a lift produces, for descriptions.
  let outputType: Any.Type?
  var body: ModifierBody
  let kind: ModifierKind

  @usableFromInline
  init(kind: ModifierKind, matchType: Any.Type?, outputType: Any.Type?, body: ModifierBody) {
    self.kind = kind
    self.matchType = matchType
    self.outputType = outputType
    self.body = body
  }

}

extension ModifierHost {
  /// Adds the modifier a modifier method made.
  @inlinable
  consuming func attach(
    _ kind: ModifierKind, matching matchType: Any.Type?, output: Any.Type? = nil, body: ModifierBody
  ) -> Self {
    adding(DeclaredModifier(kind: kind, matchType: matchType, outputType: output, body: body))
  }
}
