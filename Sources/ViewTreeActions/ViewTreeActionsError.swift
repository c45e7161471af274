import Actions

/// Errors reported by the ViewTreeActions adapter.
public enum ViewTreeActionsError: Error, Hashable, CustomStringConvertible {
  /// The node is not bound to an identifier (see `Node.actionItem(_:)`).
  case notAnItem(node: String)
  /// The key chord did not parse.
  case invalidChord(KeyChordParseError)
  /// The chord is already bound on this node.
  case chordAlreadyBound(chord: KeyChord, node: String, identifier: String)
  /// The identifier a chord was bound to did not parse.
  case invalidIdentifier(String, reason: String)

  /// A sentence that says what went wrong and where.
  public var description: String {
    switch self {
    case .notAnItem(let node):
      "'\(node)' is not an action item: bind it with actionItem(_:)"
    case .invalidChord(let error):
      "\(error)"
    case .chordAlreadyBound(let chord, let node, let identifier):
      "'\(chord)' is already bound to '\(identifier)' on '\(node)'"
    case .invalidIdentifier(let identifier, let reason):
      "cannot bind a key to '\(quoted(identifier))': \(reason)"
    }
  }
}
