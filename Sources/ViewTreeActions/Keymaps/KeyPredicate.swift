import Actions

/// Where a keymap binding applies: a condition on the key context stack (see ``KeyContext``),
/// matched at a *level*, one context of the stack.
///
/// The grammar, tightest first:
///
/// | Form | Holds at a level when |
/// |---|---|
/// | `a` | the level's context has the name `a`, alone or as a key |
/// | `a == v` | the level's context gives the key `a` the value `v` |
/// | `a != v` | the level's context gives the key `a` a value other than `v` |
/// | `!p` | `p` holds at no level of the stack (then `!p` holds at every level) |
/// | `p && q` | both hold at that level |
/// | `p \|\| q` | either holds at that level |
/// | `p > q` | `q` holds at that level and `p` at a level above it (an ancestor's) |
///
/// Parentheses group. `>` binds loosest, so `Workspace > Editor && mode == insert` reads
/// `Workspace > (Editor && (mode == insert))`. A predicate *matches* at the deepest level where it
/// holds, which gives a keymap binding its match depth (see ``Keymap``).
///
/// ```swift
/// let predicate = try KeyPredicate(parsing: "Editor && mode != insert")
/// ```
public struct KeyPredicate: Hashable, Sendable, CustomStringConvertible {
  /// One node of the predicate; its operands are terms before it.
  enum Term: Hashable, Sendable {
    /// The names are positions in `symbols`: a term holds no reference, so reading one copies
    /// nothing.
    case name(Int)
    case equals(Int, Int)
    case notEquals(Int, Int)
    case not(Int)
    case and(Int, Int)
    case or(Int, Int)
    /// `ancestor > node`.
    case descendant(Int, Int)
  }

  /// The terms, each after its operands: the last is the whole predicate.
  let terms: [Term]
  /// The names and values the terms compare with.
  let symbols: [KeySymbol]
  /// Whether the predicate nests at most ``shallowHeight`` terms deep: then a key press
  /// evaluates it term by term on the stack, with no storage.
  let isShallow: Bool

  /// How deep a predicate may nest and still be evaluated by recursion.
  static let shallowHeight = 32

  /// How many operators may wait at once while a predicate is read: parentheses, `!` and
  /// operators not yet applied. Deeper nesting is refused, with an error rather than a deep stack.
  public static let maximumNesting = 64

  /// Parses a predicate (see ``KeyPredicate`` for the grammar).
  ///
  /// - Parameter text: The predicate, such as `"Editor && mode == insert"`.
  /// - Throws: A `ParseError` whose caret points at what does not fit the grammar, or at the
  ///   operator that nests deeper than ``maximumNesting``.
  /// - Complexity: O(*n*) in the length of `text`, without recursion.
  public init(parsing text: String) throws(ParseError<InvalidKeyPredicate>) {
    var parser = PredicateParser(text)
    terms = try parser.parse()
    symbols = parser.symbols
    var heights: [Int] = []
    heights.reserveCapacity(terms.count)
    for term in terms {
      switch term {
      case .name, .equals, .notEquals: heights.append(1)
      case .not(let operand): heights.append(heights[operand] + 1)
      case .and(let left, let right), .or(let left, let right), .descendant(let left, let right):
        heights.append(max(heights[left], heights[right]) + 1)
      }
    }
    isShallow = heights.last! <= Self.shallowHeight
  }

  /// The deepest level of `stack` (root first) where the predicate holds, or `nil` when it holds
  /// at none.
  ///
  /// - Complexity: O(*t* × (*l* + *c*)) for *t* terms, *l* levels and *c* terms of a context.
  public func matchLevel(in stack: [KeyContext]) -> Int? {
    var contexts = ContextStack()
    for context in stack.reversed() { contexts.append(context) }
    var scratch: [UInt64] = []
    return matchLevel(nearestFirst: contexts, scratch: &scratch).map { stack.count - 1 - $0 }
  }

  /// The nearest level of `contexts` where the predicate holds, or `nil`; `scratch` holds the
  /// sets of levels where each term holds when there are too many levels or terms for the stack
  /// (kept by the caller, so that a key press allocates nothing once it grew).
  ///
  /// Level *i* is bit *i* of a set: nearer levels are lower bits.
  func matchLevel(nearestFirst contexts: ContextStack, scratch: inout [UInt64]) -> Int? {
    let count = contexts.count
    guard count > 0 else { return nil }
    guard isShallow, count <= 64 else { return matchLevel(manyLevels: contexts, scratch: &scratch) }
    let all: UInt64 = count == 64 ? ~0 : (1 << UInt64(count)) - 1
    let set = levels(where: terms.count - 1, in: contexts, all: all)
    return set == 0 ? nil : set.trailingZeroBitCount
  }

  /// The set of levels of `contexts` where term `index` holds; `all` is every level. Recursive,
  /// for a shallow predicate.
  private func levels(where index: Int, in contexts: ContextStack, all: UInt64) -> UInt64 {
    var set: UInt64 = 0
    switch terms[index] {
    case .name(let name):
      let name = symbols[name]
      for level in 0..<contexts.count where contexts.contains(name, at: level) { set |= 1 << UInt64(level) }
    case .equals(let key, let value):
      let (key, value) = (symbols[key], symbols[value])
      for level in 0..<contexts.count where contexts.value(of: key, at: level, is: value) == true {
        set |= 1 << UInt64(level)
      }
    case .notEquals(let key, let value):
      let (key, value) = (symbols[key], symbols[value])
      for level in 0..<contexts.count where contexts.value(of: key, at: level, is: value) == false {
        set |= 1 << UInt64(level)
      }
    case .not(let operand):
      set = levels(where: operand, in: contexts, all: all) == 0 ? all : 0
    case .and(let left, let right):
      set = levels(where: left, in: contexts, all: all)
      if set != 0 { set &= levels(where: right, in: contexts, all: all) }
    case .or(let left, let right):
      set = levels(where: left, in: contexts, all: all) | levels(where: right, in: contexts, all: all)
    case .descendant(let ancestor, let node):
      // The levels nearer than the farthest where the ancestor side holds.
      let above = levels(where: ancestor, in: contexts, all: all)
      if above != 0 {
        let farthest = 63 - above.leadingZeroBitCount
        set = levels(where: node, in: contexts, all: all) & ((1 << UInt64(farthest)) - 1)
      }
    }
    return set
  }

  /// `matchLevel(nearestFirst:scratch:)` for any number of levels and any nesting: term by term,
  /// each term's set of levels in `scratch`, a word per 64 levels.
  private func matchLevel(manyLevels contexts: ContextStack, scratch: inout [UInt64]) -> Int? {
    let levels = contexts.count
    let words = (levels + 63) / 64
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: repeatElement(0, count: terms.count * words))
    func set(_ term: Int, _ level: Int) { scratch[term * words + level >> 6] |= 1 << UInt64(level & 63) }
    func isEmpty(_ term: Int) -> Bool {
      !scratch[(term * words)..<(term * words + words)].contains { $0 != 0 }
    }
    for (index, term) in terms.enumerated() {
      let base = index * words
      switch term {
      case .name(let name):
        for level in 0..<levels where contexts.contains(symbols[name], at: level) { set(index, level) }
      case .equals(let key, let value):
        for level in 0..<levels where contexts.value(of: symbols[key], at: level, is: symbols[value]) == true
        {
          set(index, level)
        }
      case .notEquals(let key, let value):
        for level in 0..<levels where contexts.value(of: symbols[key], at: level, is: symbols[value]) == false
        {
          set(index, level)
        }
      case .not(let operand):
        guard isEmpty(operand) else { break }
        for word in 0..<words { scratch[base + word] = ~0 }
        let used = levels & 63
        if used != 0 { scratch[base + words - 1] = (1 << UInt64(used)) - 1 }
      case .and(let left, let right):
        for word in 0..<words {
          scratch[base + word] = scratch[left * words + word] & scratch[right * words + word]
        }
      case .or(let left, let right):
        for word in 0..<words {
          scratch[base + word] = scratch[left * words + word] | scratch[right * words + word]
        }
      case .descendant(let ancestor, let node):
        // The levels nearer than the farthest where the ancestor side holds.
        guard let last = (0..<words).last(where: { scratch[ancestor * words + $0] != 0 }) else { break }
        let bit = 63 - scratch[ancestor * words + last].leadingZeroBitCount
        for word in 0..<last { scratch[base + word] = scratch[node * words + word] }
        scratch[base + last] = scratch[node * words + last] & ((1 << UInt64(bit)) - 1)
      }
    }
    let base = (terms.count - 1) * words
    for word in 0..<words where scratch[base + word] != 0 {
      return word * 64 + scratch[base + word].trailingZeroBitCount
    }
    return nil
  }

  /// The predicate in the grammar, with the parentheses its structure needs and no others:
  /// `Workspace > Editor && mode == insert`.
  public var description: String {
    // Written without recursion: a deep predicate must not overflow the stack.
    var output = ""
    var pending: [Piece] = [.term(terms.count - 1, parentPrecedence: 0)]
    while let piece = pending.popLast() {
      switch piece {
      case .text(let text): output += text
      case .term(let index, let parentPrecedence):
        let precedence = terms[index].precedence
        let grouped = precedence < parentPrecedence
        if grouped { output += "(" }
        if grouped { pending.append(.text(")")) }
        switch terms[index] {
        case .name(let name): output += symbols[name].text
        case .equals(let key, let value): output += "\(symbols[key].text) == \(symbols[value].text)"
        case .notEquals(let key, let value): output += "\(symbols[key].text) != \(symbols[value].text)"
        case .not(let operand):
          output += "!"
          pending.append(.term(operand, parentPrecedence: precedence))
        case .and(let left, let right), .or(let left, let right), .descendant(let left, let right):
          // Left-associative: the right operand of the same operator is grouped.
          pending.append(.term(right, parentPrecedence: precedence + 1))
          pending.append(.text(" \(terms[index].symbol) "))
          pending.append(.term(left, parentPrecedence: precedence))
        }
      }
    }
    return output
  }

  /// What `description` has still to write.
  private enum Piece {
    case text(String)
    case term(Int, parentPrecedence: Int)
  }
}

extension KeyPredicate.Term {
  /// How tightly the term's operator binds: a name or comparison tightest.
  var precedence: Int {
    switch self {
    case .descendant: 1
    case .or: 2
    case .and: 3
    case .not: 4
    case .name, .equals, .notEquals: 5
    }
  }

  /// The operator of a term with two operands.
  var symbol: String {
    switch self {
    case .descendant: ">"
    case .or: "||"
    case .and: "&&"
    default: ""
    }
  }
}

extension KeyPredicate: Codable {
  /// Decodes a predicate from its text.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do throws(ParseError<InvalidKeyPredicate>) {
      try self.init(parsing: text)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
    }
  }

  /// Encodes the predicate as its text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// Why a key predicate could not be parsed (see ``KeyPredicate``).
public enum InvalidKeyPredicate: ParseErrorReason {
  /// A name, `!` or `(` was expected (or the predicate is empty).
  case expectedOperand
  /// `&&`, `||`, `>` or `)` was expected.
  case expectedOperator
  /// A value was expected after `==` or `!=`.
  case expectedValue
  /// A character the grammar does not use.
  case invalidCharacter(Character)
  /// A `)` without its `(`.
  case unbalancedParenthesis
  /// A `(` without its `)`.
  case unclosedParenthesis
  /// More than ``KeyPredicate/maximumNesting`` operators wait at once.
  case nestedTooDeep

  /// `key predicate`.
  public static var subject: String { "key predicate" }

  /// What went wrong, for messages.
  public var message: String {
    switch self {
    case .expectedOperand: "expected a context name, '!' or '('"
    case .expectedOperator: "expected '&&', '||', '>' or ')'"
    case .expectedValue: "expected a value after the comparison"
    case .invalidCharacter(let character): "invalid character '\(character)'"
    case .unbalancedParenthesis: "')' without its '('"
    case .unclosedParenthesis: "'(' is not closed"
    case .nestedTooDeep: "nested deeper than \(KeyPredicate.maximumNesting)"
    }
  }
}

/// Reads a predicate into terms with two stacks (operators waiting, operands made), so that
/// nesting costs memory, never recursion.
private struct PredicateParser {
  private var scanner: ContextScanner
  private var terms: [KeyPredicate.Term] = []
  private var operands: [Int] = []
  private var waiting: [(symbol: Symbol, offset: Int)] = []
  /// The names and values read, which terms refer to by position.
  private(set) var symbols: [KeySymbol] = []

  private enum Symbol {
    case not, and, or, descendant, open

    var precedence: Int {
      switch self {
      case .open: 0
      case .descendant: 1
      case .or: 2
      case .and: 3
      case .not: 4
      }
    }
  }

  init(_ text: String) { scanner = ContextScanner(text) }

  private func error(_ reason: InvalidKeyPredicate, at offset: Int) -> ParseError<InvalidKeyPredicate> {
    ParseError(text: scanner.text, offset: offset, reason: reason)
  }

  mutating func parse() throws(ParseError<InvalidKeyPredicate>) -> [KeyPredicate.Term] {
    var expectingOperand = true
    while let start = scanner.skipSpaces() {
      let byte = scanner.next!
      if expectingOperand {
        if ContextScanner.isNameByte(byte) {
          try comparison()
          expectingOperand = false
        } else if byte == UInt8(ascii: "!") {
          _ = scanner.take(byte)
          try wait(.not, at: start)
        } else if byte == UInt8(ascii: "(") {
          _ = scanner.take(byte)
          try wait(.open, at: start)
        } else {
          throw error(operandError(at: start), at: start)
        }
        continue
      }
      let symbol: Symbol
      switch byte {
      case UInt8(ascii: ")"):
        _ = scanner.take(byte)
        while let last = waiting.last, last.symbol != .open { apply(waiting.removeLast().symbol) }
        guard waiting.popLast() != nil else { throw error(.unbalancedParenthesis, at: start) }
        continue
      case UInt8(ascii: "&"): symbol = .and
      case UInt8(ascii: "|"): symbol = .or
      case UInt8(ascii: ">"): symbol = .descendant
      default: throw error(.expectedOperator, at: start)
      }
      _ = scanner.take(byte)
      if symbol != .descendant, !scanner.take(byte) { throw error(.expectedOperator, at: start) }
      while let last = waiting.last, last.symbol.precedence >= symbol.precedence {
        apply(waiting.removeLast().symbol)
      }
      try wait(symbol, at: start)
      expectingOperand = true
    }
    if expectingOperand { throw error(.expectedOperand, at: scanner.offset) }
    while let last = waiting.popLast() {
      guard last.symbol != .open else { throw error(.unclosedParenthesis, at: last.offset) }
      apply(last.symbol)
    }
    return terms
  }

  /// Why no operand begins at `offset`.
  private func operandError(at offset: Int) -> InvalidKeyPredicate {
    let byte = scanner.next!
    let grammar: [UInt8] = Array("&|>)=".utf8)
    return grammar.contains(byte) ? .expectedOperand : .invalidCharacter(scanner.character(at: offset))
  }

  /// Reads `name`, `name == value` or `name != value`.
  private mutating func comparison() throws(ParseError<InvalidKeyPredicate>) {
    let name = scanner.readName()
    _ = scanner.skipSpaces()
    let isEqual = scanner.next == UInt8(ascii: "=")
    let isNotEqual = scanner.next == UInt8(ascii: "!")
    guard isEqual || isNotEqual else {
      push(.name(symbol(name)))
      return
    }
    let operatorStart = scanner.offset
    _ = scanner.take(scanner.next!)
    guard scanner.take(UInt8(ascii: "=")) else {
      // `a !b` or `a = b`: `!` cannot follow a name, and `=` alone is not an operator.
      throw error(.expectedOperator, at: operatorStart)
    }
    guard let valueStart = scanner.skipSpaces() else { throw error(.expectedValue, at: scanner.offset) }
    let value = scanner.readName()
    guard !value.isEmpty else { throw error(.expectedValue, at: valueStart) }
    let (key, wanted) = (symbol(name), symbol(value))
    push(isEqual ? .equals(key, wanted) : .notEquals(key, wanted))
  }

  private mutating func wait(_ symbol: Symbol, at offset: Int) throws(ParseError<InvalidKeyPredicate>) {
    guard waiting.count < KeyPredicate.maximumNesting else { throw error(.nestedTooDeep, at: offset) }
    waiting.append((symbol, offset))
  }

  /// The position of `text` among the symbols, added.
  private mutating func symbol(_ text: String) -> Int {
    symbols.append(KeySymbol(text))
    return symbols.count - 1
  }

  private mutating func push(_ term: KeyPredicate.Term) {
    operands.append(terms.count)
    terms.append(term)
  }

  /// Applies a waiting operator to the operands it takes (the grammar guarantees they are made).
  private mutating func apply(_ symbol: Symbol) {
    let right = operands.removeLast()
    switch symbol {
    case .not: push(.not(right))
    case .and: push(.and(operands.removeLast(), right))
    case .or: push(.or(operands.removeLast(), right))
    case .descendant: push(.descendant(operands.removeLast(), right))
    case .open: preconditionFailure("a parenthesis is not applied")
    }
  }
}
