import Actions
import Testing

// Every rule of the identifier grammar (IdentifierGrammar.md) beside its hostile neighbours: the
// inputs just inside the rule parse as documented, those just outside fail with the documented
// reason. Each row is (text, what it must give).

enum Parsed: Equatable, CustomStringConvertible {
  case identifier(prefix: String?, name: String, arguments: [String: ArgumentValue])
  case error(InvalidIdentifier)

  init(_ text: String) {
    do {
      let parsed = try ActionIdentifier(parsing: text)
      var arguments: [String: ArgumentValue] = [:]
      for argument in parsed.arguments { arguments[argument.key] = argument.value }
      self = .identifier(prefix: parsed.prefix, name: parsed.name, arguments: arguments)
    } catch {
      self = .error(error.reason)
    }
  }

  var description: String {
    switch self {
    case .identifier(let prefix, let name, let arguments): "\(prefix ?? "nil").\(name)\(arguments)"
    case .error(let reason): "error \(reason)"
    }
  }
}

@Suite struct GrammarRuleTests {
  static let rows: [(String, Parsed)] = [
    // head: the last dot before "(" splits prefix and name; the prefix may be empty or dotted.
    ("a.b.c.Save", .identifier(prefix: "a.b.c", name: "Save", arguments: [:])),
    (".Save", .identifier(prefix: "", name: "Save", arguments: [:])),
    ("Save", .identifier(prefix: nil, name: "Save", arguments: [:])),
    ("Save.", .error(.emptyName)),
    ("", .error(.emptyName)),
    ("(", .error(.emptyName)),
    ("menu.Sa:ve", .error(.invalidCharacterInName(":"))),
    ("menu.Sa\"ve", .error(.invalidCharacterInName("\""))),
    ("menu.Sa,ve", .error(.invalidCharacterInName(","))),
    ("Sa)ve", .error(.invalidCharacterInName(")"))),
    // The prefix may not contain "(": the head ends at the first one.
    ("a(b.Save", .error(.missingColon(key: "b.Save"))),
    // arguments: "(" ws [argument {"," argument}] ws ")"
    ("Save()", .identifier(prefix: nil, name: "Save", arguments: [:])),
    ("Save( \t\n\r)", .identifier(prefix: nil, name: "Save", arguments: [:])),
    ("Save(\n a\t:\r1 )", .identifier(prefix: nil, name: "Save", arguments: ["a": .int(1)])),
    ("Save(,)", .error(.expectedKey)),
    ("Save(a: 1,)", .error(.expectedKey)),
    ("Save(a: 1", .error(.unclosedParenthesis)),
    ("Save(", .error(.unclosedParenthesis)),
    ("Save(a: 1))", .error(.trailingText)),
    ("Save() ", .error(.trailingText)),
    ("Save(a 1)", .error(.missingColon(key: "a"))),
    ("Save(a:)", .error(.expectedValue(key: "a"))),
    ("Save(a: \"x\" \"y\")", .error(.expectedCommaOrClosingParenthesis)),
    ("Save(a: 1, a: 2)", .error(.duplicateKey("a"))),
    ("Save(\"a\": 1, a: 2)", .error(.duplicateKey("a"))),
    // Only " \t\n\r" are whitespace between tokens; Unicode whitespace is not, and ends no word.
    ("Save(\u{A0}a: 1)", .error(.expectedKey)),
    // keys and values: strings or bare words
    (
      "Set(\"a b\": \"c, (d): e\")",
      .identifier(prefix: nil, name: "Set", arguments: ["a b": .string("c, (d): e")])
    ),
    ("Set(color: red)", .identifier(prefix: nil, name: "Set", arguments: ["color": .string("red")])),
    ("Set(a: b.c/d-e)", .identifier(prefix: nil, name: "Set", arguments: ["a": .string("b.c/d-e")])),
    // escapes
    (
      #"Say(t: "\"\\\/\b\f\n\r\t")"#,
      .identifier(prefix: nil, name: "Say", arguments: ["t": .string("\"\\/\u{8}\u{C}\n\r\t")])
    ),
    (#"Say(t: "\u00e9\u00E9")"#, .identifier(prefix: nil, name: "Say", arguments: ["t": .string("éé")])),
    (#"Say(t: "\ud83d\ude00")"#, .identifier(prefix: nil, name: "Say", arguments: ["t": .string("😀")])),
    (#"Say(t: "\ud83d")"#, .error(.invalidEscape)),
    (#"Say(t: "\ud83dx")"#, .error(.invalidEscape)),
    (#"Say(t: "\ude00")"#, .error(.invalidEscape)),
    (#"Say(t: "\u12")"#, .error(.invalidEscape)),
    (#"Say(t: "\u12g4")"#, .error(.invalidEscape)),
    (#"Say(t: "\x")"#, .error(.invalidEscape)),
    (#"Say(t: "abc)"#, .error(.unterminatedString)),
    (#"Say(t: "abc\")"#, .error(.unterminatedString)),
    // numbers: -? int frac? exp?, int without leading zeros; anything else is a word
    ("N(v: 0)", .identifier(prefix: nil, name: "N", arguments: ["v": .int(0)])),
    ("N(v: -0)", .identifier(prefix: nil, name: "N", arguments: ["v": .int(0)])),
    ("N(v: 01)", .identifier(prefix: nil, name: "N", arguments: ["v": .string("01")])),
    ("N(v: 1.5e3)", .identifier(prefix: nil, name: "N", arguments: ["v": .double(1500)])),
    ("N(v: 1E-2)", .identifier(prefix: nil, name: "N", arguments: ["v": .double(0.01)])),
    ("N(v: 1.)", .identifier(prefix: nil, name: "N", arguments: ["v": .string("1.")])),
    ("N(v: .5)", .identifier(prefix: nil, name: "N", arguments: ["v": .string(".5")])),
    ("N(v: 1e)", .identifier(prefix: nil, name: "N", arguments: ["v": .string("1e")])),
    ("N(v: +1)", .identifier(prefix: nil, name: "N", arguments: ["v": .string("+1")])),
    ("N(v: -)", .identifier(prefix: nil, name: "N", arguments: ["v": .string("-")])),
    ("N(v: nan)", .identifier(prefix: nil, name: "N", arguments: ["v": .string("nan")])),
    ("N(v: 0x10)", .identifier(prefix: nil, name: "N", arguments: ["v": .string("0x10")])),
    ("N(v: 9223372036854775807)", .identifier(prefix: nil, name: "N", arguments: ["v": .int(.max)])),
    ("N(v: -9223372036854775808)", .identifier(prefix: nil, name: "N", arguments: ["v": .int(.min)])),
    (
      "N(v: 9223372036854775808)",
      .identifier(prefix: nil, name: "N", arguments: ["v": .double(9_223_372_036_854_775_808)])
    ),
    ("N(v: 1e400)", .error(.numberOutOfRange)),
    // booleans: exactly true and false
    (
      "B(v: true, w: false)",
      .identifier(prefix: nil, name: "B", arguments: ["v": .bool(true), "w": .bool(false)])
    ),
    ("B(v: True)", .identifier(prefix: nil, name: "B", arguments: ["v": .string("True")])),
    ("B(v: truex)", .identifier(prefix: nil, name: "B", arguments: ["v": .string("truex")])),
    ("B(v: \"true\")", .identifier(prefix: nil, name: "B", arguments: ["v": .string("true")])),
  ]

  @Test(arguments: rows.indices)
  func eachRuleAndItsNeighbours(row: Int) {
    let (text, expected) = Self.rows[row]
    #expect(Parsed(text) == expected, "\(text.debugDescription)")
  }

  @Test func registrationNamesAreBareNames() throws {
    let manager = ActionManager()
    struct Noop: ManagedAction { func perform(context: ActionContext) throws {} }
    for bad in ["menu.Save", "Save()", "Save(a: 1)", "", "Sa ve", "Sa\u{0}ve"] {
      #expect(throws: ActionsError.self, "\(bad.debugDescription)") { try manager.register(Noop(), as: bad) }
    }
    try manager.register(Noop(), as: "Sävé")
  }
}
