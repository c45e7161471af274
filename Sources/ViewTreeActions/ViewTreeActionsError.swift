import Actions

/// Errors reported by the ViewTreeActions adapter.
public enum ViewTreeActionsError: Error, Hashable, CustomStringConvertible {
  /// The node is not bound to an identifier (see `Node.actionItem(_:)`).
  case notAnItem(node: String)
  /// The keys did not parse.
  case invalidChord(ParseError<InvalidKeyChord>)
  /// The node already binds the same keys, or a sequence that begins with them or that they
  /// begin (see `Node.resolveKey(_:)`): the first binding stays.
  case keysConflict(keys: KeySequence, node: String, bound: KeySequence, identifier: String)
  /// A sequence has Escape after its first key: it could never complete, since Escape cancels a
  /// pending sequence.
  case escapeInSequence(KeySequence)
  /// The identifier keys were bound to did not parse.
  case invalidIdentifier(ParseError<InvalidIdentifier>)
  /// A key context did not parse (see `ModifierHost.keyContext(_:)`).
  case invalidKeyContext(ParseError<InvalidKeyContext>)
  /// A binding takes no kind of key event, or takes releases with a sequence of keys (a release
  /// is one key's, and never continues a sequence): it could never fire.
  case invalidKeyEvents(KeySequence, KeyEvent.Kinds)

  /// A sentence that says what went wrong and where.
  public var description: String {
    switch self {
    case .notAnItem(let node):
      "'\(node)' is not an action item: bind it with actionItem(_:)"
    case .invalidChord(let error):
      "\(error)"
    case .keysConflict(let keys, let node, let bound, let identifier) where keys == bound:
      "'\(keys)' is already bound to '\(identifier)' on '\(node)'"
    case .keysConflict(let keys, let node, let bound, let identifier):
      "'\(keys)' cannot be bound on '\(node)': it overlaps '\(bound)', bound there to '\(identifier)'"
        + " (a key press could not tell which one is meant)"
    case .escapeInSequence(let keys):
      "'\(keys)' can never complete: Escape cancels a pending key sequence"
    case .invalidIdentifier(let error):
      "cannot bind a key to '\(quoted(error.text))': \(error)"
    case .invalidKeyContext(let error):
      "\(error)"
    case .invalidKeyEvents(let keys, let kinds) where kinds.isEmpty:
      "'\(keys)' can never fire: the binding takes no kind of key event"
    case .invalidKeyEvents(let keys, _):
      "'\(keys)' can never fire on a release: a release is one key's, and never continues a sequence"
    }
  }
}
