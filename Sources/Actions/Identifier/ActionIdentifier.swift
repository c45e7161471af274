/// A parsed action identifier: `{prefix.}name{(arguments)}`.
///
/// The prefix (any text, dots included) says where the identifier came from and is otherwise
/// ignored; the last dot-separated component before `(` names the action. Arguments are `key: value`
/// pairs; keys and values may be JSON strings or bare words, and numbers and `true`/`false` keep
/// their types:
///
/// ```swift
/// let identifier = try ActionIdentifier(parsing: #"menu.SetColor("color": "red", size: 3)"#)
/// identifier.name                // "SetColor"
/// identifier.prefix              // "menu"
/// identifier["color"]            // .string("red")
/// identifier["size"]             // .int(3)
/// ```
///
/// See <doc:IdentifierGrammar> for the grammar.
public struct ActionIdentifier: Hashable, Sendable, CustomStringConvertible {
  /// One reference, so that passing an identifier around (into contexts, results, caches) shares
  /// its fields instead of copying each.
  private final class Storage: Sendable {
    let text: String
    /// The UTF-8 length of the prefix, or -1 when there is none. The prefix is made into a string
    /// only when asked for: the manager never reads it, so parsing does not pay for it.
    let prefixLength: Int
    let name: String
    let arguments: [ActionArgument]

    init(text: String, prefixLength: Int, name: String, arguments: [ActionArgument]) {
      self.text = text
      self.prefixLength = prefixLength
      self.name = name
      self.arguments = arguments
    }
  }

  private let storage: Storage

  /// The text the identifier was parsed from.
  public var text: String { storage.text }
  /// The text before the name's dot, or `nil` when there is none.
  public var prefix: String? {
    // The prefix ends before an ASCII dot, so it ends on a character boundary.
    storage.prefixLength < 0 ? nil : String(Substring(storage.text.utf8.prefix(storage.prefixLength)))
  }
  /// The action's name.
  public var name: String { storage.name }
  /// The arguments, in the order they were written.
  public var arguments: [ActionArgument] { storage.arguments }

  /// Parses an identifier.
  ///
  /// Parsing never traps, whatever the input.
  ///
  /// - Parameter text: The identifier's text.
  /// - Throws: `ParseError<InvalidIdentifier>`, with the offset of the offending character.
  /// - Complexity: O(*n*) in the length of `text`.
  public init(parsing text: String) throws(ParseError<InvalidIdentifier>) {
    self = try IdentifierParser.parse(text)
  }

  /// - Parameter prefixLength: The UTF-8 length of the prefix, or -1 when there is none.
  init(text: String, prefixLength: Int, name: String, arguments: [ActionArgument]) {
    storage = Storage(text: text, prefixLength: prefixLength, name: name, arguments: arguments)
  }

  /// Two identifiers are equal when their texts are: parsing is deterministic.
  public static func == (lhs: ActionIdentifier, rhs: ActionIdentifier) -> Bool {
    lhs.storage === rhs.storage || lhs.text == rhs.text
  }

  /// Whether both share their storage: the same parse. A pointer comparison.
  func isIdentical(to other: ActionIdentifier) -> Bool { storage === other.storage }

  /// Hashes the text.
  public func hash(into hasher: inout Hasher) { hasher.combine(text) }

  /// The value of the argument with the given key, or `nil`.
  public subscript(key: String) -> ArgumentValue? {
    arguments.first { $0.key == key }?.value
  }

  /// The identifier's text.
  public var description: String { text }

  /// `text` without its prefix: the name and the arguments as written, which is what tells two
  /// identifiers' actions apart (`menu.Save` and `Save` are one action). The head runs to the
  /// first `(`, and its last `.` ends the prefix, as the parser reads it.
  /// Most identifiers have no prefix: they come back as they are, with no copy.
  package static func unprefixed(_ text: String) -> String {
    var text = text
    let nameStart = text.withUTF8 { bytes in
      var nameStart = 0
      for (offset, byte) in bytes.enumerated() {
        if byte == UInt8(ascii: "(") { break }
        if byte == UInt8(ascii: ".") { nameStart = offset + 1 }
      }
      return nameStart
    }
    return nameStart == 0 ? text : String(text.utf8.dropFirst(nameStart))!
  }
}

/// One `key: value` argument of an ``ActionIdentifier``.
public struct ActionArgument: Hashable, Sendable {
  /// The key.
  public let key: String
  /// The value.
  public let value: ArgumentValue

  /// Creates an argument.
  public init(key: String, value: ArgumentValue) {
    self.key = key
    self.value = value
  }
}

/// The value of an identifier argument. Numbers and booleans keep their types.
public enum ArgumentValue: Hashable, Sendable, CustomStringConvertible {
  /// A JSON string (`"red"`) or a bare word (`red`).
  case string(String)
  /// An integer (`3`, `-12`).
  case int(Int)
  /// A number with a fraction or an exponent (`2.5`, `1e3`), or an integer too large for `Int`.
  case double(Double)
  /// `true` or `false`.
  case bool(Bool)

  /// The value as Swift would print it: strings unquoted.
  public var description: String {
    switch self {
    case .string(let value): value
    case .int(let value): String(value)
    case .double(let value): String(value)
    case .bool(let value): String(value)
    }
  }

  /// The value converted to `T`, or `nil` when it has another type. An integer converts to
  /// `Double` as well.
  public func value<T>(as type: T.Type) -> T? {
    switch self {
    case .string(let value): value as? T
    case .int(let value): (value as? T) ?? (Double(value) as? T)
    case .double(let value): value as? T
    case .bool(let value): value as? T
    }
  }
}
