import Actions
import TestSupport
import Testing

// Hostile neighbours of the identifier grammar's rules, and the size of what errors print:
// messages must not embed the whole input or print control characters raw, names must not take
// NUL or non-ASCII whitespace, `1e400` must not become infinity, and the duplicate-key check must
// not make parsing quadratic in the argument count.

@Suite struct HostileInputTests {
  func parseError(_ text: String) -> ParseError<InvalidIdentifier>? {
    do {
      _ = try ActionIdentifier(parsing: text)
      return nil
    } catch {
      return error
    }
  }

  @Test(.stress) func aParseErrorInAMegabyteShowsAnExcerpt() throws {
    let text = "menu.Save(" + (0..<100_000).map { "a\($0): 1, " }.joined() + "b 1)"
    let error = try #require(parseError(text))
    #expect(error.reason == .missingColon(key: "b"))
    let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3)
    #expect(error.description.count < 300)
    // The caret stands under the offending character of the excerpt: the value after `b`.
    let excerpt = Array(lines[1])
    let caret = try #require(lines[2].firstIndex(of: "^"))
    #expect(excerpt[lines[2].distance(from: lines[2].startIndex, to: caret)] == "1")
    #expect(lines[1].hasPrefix("  …"))
  }

  @Test func controlCharactersArePrintedEscaped() throws {
    let error = try #require(parseError("Sa\nve(x)"))
    #expect(error.reason == .invalidCharacterInName("\n"))
    #expect(error.description.split(separator: "\n").count == 3)
    #expect(error.description.contains(#"Sa\nve(x)"#))
    // The caret is under the escape, which takes two columns.
    #expect(error.description.hasSuffix("\n    ^"))
  }

  @Test func namesRejectControlCharactersAndUnicodeWhitespace() {
    for (text, character) in [
      ("Sa\u{0}ve", "\u{0}"), ("Sa\u{A0}ve", "\u{A0}"), ("Sa\u{2003}ve", "\u{2003}"),
      ("Save\u{7F}", "\u{7F}"),
    ] {
      #expect(
        parseError(text)?.reason == .invalidCharacterInName(Character(character)), "\(text.debugDescription)")
    }
    // Other non-ASCII characters are fine.
    #expect((try? ActionIdentifier(parsing: "menu.Sävé✓"))?.name == "Sävé✓")
  }

  @Test func bareWordsEndAtUnicodeWhitespace() {
    #expect(parseError("Set(color: red\u{2003}blue)")?.reason == .expectedCommaOrClosingParenthesis)
    #expect(parseError("Set(co\u{1}lor: red)")?.reason == .missingColon(key: "co"))
  }

  @Test func numbersMustFitADouble() throws {
    #expect(parseError("Zoom(factor: 1e400)")?.reason == .numberOutOfRange)
    #expect(parseError("Zoom(factor: -1e400)")?.reason == .numberOutOfRange)
    let huge = "Zoom(factor: 1" + String(repeating: "0", count: 400) + ")"
    #expect(parseError(huge)?.reason == .numberOutOfRange)
    #expect(try ActionIdentifier(parsing: "Zoom(factor: 1e300)")["factor"] == .double(1e300))
  }

  @Test func manyArgumentsAndEscapesParse() throws {
    let count = 20_000
    let arguments = (0..<count).map { "k\($0): \"a\\nb\\u00e9\"" }.joined(separator: ", ")
    let identifier = try ActionIdentifier(parsing: "Bulk(\(arguments))")
    #expect(identifier.arguments.count == count)
    #expect(identifier["k19999"] == .string("a\nbé"))
    // A duplicate far down the list is still found.
    #expect(parseError("Bulk(\(arguments), k7: 1)")?.reason == .duplicateKey("k7"))
  }

  @Test func errorsQuoteAtMostAnExcerptOfAKey() throws {
    let key = String(repeating: "k", count: 10_000)
    let error = try #require(parseError("Set(\(key) 1)"))
    #expect(error.description.count < 400)
  }
}
