/// Why a text could not be parsed, and where: an identifier (``InvalidIdentifier``), and in the
/// other modules a key chord or sequence and a test's tree shape.
///
/// Every parser of the package throws this one shape, with the same message format:
///
/// ```
/// invalid identifier: expected ':' after the key 'color' (offset 15)
///   menu.SetColor(color red)
///                 ^
/// ```
public struct ParseError<Reason: ParseErrorReason>: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text that failed to parse.
  public let text: String
  /// The offset of the offending character or part, in UTF-8 bytes from the start of `text` (its
  /// length when the text ended early).
  public let offset: Int
  /// What went wrong.
  public let reason: Reason

  /// Creates an error.
  public init(text: String, offset: Int, reason: Reason) {
    self.text = text
    self.offset = offset
    self.reason = reason
  }

  /// A message with the text and a caret under the offending position.
  public var description: String {
    caretMessage(
      "invalid \(Reason.subject): \(reason.message) (offset \(offset))", text: text,
      column: column(ofUTF8Offset: offset, in: text))
  }
}

/// What went wrong in a ``ParseError``: one type per grammar.
public protocol ParseErrorReason: Hashable, Sendable {
  /// What the text should have been, for messages: `identifier`, `key chord`.
  static var subject: String { get }
  /// What went wrong, for messages: `expected ':' after the key 'color'`.
  var message: String { get }
}

/// Why an identifier could not be parsed (see <doc:IdentifierGrammar>).
public enum InvalidIdentifier: ParseErrorReason {
  /// The name before `(` (or the end) is empty.
  case emptyName
  /// The name contains a character names cannot contain.
  case invalidCharacterInName(Character)
  /// The argument list is not closed by `)`.
  case unclosedParenthesis
  /// An argument's key is missing.
  case expectedKey
  /// An argument's key is not followed by `:`.
  case missingColon(key: String)
  /// An argument's value is missing.
  case expectedValue(key: String)
  /// An argument is followed by something other than `,` or `)`.
  case expectedCommaOrClosingParenthesis
  /// A JSON string is not closed by `"`.
  case unterminatedString
  /// A JSON string contains an escape that JSON does not define.
  case invalidEscape
  /// Text follows the closing parenthesis.
  case trailingText
  /// Two arguments have the same key.
  case duplicateKey(String)
  /// A number is too large for a `Double`.
  case numberOutOfRange

  /// `identifier`.
  public static var subject: String { "identifier" }

  /// What the parser expected at the error's offset.
  public var expected: String {
    switch self {
    case .emptyName: "an action name"
    case .invalidCharacterInName:
      "a name without '.', '(', ')', ',', ':', quotes, whitespace or control characters"
    case .unclosedParenthesis: "')'"
    case .expectedKey: "an argument key"
    case .missingColon: "':'"
    case .expectedValue: "an argument value"
    case .expectedCommaOrClosingParenthesis: "',' or ')'"
    case .unterminatedString: "a closing '\"'"
    case .invalidEscape: "a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"
    case .trailingText: "the end of the identifier"
    case .duplicateKey: "a key not used before"
    case .numberOutOfRange: "a number a Double can hold"
    }
  }

  /// What went wrong, for messages.
  public var message: String {
    switch self {
    case .emptyName: "expected \(expected)"
    case .invalidCharacterInName(let character):
      "invalid character '\(quoted(String(character)))' in the name"
    case .unclosedParenthesis: "unclosed parenthesis: expected \(expected)"
    case .expectedKey: "expected \(expected)"
    case .missingColon(let key): "expected ':' after the key '\(quoted(key))'"
    case .expectedValue(let key): "expected a value for the key '\(quoted(key))'"
    case .expectedCommaOrClosingParenthesis: "expected \(expected)"
    case .unterminatedString: "unterminated string: expected \(expected)"
    case .invalidEscape: "invalid escape: expected \(expected)"
    case .trailingText: "unexpected text after ')'"
    case .duplicateKey(let key): "duplicate key '\(quoted(key))'"
    case .numberOutOfRange: "number out of range"
    }
  }
}
