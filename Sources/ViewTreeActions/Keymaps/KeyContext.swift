import Actions
import ViewTree

/// What a node says about itself to keymaps: names (`Editor`) and `key=value` pairs
/// (`mode=insert`), written as one line of terms separated by spaces (`"Editor mode=insert"`).
///
/// A node declares its context with `ModifierHost.keyContext(_:)`. At a key press, the
/// contexts of the nodes from the root to the focus make the *context stack* that a keymap
/// binding's ``KeyPredicate`` is matched against; each context belongs to its node, so
/// `mode=insert` on an editor says nothing about the panel around it.
///
/// A name or key is made of letters, digits, `_`, `-` and `.`; so is a value.
///
/// ```swift
/// let context = try KeyContext(parsing: "Editor mode=insert")
/// context.contains("Editor")  // true
/// context["mode"]             // "insert"
/// ```
public struct KeyContext: Hashable, Sendable, CustomStringConvertible {
  /// One term: a name alone, or a key with its value.
  struct Term: Hashable, Sendable {
    let name: KeySymbol
    let value: KeySymbol?
  }

  /// The terms, in the order written.
  let terms: [Term]

  /// Parses a context: terms separated by spaces, each a name or `key=value`.
  ///
  /// - Parameter text: The context, such as `"Editor mode=insert"`; empty text is an empty context.
  /// - Throws: A `ParseError` whose caret points at a character no name may contain, a `=`
  ///   without a key or a value, or a key given twice.
  public init(parsing text: String) throws(ParseError<InvalidKeyContext>) {
    var terms: [Term] = []
    var names = Set<String>()
    var scanner = ContextScanner(text)
    while let start = scanner.skipSpaces() {
      let name = scanner.readName()
      if name.isEmpty {
        throw ParseError(
          text: text, offset: start,
          reason: scanner.next == UInt8(ascii: "=")
            ? .expectedName : .invalidCharacter(scanner.character(at: start)))
      }
      var value: String?
      if scanner.take(UInt8(ascii: "=")) {
        let found = scanner.readName()
        if found.isEmpty {
          let offset = scanner.offset
          throw ParseError(
            text: text, offset: offset,
            reason: scanner.next == nil || scanner.atSpace
              ? .expectedValue(key: name) : .invalidCharacter(scanner.character(at: offset)))
        }
        value = found
      }
      if let offset = scanner.position, !scanner.atSpace {
        throw ParseError(text: text, offset: offset, reason: .invalidCharacter(scanner.character(at: offset)))
      }
      if !names.insert(name).inserted {
        throw ParseError(text: text, offset: start, reason: .duplicateName(name))
      }
      terms.append(Term(name: KeySymbol(name), value: value.map(KeySymbol.init)))
    }
    self.terms = terms
  }

  /// Whether the context has `name`, alone or as a key (`mode` is in `"mode=insert"`).
  public func contains(_ name: String) -> Bool { contains(KeySymbol(name)) }

  /// The value of `key`, or `nil` when the context does not give it one.
  public subscript(key: String) -> String? { value(of: KeySymbol(key))?.text }

  /// Whether the context has `name`, alone or as a key.
  func contains(_ name: KeySymbol) -> Bool {
    for index in terms.indices where terms[index].name == name { return true }
    return false
  }

  /// The value of `key`, if the context gives it one.
  func value(of key: KeySymbol) -> KeySymbol? {
    for index in terms.indices where terms[index].name == key { return terms[index].value }
    return nil
  }

  /// The context as written, one space between terms: `Editor mode=insert`.
  public var description: String {
    terms.map { term in term.value.map { "\(term.name.text)=\($0.text)" } ?? term.name.text }.joined(
      separator: " ")
  }
}

/// A name of a context or a predicate, with its hash: names are compared on every key press, and
/// two different names rarely share a hash, so most comparisons are one of integers.
struct KeySymbol: Hashable, Sendable {
  let text: String
  let hash: Int

  init(_ text: String) {
    self.text = text
    hash = text.hashValue
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.hash == rhs.hash && lhs.text == rhs.text }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// Key contexts, nearest first, as predicates read them: each name is compared by its hash
/// first, and by its text only when the hashes agree.
struct ContextStack {
  /// Each level's context's terms (none for a level without a context): arrays, not optional
  /// contexts, so that forgetting them releases each at once.
  private var contexts: [[KeyContext.Term]] = []

  /// The number of levels.
  var count: Int { contexts.count }

  /// Forgets the levels, keeping the storage.
  mutating func removeAll() { contexts.removeAll(keepingCapacity: true) }

  /// Adds a level, farther than those before it; `nil` for a level without a context.
  mutating func append(_ context: KeyContext?) { contexts.append(context?.terms ?? []) }

  /// The position of the term named `name` in the context at `level`, if any. (The terms are
  /// read where they are kept: a copy of one would retain its names.)
  private func term(named name: KeySymbol, at level: Int) -> Int? {
    for index in contexts[level].indices
    where contexts[level][index].name.hash == name.hash && contexts[level][index].name.text == name.text {
      return index
    }
    return nil
  }

  /// Whether the context at `level` has `name`, alone or as a key.
  func contains(_ name: KeySymbol, at level: Int) -> Bool { term(named: name, at: level) != nil }

  /// Whether the context at `level` gives `key` a value, and whether that value is `value`:
  /// `nil` when it gives none.
  func value(of key: KeySymbol, at level: Int, is value: KeySymbol) -> Bool? {
    guard let index = term(named: key, at: level), let hash = contexts[level][index].value?.hash else {
      return nil
    }
    return hash == value.hash && contexts[level][index].value!.text == value.text
  }
}

/// Why a key context could not be parsed (see ``KeyContext``).
public enum InvalidKeyContext: ParseErrorReason {
  /// A name was expected (a term begins with `=` or a character names cannot contain).
  case expectedName
  /// A `key=` has no value.
  case expectedValue(key: String)
  /// A character a name or value cannot contain.
  case invalidCharacter(Character)
  /// The context gives a name twice.
  case duplicateName(String)

  /// `key context`.
  public static var subject: String { "key context" }

  /// What went wrong, for messages.
  public var message: String {
    switch self {
    case .expectedName: "expected a name (letters, digits, '_', '-', '.')"
    case .expectedValue(let key): "expected a value after '\(key)='"
    case .invalidCharacter(let character): "invalid character '\(character)' in a name"
    case .duplicateName(let name): "'\(name)' is given twice"
    }
  }
}

/// Reads names, spaces and single bytes from a context or a predicate, reporting the offset of
/// what it finds in UTF-8 bytes, as `ParseError` counts.
struct ContextScanner {
  let text: String
  private let bytes: [UInt8]
  private(set) var offset = 0

  init(_ text: String) {
    self.text = text
    bytes = Array(text.utf8)
  }

  /// The offset of the next byte, or `nil` at the end.
  var position: Int? { offset < bytes.count ? offset : nil }

  /// The next byte, or `nil` at the end.
  var next: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  /// Whether the next byte is a space or a tab.
  var atSpace: Bool { next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") }

  /// Skips spaces and tabs; the offset of what follows, or `nil` at the end.
  mutating func skipSpaces() -> Int? {
    while atSpace { offset += 1 }
    return position
  }

  /// Takes `byte` if it is next.
  mutating func take(_ byte: UInt8) -> Bool {
    guard next == byte else { return false }
    offset += 1
    return true
  }

  /// Whether `byte` may be in a name: ASCII letters and digits, `_`, `-`, `.`, and any byte of a
  /// non-ASCII character (letters of other scripts).
  static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
      true
    default: byte >= 0x80
    }
  }

  /// Reads the name that begins here: empty when none does.
  mutating func readName() -> String {
    let start = offset
    while let byte = next, Self.isNameByte(byte) { offset += 1 }
    return String(decoding: bytes[start..<offset], as: UTF8.self)
  }

  /// The character that begins at `offset`.
  func character(at offset: Int) -> Character {
    var end = offset + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    return String(decoding: bytes[offset..<end], as: UTF8.self).first ?? "?"
  }
}

/// The key context a node declares (see `ModifierHost.keyContext(_:)`).
enum KeyContextAttachment: NodeAttachmentKey {
  static var defaultValue: KeyContext? { nil }
}

extension ModifierHost {
  /// Declares this node's key context: names and `key=value` pairs that keymap bindings match
  /// with predicates (see ``KeyContext`` and ``KeyPredicate``). Declared again, it replaces the
  /// one before, as an update re-declares it.
  ///
  /// ```swift
  /// NodeDeclaration("editor").keyContext(insertMode ? "Editor mode=insert" : "Editor mode=normal")
  /// ```
  ///
  /// It never throws, so that it fits a declaration: a context that does not parse is not
  /// declared, and is reported (``ViewTreeActionsError/invalidKeyContext(_:)``; see
  /// ``ViewTree/ModifierHost/reporting(_:)``).
  ///
  /// - Parameter context: The context, such as `"Editor mode=insert"`.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func keyContext(_ context: String) -> Self {
    do throws(ParseError<InvalidKeyContext>) {
      return settingAttachment(KeyContextAttachment.self, to: try KeyContext(parsing: context))
    } catch {
      return reporting(ViewTreeActionsError.invalidKeyContext(error))
    }
  }
}

extension Node {
  /// The key context this node declares, if any (see ``ViewTree/ModifierHost/keyContext(_:)``).
  public var keyContext: KeyContext? { hasAttachments ? self[attachment: KeyContextAttachment.self] : nil }

  /// The key contexts from the root to this node, root first: the stack a keymap binding's
  /// predicate is matched against at a key press here (see ``KeyPredicate/matchLevel(in:)``).
  ///
  /// - Complexity: O(*d*) in the node's depth.
  public var keyContextStack: [KeyContext] {
    var stack: [KeyContext] = []
    walkAncestors { node in
      if let context = node.keyContext { stack.append(context) }
      return false
    }
    stack.reverse()
    return stack
  }
}
