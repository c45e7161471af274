import TerminalKeys
import Testing
import ViewTreeActions

@Suite struct TerminalKeyDecoderTests {
  func keys(_ bytes: [UInt8]) -> [String] {
    var decoder = TerminalKeyDecoder()
    return (decoder.feed(bytes) + decoder.flush()).map(\.description)
  }

  func esc(_ text: String) -> [UInt8] { [0x1B] + Array(text.utf8) }

  @Test func controlBytesAndText() {
    #expect(
      keys([0x09, 0x0D, 0x7F, 0x08, 0x13, 0x00, 0x20]) == [
        "tab", "enter", "backspace", "backspace", "ctrl+s", "ctrl+space", "space",
      ])
    #expect(keys(Array("aZ€é😀".utf8)) == ["a", "z", "€", "é", "😀"])
  }

  @Test func xtermSequencesWithModifiers() {
    #expect(
      keys(esc("[A") + esc("[1;5A") + esc("[1;2C") + esc("OP") + esc("[15~") + esc("[3;5~")) == [
        "up", "ctrl+up", "shift+right", "f1", "f5", "ctrl+delete",
      ])
    #expect(
      keys(esc("[H") + esc("[4~") + esc("[5~") + esc("[6~") + esc("[2~") + esc("[Z") + esc("[24~")) == [
        "home", "end", "pageup", "pagedown", "insert", "shift+tab", "f12",
      ])
  }

  @Test func altPrefixAndLoneEscape() {
    #expect(keys(esc("x")) == ["alt+x"])
    var decoder = TerminalKeyDecoder()
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.isWaiting)
    #expect(decoder.flush().map(\.description) == ["escape"])
    #expect(!decoder.isWaiting)
    #expect(keys([0x1B, 0x1B]) == ["escape", "escape"])
  }

  @Test func kittyKeyboardProtocol() {
    #expect(
      keys(esc("[97;5u") + esc("[13u") + esc("[127;3u") + esc("[57399u") + esc("[97:65;6u")) == [
        "ctrl+a", "enter", "alt+backspace", "ctrl+shift+a",
      ])
  }

  @Test func bracketedPastePassesTextThrough() {
    var decoder = TerminalKeyDecoder()
    let bytes = esc("[200~") + Array("del\u{1B}x\nq".utf8) + esc("[201~") + [0x71]
    let inputs = decoder.feed(bytes)
    #expect(inputs == [.paste("del\u{1B}x\nq"), .key(KeyChord(.character("q")))])
  }

  @Test func anySplitOfTheBytesGivesTheSameInputs() {
    let bytes =
      esc("[1;5A") + Array("é😀".utf8) + esc("[200~") + Array("pasted ü".utf8) + esc("[201~") + esc("[97;5u")
      + esc("OQ") + [0x7F]
    var whole = TerminalKeyDecoder()
    let expected = whole.feed(bytes) + whole.flush()
    #expect(expected.count == 7)
    for cut in 0...bytes.count {
      for second in cut...bytes.count {
        var decoder = TerminalKeyDecoder()
        let inputs =
          decoder.feed(bytes[..<cut]) + decoder.feed(bytes[cut..<second]) + decoder.feed(bytes[second...])
          + decoder.flush()
        #expect(inputs == expected, "split at \(cut), \(second)")
      }
    }
  }

  @Test func hostileInputIsSkippedNotTrappedOn() {
    // An endless CSI sequence, an invalid UTF-8 byte, a huge parameter, an unknown final.
    let endless = esc("[") + [UInt8](repeating: UInt8(ascii: "1"), count: 1_000) + Array("A".utf8)
    #expect(keys(endless + [0xFF] + esc("[99999999999;5A") + esc("[q")).last == "ctrl+up")
    #expect(keys(esc("[201~")).isEmpty)
  }
}
