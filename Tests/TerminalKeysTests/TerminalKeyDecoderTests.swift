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
    // A typed capital is the letter with shift, as the kitty form reports it.
    #expect(keys(Array("aZ€é😀É".utf8)) == ["a", "shift+z", "€", "é", "😀", "shift+é"])
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
    // An endless CSI sequence (dropped whole, with its final byte), an invalid UTF-8 byte, a huge
    // parameter (the sequence is skipped), an unknown final, then a real key.
    let endless = esc("[") + [UInt8](repeating: UInt8(ascii: "1"), count: 1_000) + Array("A".utf8)
    #expect(keys(endless + [0xFF] + esc("[99999999999;5A") + esc("[q") + esc("[1;5A")) == ["ctrl+up"])
    #expect(keys(esc("[201~")).isEmpty)
  }

  @Test func anOverlongSequenceIsDroppedWholeHoweverTheReadsSplitIt() {
    let bytes = esc("[") + [UInt8](repeating: UInt8(ascii: "1"), count: 100) + Array("Ax".utf8)
    #expect(keys(bytes) == ["x"])
    for cut in 0...bytes.count {
      var decoder = TerminalKeyDecoder()
      let inputs = decoder.feed(bytes[..<cut]) + decoder.feed(bytes[cut...]) + decoder.flush()
      #expect(inputs.map(\.description) == ["x"], "split at \(cut)")
    }
    // One byte at a time, the decoder never holds more than the longest sequence.
    var decoder = TerminalKeyDecoder()
    for byte in bytes.dropLast(2) {
      #expect(decoder.feed([byte]).isEmpty)
      #expect(decoder.isWaiting)
    }
    #expect(decoder.feed(Array("Ax".utf8)).map(\.description) == ["x"])
    #expect(!decoder.isWaiting)
  }

  @Test func anOverlongSequenceEndsAtAByteThatCannotBeInIt() {
    // Not a final byte: the sequence ends before it, and it is read on its own.
    let bytes = esc("[") + [UInt8](repeating: UInt8(ascii: ";"), count: 80) + [0x0D] + Array("y".utf8)
    #expect(keys(bytes) == ["enter", "y"])
    // A timeout ends it too: what follows is read afresh.
    var decoder = TerminalKeyDecoder()
    _ = decoder.feed(esc("[") + [UInt8](repeating: UInt8(ascii: "2"), count: 80))
    #expect(decoder.isWaiting)
    #expect(decoder.flush().isEmpty)
    #expect(!decoder.isWaiting)
    #expect(decoder.feed(Array("5x".utf8)).map(\.description) == ["5", "x"])
  }

  @Test func numbersBeyondTheLastCodePointMakeNoKey() {
    #expect(keys(esc("[1114112u")).isEmpty)
    #expect(keys(esc("[99999999999999999999;5u")).isEmpty)
    #expect(keys(esc("[97;99999999999999999999u")).isEmpty)
    #expect(keys(esc("[1;1114112A")).isEmpty)
    // The last code point is still a number a sequence may carry (as a character, here).
    #expect(keys(esc("[1114111u")) == ["\u{10FFFF}"])
    #expect(keys(esc("[1114112u") + Array("z".utf8)) == ["z"])
  }
}
