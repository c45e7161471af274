/// Parses identifiers byte by byte over their UTF-8 form. Every read is checked against the
/// count before it is made, so no input can trap.
struct IdentifierParser {
  private let text: String
  private let bytes: [UInt8]
  private var index = 0

  private init(text: String) {
    self.text = text
    self.bytes = Array(text.utf8)
  }

  static func parse(_ text: String) throws(ParseError<InvalidIdentifier>) -> ActionIdentifier {
    var parser = IdentifierParser(text: text)
    return try parser.parseIdentifier()
  }

  // MARK: - Grammar

  private mutating func parseIdentifier() throws(ParseError<InvalidIdentifier>) -> ActionIdentifier {
    // The head runs to the first "(" or the end; its last "." separates prefix and name.
    var headEnd = 0
    var lastDot = -1
    while headEnd < bytes.count, bytes[headEnd] != .openParenthesis {
      if bytes[headEnd] == .dot { lastDot = headEnd }
      headEnd += 1
    }
    let nameStart = lastDot + 1
    if nameStart == headEnd { throw error(at: nameStart, .emptyName) }
    var position = nameStart
    while position < headEnd {
      if !Self.isNameByte(bytes[position]) || isSpaceOrControl(at: position) {
        throw error(at: position, .invalidCharacterInName(character(at: position)))
      }
      position += 1
    }
    let name = string(nameStart, headEnd)
    index = headEnd
    guard index < bytes.count else {
      return ActionIdentifier(text: text, prefixLength: lastDot, name: name, arguments: [])
    }
    index += 1  // "("
    let arguments = try parseArguments()
    if index < bytes.count { throw error(at: index, .trailingText) }
    return ActionIdentifier(text: text, prefixLength: lastDot, name: name, arguments: arguments)
  }

  /// Parses `arguments ")"` after the opening parenthesis.
  private mutating func parseArguments() throws(ParseError<InvalidIdentifier>) -> [ActionArgument] {
    var arguments: [ActionArgument] = []
    // The keys seen so far, once there are enough that scanning the list would cost more.
    var keys: Set<String> = []
    skipWhitespace()
    // Most identifiers have a few arguments: one allocation instead of growing from one.
    arguments.reserveCapacity(4)
    if index < bytes.count, bytes[index] == .closeParenthesis {
      index += 1
      return arguments
    }
    while true {
      skipWhitespace()
      guard index < bytes.count else { throw error(at: index, .unclosedParenthesis) }
      let keyStart = index
      guard let key = try parseKey() else { throw error(at: index, .expectedKey) }
      let duplicate: Bool
      if arguments.count < 8 {
        duplicate = arguments.contains { $0.key == key }
      } else {
        if keys.isEmpty { keys = Set(arguments.map(\.key)) }
        duplicate = !keys.insert(key).inserted
      }
      if duplicate { throw error(at: keyStart, .duplicateKey(key)) }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == .colon else {
        throw error(at: index, .missingColon(key: key))
      }
      index += 1
      skipWhitespace()
      guard let value = try parseValue() else { throw error(at: index, .expectedValue(key: key)) }
      arguments.append(ActionArgument(key: key, value: value))
      skipWhitespace()
      guard index < bytes.count else { throw error(at: index, .unclosedParenthesis) }
      switch bytes[index] {
      case .comma:
        index += 1
      case .closeParenthesis:
        index += 1
        return arguments
      default:
        throw error(at: index, .expectedCommaOrClosingParenthesis)
      }
    }
  }

  private mutating func parseKey() throws(ParseError<InvalidIdentifier>) -> String? {
    if index < bytes.count, bytes[index] == .quote { return try parseString() }
    return parseWord()
  }

  /// A value; bare words are classified on their bytes, so that only strings become `String`s.
  private mutating func parseValue() throws(ParseError<InvalidIdentifier>) -> ArgumentValue? {
    if index < bytes.count, bytes[index] == .quote { return .string(try parseString()) }
    guard let word = scanWord() else { return nil }
    let bytes = self.bytes[word]
    if bytes.elementsEqual("true".utf8) { return .bool(true) }
    if bytes.elementsEqual("false".utf8) { return .bool(false) }
    switch Self.jsonNumber(bytes) {
    case .integer:
      if let integer = Self.integer(bytes) { return .int(integer) }
      fallthrough
    case .fraction:
      // JSON numbers are finite: one too large for a `Double` is an error, not infinity.
      if let double = Double(string(word.lowerBound, word.upperBound)) {
        guard double.isFinite else { throw error(at: word.lowerBound, .numberOutOfRange) }
        return .double(double)
      }
    case nil:
      break
    }
    return .string(string(word.lowerBound, word.upperBound))
  }

  /// A bare word: one or more bytes that are not structure, quotes or whitespace.
  private mutating func parseWord() -> String? {
    scanWord().map { string($0.lowerBound, $0.upperBound) }
  }

  /// The range of the bare word at `index`, or `nil` when there is none; moves past it. A word
  /// ends at structure, quotes and whitespace (Unicode's too) and at control characters.
  private mutating func scanWord() -> Range<Int>? {
    let start = index
    while index < bytes.count, Self.isWordByte(bytes[index]), !isSpaceOrControl(at: index) { index += 1 }
    return index > start ? start..<index : nil
  }

  /// Whether the character starting at `position` is a control character or whitespace, which
  /// names and bare words cannot contain (ASCII whitespace is handled by the byte classes).
  private func isSpaceOrControl(at position: Int) -> Bool {
    let byte = bytes[position]
    if byte < 0x20 || byte == 0x7F { return true }
    guard byte >= 0x80 else { return false }
    // Only a lead byte starts a character; continuation bytes belong to the one before.
    guard byte & 0xC0 == 0xC0 else { return false }
    guard let scalar = character(at: position).unicodeScalars.first else { return false }
    return scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
  }

  /// A JSON string, starting at its opening quote.
  private mutating func parseString() throws(ParseError<InvalidIdentifier>) -> String {
    let start = index
    index += 1
    let contentStart = index
    // Fast path: no escapes.
    while index < bytes.count, bytes[index] != .quote, bytes[index] != .backslash { index += 1 }
    guard index < bytes.count else { throw error(at: start, .unterminatedString) }
    if bytes[index] == .quote {
      index += 1
      return string(contentStart, index - 1)
    }
    // With escapes: the UTF-8 of the value, built once, so the cost is linear in the string.
    var utf8: [UInt8] = []
    utf8.append(contentsOf: bytes[contentStart..<index])
    while true {
      guard index < bytes.count else { throw error(at: start, .unterminatedString) }
      let byte = bytes[index]
      if byte == .quote {
        index += 1
        return String(decoding: utf8, as: UTF8.self)
      }
      guard byte == .backslash else {
        utf8.append(byte)
        index += 1
        continue
      }
      let escapeStart = index
      index += 1
      guard index < bytes.count else { throw error(at: start, .unterminatedString) }
      let escaped = bytes[index]
      index += 1
      let scalar: Unicode.Scalar
      switch escaped {
      case .quote: scalar = "\""
      case .backslash: scalar = "\\"
      case .slash: scalar = "/"
      case UInt8(ascii: "b"): scalar = "\u{08}"
      case UInt8(ascii: "f"): scalar = "\u{0C}"
      case UInt8(ascii: "n"): scalar = "\n"
      case UInt8(ascii: "r"): scalar = "\r"
      case UInt8(ascii: "t"): scalar = "\t"
      case UInt8(ascii: "u"):
        guard let decoded = try parseUnicodeEscape(escapeStart: escapeStart) else {
          throw error(at: escapeStart, .invalidEscape)
        }
        scalar = decoded
      default:
        throw error(at: escapeStart, .invalidEscape)
      }
      UTF8.encode(scalar) { utf8.append($0) }
    }
  }

  /// The scalar of `\uXXXX` (with a following low surrogate for a high one); `index` is after the
  /// `u`.
  private mutating func parseUnicodeEscape(escapeStart: Int) throws(ParseError<InvalidIdentifier>) -> Unicode
    .Scalar?
  {
    guard let unit = readHex4() else { return nil }
    if (0xD800...0xDBFF).contains(unit) {
      guard index + 1 < bytes.count, bytes[index] == .backslash, bytes[index + 1] == UInt8(ascii: "u")
      else { return nil }
      index += 2
      guard let low = readHex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
      return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(unit)
  }

  private mutating func readHex4() -> UInt32? {
    guard index + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private mutating func skipWhitespace() {
    while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
  }

  // MARK: - Helpers

  private func string(_ start: Int, _ end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// The character that starts at `position` (a replacement character if it does not decode).
  private func character(at position: Int) -> Character {
    var end = position + 1
    while end < bytes.count, end - position < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
    return string(position, end).first ?? "\u{FFFD}"
  }

  private func error(at offset: Int, _ reason: InvalidIdentifier) -> ParseError<InvalidIdentifier> {
    ParseError<InvalidIdentifier>(text: text, offset: offset, reason: reason)
  }

  // The bytes that end words and names are all below 64, so a class is one 64-bit mask. Computed
  // properties of constants fold at compile time (a stored `static let` would cost a `swift_once`
  // per read).
  private static var whitespaceMask: UInt64 {
    1 << UInt8.space | 1 << UInt8.tab | 1 << UInt8.newline | 1 << UInt8.carriageReturn
  }
  private static var wordEndMask: UInt64 {
    whitespaceMask | 1 << UInt8.comma | 1 << UInt8.colon | 1 << UInt8.openParenthesis
      | 1 << UInt8.closeParenthesis | 1 << UInt8.quote
  }
  private static var nameEndMask: UInt64 { wordEndMask | 1 << UInt8.dot }

  private static func isIn(_ mask: UInt64, _ byte: UInt8) -> Bool {
    byte < 64 && mask & (1 << byte) != 0
  }

  static func isWhitespace(_ byte: UInt8) -> Bool { isIn(whitespaceMask, byte) }

  static func isWordByte(_ byte: UInt8) -> Bool { !isIn(wordEndMask, byte) }

  static func isNameByte(_ byte: UInt8) -> Bool { !isIn(nameEndMask, byte) }

  /// The kinds of JSON number a bare word can be.
  enum NumberKind {
    /// `-? int`.
    case integer
    /// `-? int frac? exp?` with a fraction or an exponent.
    case fraction
  }

  /// Which JSON number `bytes` is, if any: `-? int frac? exp?` (so `Double`'s `nan`, `inf` and hex
  /// forms stay words).
  static func jsonNumber(_ bytes: ArraySlice<UInt8>) -> NumberKind? {
    var position = bytes.startIndex
    func isDigit(at position: Int) -> Bool {
      position < bytes.endIndex && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
    }
    func skipDigits() { while isDigit(at: position) { position += 1 } }
    if position < bytes.endIndex, bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard isDigit(at: position) else { return nil }
    let leadingZero = bytes[position] == UInt8(ascii: "0")
    position += 1
    if leadingZero, isDigit(at: position) { return nil }
    skipDigits()
    var kind = NumberKind.integer
    if position < bytes.endIndex, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard isDigit(at: position) else { return nil }
      skipDigits()
      kind = .fraction
    }
    if position < bytes.endIndex, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.endIndex,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard isDigit(at: position) else { return nil }
      skipDigits()
      kind = .fraction
    }
    return position == bytes.endIndex ? kind : nil
  }

  /// The value of a JSON integer (`-? digits`), or `nil` when it does not fit in `Int`.
  static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
    let negative = bytes.first == UInt8(ascii: "-")
    var value = 0
    for byte in bytes.dropFirst(negative ? 1 : 0) {
      // Accumulating negatively reaches Int.min as well.
      let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowB) = shifted.subtractingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
      if overflowA || overflowB { return nil }
      value = next
    }
    if negative { return value }
    let (positive, overflow) = (0).subtractingReportingOverflow(value)
    return overflow ? nil : positive
  }
}

extension UInt8 {
  fileprivate static var openParenthesis: UInt8 { UInt8(ascii: "(") }
  fileprivate static var closeParenthesis: UInt8 { UInt8(ascii: ")") }
  fileprivate static var dot: UInt8 { UInt8(ascii: ".") }
  fileprivate static var comma: UInt8 { UInt8(ascii: ",") }
  fileprivate static var colon: UInt8 { UInt8(ascii: ":") }
  fileprivate static var quote: UInt8 { UInt8(ascii: "\"") }
  fileprivate static var backslash: UInt8 { UInt8(ascii: "\\") }
  fileprivate static var slash: UInt8 { UInt8(ascii: "/") }
  fileprivate static var space: UInt8 { UInt8(ascii: " ") }
  fileprivate static var tab: UInt8 { UInt8(ascii: "\t") }
  fileprivate static var newline: UInt8 { UInt8(ascii: "\n") }
  fileprivate static var carriageReturn: UInt8 { UInt8(ascii: "\r") }
}
