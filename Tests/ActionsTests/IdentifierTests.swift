import Actions
import TestSupport
import Testing

@Suite struct IdentifierTests {
  @Test(arguments: ["Save", "menu.Save", "button.Save", "some.other.thing.Save", "a b.c(d).Save"])
  func thePrefixIsDiscardedAndTheLastComponentNamesTheAction(text: String) throws {
    // "a b.c(d).Save" has a "(" in what would be the prefix: it parses as name "c" with arguments.
    if text.contains("(") {
      #expect(throws: ParseError<InvalidIdentifier>.self) { try ActionIdentifier(parsing: text) }
      return
    }
    let identifier = try ActionIdentifier(parsing: text)
    #expect(identifier.name == "Save")
    #expect(identifier.arguments.isEmpty)
  }

  @Test func prefixIsKeptForInformation() throws {
    #expect(try ActionIdentifier(parsing: "some.other.thing.Save").prefix == "some.other.thing")
    #expect(try ActionIdentifier(parsing: "Save").prefix == nil)
    #expect(try ActionIdentifier(parsing: ".Save").prefix == "")
    #expect(try ActionIdentifier(parsing: "m\u{E9}nu..Save(a: 1)").prefix == "m\u{E9}nu.")
  }

  @Test func jsonArgumentsKeepTheirTypes() throws {
    let identifier = try ActionIdentifier(
      parsing: #"menu.SetColor("color": "red", "size": 3, "scale": 2.5, "on": true)"#)
    #expect(identifier.name == "SetColor")
    #expect(
      identifier.arguments == [
        ActionArgument(key: "color", value: .string("red")),
        ActionArgument(key: "size", value: .int(3)),
        ActionArgument(key: "scale", value: .double(2.5)),
        ActionArgument(key: "on", value: .bool(true)),
      ])
  }

  @Test func bareArgumentsWorkLikeJSONOnes() throws {
    let bare = try ActionIdentifier(parsing: "SetColor(color: red, size: 3, flag: false, n: -1e2)")
    #expect(bare["color"] == .string("red"))
    #expect(bare["size"] == .int(3))
    #expect(bare["flag"] == .bool(false))
    #expect(bare["n"] == .double(-100))
    #expect(bare["missing"] == nil)
  }

  @Test func quotedStringsMayHoldEscapesCommasAndParentheses() throws {
    let identifier = try ActionIdentifier(
      parsing: #"Say("text": "a \"quoted\", (tricky) \\ line\nend \u00e9 \ud83d\ude00", "k,(:)": x)"#)
    #expect(identifier["text"] == .string("a \"quoted\", (tricky) \\ line\nend é 😀"))
    #expect(identifier["k,(:)"] == .string("x"))
  }

  @Test func numberLikeWordsThatAreNotJSONNumbersStayStrings() throws {
    let identifier = try ActionIdentifier(
      parsing: "N(a: 3abc, b: 01, c: -, d: 1e, e: 99999999999999999999, f: nan)")
    #expect(identifier["a"] == .string("3abc"))
    #expect(identifier["b"] == .string("01"))
    #expect(identifier["c"] == .string("-"))
    #expect(identifier["d"] == .string("1e"))
    #expect(identifier["e"] == .double(1e20))
    #expect(identifier["f"] == .string("nan"))
  }

  @Test func integersAtTheLimitsOfIntStayIntegersAndBeyondThemBecomeDoubles() throws {
    let identifier = try ActionIdentifier(
      parsing: """
        N(max: 9223372036854775807, min: -9223372036854775808, over: 9223372036854775808, \
        under: -9223372036854775809, zero: -0, exponent: 1E3, quoted: "true", word: True)
        """)
    #expect(identifier["max"] == .int(Int.max))
    #expect(identifier["min"] == .int(Int.min))
    #expect(identifier["over"] == .double(9_223_372_036_854_775_808))
    #expect(identifier["under"] == .double(Double("-9223372036854775809")!))
    #expect(identifier["zero"] == .int(0))
    #expect(identifier["exponent"] == .double(1000))
    #expect(identifier["quoted"] == .string("true"))
    #expect(identifier["word"] == .string("True"))
  }

  @Test func emptyArgumentListsAreAllowed() throws {
    let identifier = try ActionIdentifier(parsing: "Noop()")
    #expect(identifier.name == "Noop")
    #expect(identifier.arguments.isEmpty)
    #expect(try ActionIdentifier(parsing: "Noop(  )").arguments.isEmpty)
  }

  @Test(arguments: [
    ("", 0, InvalidIdentifier.emptyName),
    ("(", 0, .emptyName),
    ("menu.", 5, .emptyName),
    ("menu.(a: 1)", 5, .emptyName),
    ("Sa ve", 2, .invalidCharacterInName(" ")),
    ("Save(", 5, .unclosedParenthesis),
    ("Save(a: 1", 9, .unclosedParenthesis),
    ("Save(a 1)", 7, .missingColon(key: "a")),
    ("Save(a)", 6, .missingColon(key: "a")),
    ("Save(a:)", 7, .expectedValue(key: "a")),
    ("Save(a: 1,)", 10, .expectedKey),
    ("Save(,)", 5, .expectedKey),
    ("Save(a: 1 b: 2)", 10, .expectedCommaOrClosingParenthesis),
    ("Save()x", 6, .trailingText),
    ("Save(a: 1) ", 10, .trailingText),
    ("Save(a: 1, a: 2)", 11, .duplicateKey("a")),
    (#"Save("a": "b)"#, 10, .unterminatedString),
    (#"Save("a": "\q")"#, 11, .invalidEscape),
    (#"Save("a": "\ud800")"#, 11, .invalidEscape),
  ])
  func malformedIdentifiersReportWhatAndWhere(text: String, offset: Int, reason: InvalidIdentifier) {
    #expect(throws: ParseError<InvalidIdentifier>(text: text, offset: offset, reason: reason)) {
      try ActionIdentifier(parsing: text)
    }
  }

  @Test func errorsDrawACaretUnderTheOffendingPosition() {
    let error = ParseError<InvalidIdentifier>(text: "Save(a 1)", offset: 7, reason: .missingColon(key: "a"))
    #expect(
      error.description == """
        invalid identifier: expected ':' after the key 'a' (offset 7)
          Save(a 1)
                 ^
        """)
    #expect(error.reason.expected == "':'")
  }

  @Test func invalidUTF8NeverTraps() throws {
    let garbage = String(decoding: [0xFF, 0x28, 0xC3, 0x28, 0xE2, 0x82, 0x3A, 0x29], as: UTF8.self)
    #expect(throws: ParseError<InvalidIdentifier>.self) { try ActionIdentifier(parsing: garbage) }
    let name = String(decoding: [0x53, 0xFF, 0x61], as: UTF8.self)
    #expect(try ActionIdentifier(parsing: name).name == name)
  }

  @Test func randomInputsNeverTrap() {
    // A seeded generator over the characters that matter to the grammar: reproducible.
    var generator = SplitMix64(seed: 0x5EED)
    let alphabet = Array(#"ab.(),:" \\u0e1-9tn{}"#) + ["é", "😀", "\u{0}"]
    var parsed = 0
    for _ in 0..<20_000 {
      let length = Int(generator.next() % 24)
      let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
      if (try? ActionIdentifier(parsing: text)) != nil { parsed += 1 }
    }
    // Both outcomes occur, so the loop exercised the grammar rather than one error path.
    #expect(parsed > 100)
    #expect(parsed < 20_000)
  }
}
