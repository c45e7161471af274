import TerminalKeys
import Testing
import ViewTree
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
        "ctrl+a", "enter", "alt+backspace", "0", "ctrl+shift+a",
      ])
  }

  func events(_ bytes: [UInt8]) -> [KeyEvent] {
    var decoder = TerminalKeyDecoder()
    return (decoder.feed(bytes) + decoder.flush()).compactMap { input in
      guard case .key(let event) = input else { return nil }
      return event
    }
  }

  @Test func kittyEventTypesAreReadInEveryForm() {
    // A press, a repeat and a release of `a`; a release of Up and of Delete in xterm's forms.
    #expect(
      keys(esc("[97;1:1u") + esc("[97;1:2u") + esc("[97;1:3u") + esc("[1;1:3A") + esc("[3;5:3~")) == [
        "a", "a (repeat)", "a (release)", "up (release)", "ctrl+delete (release)",
      ])
    #expect(events(esc("[97;1:3u")) == [KeyEvent(KeyChord(.character("a")), kind: .release)])
    // An event type the protocol does not define drops the sequence whole.
    #expect(keys(esc("[97;1:4u") + Array("b".utf8)) == ["b"])
  }

  @Test func kittyAlternateKeysAndText() {
    // ctrl + Cyrillic с, its base-layout key c; shift+1 with its shifted key !; an empty shifted
    // field before a base key.
    let decoded = events(esc("[1089::99;5u") + esc("[49:33:49;2u") + esc("[1089::99;1;1089u"))
    #expect(
      decoded == [
        KeyEvent(KeyChord(.character("с"), modifiers: .control), baseKey: .character("c")),
        KeyEvent(
          KeyChord(.character("1"), modifiers: .shift), shiftedKey: .character("!"), baseKey: .character("1")),
        KeyEvent(KeyChord(.character("с")), baseKey: .character("c"), text: "с"),
      ])
    #expect(decoded[0].alternates == [KeyChord(.character("c"), modifiers: .control)])
    // A capital shifted key folds back into the chord: nothing else to try. A keypad key as
    // a base key is the key it types.
    #expect(events(esc("[97:65;6u")).first?.alternates == [])
    #expect(events(esc("[1089::57400u")).first?.baseKey == .character("1"))
    // Text of several code points; a code point that is no scalar (a surrogate) leaves no text.
    #expect(events(esc("[97;1;72:105u")).first?.text == "Hi")
    #expect(events(esc("[97;1;55296u")).first?.text == nil)
    // Super and kitty's meta are both meta; hyper and the locks add nothing.
    #expect(
      keys(esc("[97;9u") + esc("[97;33u") + esc("[97;17u") + esc("[97;65u") + esc("[97;129u")) == [
        "meta+a", "meta+a", "a", "a", "a",
      ])
  }

  @Test func kittyFunctionalKeys() {
    #expect(
      keys(
        esc("[57376u") + esc("[57387;5u") + esc("[57414u") + esc("[57409u") + esc("[57415u") + esc("[57417u")
          + esc("[57426u") + esc("[57441u") + esc("[57427u")) == [
          "f13", "ctrl+f24", "enter", ".", "=", "left", "delete",
        ])
  }

  @Test func legacyEnterTabAndBackspaceUnderEventTypesArePresses() {
    // With event types on, a terminal still sends these as their legacy bytes, then their
    // release as a sequence.
    #expect(
      keys([0x0D] + esc("[13;1:3u") + [0x09] + esc("[9;1:3u") + [0x7F] + esc("[127;1:3u")) == [
        "enter", "enter (release)", "tab", "tab (release)", "backspace", "backspace (release)",
      ])
  }

  @Test func focusReportsAndTheEnhancementsReply() {
    var decoder = TerminalKeyDecoder()
    #expect(
      decoder.feed(esc("[I") + esc("[O") + esc("[?7u") + esc("[?0u"))
        == [
          .focusIn, .focusOut,
          .keyboardEnhancements([.disambiguateEscapeCodes, .reportEventTypes, .reportAlternateKeys]),
          .keyboardEnhancements([]),
        ])
    // `ESC O` alone begins an SS3 key, not a focus report.
    #expect(keys(esc("OA")) == ["up"])
  }

  @Test func aKeyHeldThenReleasedFiresItsBindingOncePerPressAndRepeat() throws {
    var resolved = 0
    let tree = NodeTree("root") { Node("field").focusable() }
    tree.root.bindKey("ctrl+s", to: "Save")
    try tree.focus(id: "field")
    var decoder = TerminalKeyDecoder()
    for input in decoder.feed(esc("[115;5u") + esc("[115;5:2u") + esc("[115;5:3u")) {
      guard case .key(let event) = input else { continue }
      if case .resolved = tree.firstResponder.handleKey(event) { resolved += 1 }
    }
    #expect(resolved == 2)
  }

  @Test func bracketedPastePassesTextThrough() {
    var decoder = TerminalKeyDecoder()
    let bytes = esc("[200~") + Array("del\u{1B}x\nq".utf8) + esc("[201~") + [0x71]
    let inputs = decoder.feed(bytes)
    #expect(inputs == [.paste("del\u{1B}x\nq"), .key(KeyEvent(KeyChord(.character("q"))))])
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

@Suite struct TerminalMouseTests {
  /// The events `bytes` decode to, fed whole and then one byte at a time (the two must agree),
  /// described without their times.
  func events(_ bytes: [UInt8]) -> [String] {
    var whole = TerminalKeyDecoder()
    let once = (whole.feed(bytes) + whole.flush()).map(describe)
    var split = TerminalKeyDecoder()
    var byByte: [String] = []
    for byte in bytes { byByte += split.feed([byte]).map(describe) }
    byByte += split.flush().map(describe)
    #expect(once == byByte, "split reads decode the same")
    return once
  }

  func describe(_ input: TerminalInput) -> String {
    guard case .pointer(let event) = input else { return "\(input)" }
    // The modifiers as a chord spells them, without its key.
    let modifiers = "\(KeyChord(.space, modifiers: event.modifiers))".dropLast("space".count).dropLast()
    return "\(event)" + (event.modifiers.isEmpty ? "" : " \(modifiers)")
  }

  func sgr(_ text: String) -> [UInt8] { Array("\u{1B}[<\(text)".utf8) }

  @Test func sgrReportsPressReleaseMoveAndTheWheel() {
    #expect(
      events(
        sgr("0;10;5M") + sgr("0;10;5m") + sgr("2;1;1M") + sgr("2;1;1m") + sgr("35;3;4M") + sgr("32;4;4M"))
        == [
          "press primary at (9, 4)", "release primary at (9, 4)", "press secondary at (0, 0)",
          "release secondary at (0, 0)", "move at (2, 3)", "move at (3, 3)",
        ])
    #expect(
      events(sgr("64;1;1M") + sgr("65;1;1M") + sgr("66;1;1M") + sgr("67;1;1M")) == [
        "wheel (0, -1) at (0, 0)", "wheel (0, 1) at (0, 0)", "wheel (-1, 0) at (0, 0)",
        "wheel (1, 0) at (0, 0)",
      ])
    // Buttons 8 to 11, and the modifiers in the button value.
    #expect(events(sgr("128;2;2M") + sgr("129;2;2m")) == ["press back at (1, 1)", "release back at (1, 1)"])
    // Button 11 is the button value 131: 128 and the low bits 3, which name a button there.
    #expect(
      events(sgr("131;2;2M") + sgr("131;2;2m")) == [
        "press button 11 at (1, 1)", "release button 11 at (1, 1)",
      ])
    #expect(
      events(sgr("4;1;1M") + sgr("24;1;1m")) == [
        "press primary at (0, 0) shift", "release primary at (0, 0) ctrl+alt",
      ])
  }

  @Test func legacyAndUrxvtReportsDecodeToo() {
    // X10: `ESC [ M` and three bytes, each a value plus 32; the release is button value 3.
    let x10: [UInt8] = [0x1B, 0x5B, 0x4D, 32, 33 + 9, 33 + 4, 0x1B, 0x5B, 0x4D, 35, 33 + 9, 33 + 4]
    #expect(events(x10) == ["press primary at (9, 4)", "release primary at (9, 4)"])
    // The largest coordinate the form carries: 223 (byte 255).
    #expect(events([0x1B, 0x5B, 0x4D, 32, 255, 255]) == ["press primary at (222, 222)"])
    // urxvt: decimal, the button value plus 32.
    #expect(
      events(Array("\u{1B}[32;10;5M\u{1B}[35;10;5M".utf8)) == [
        "press primary at (9, 4)", "release primary at (9, 4)",
      ])
  }

  @Test func releasesThatNameNoButtonPairWithThePress() {
    // A terminal that reports every release as button value 3, in SGR form.
    #expect(
      events(sgr("2;1;1M") + sgr("3;1;1m")) == ["press secondary at (0, 0)", "release secondary at (0, 0)"])
    // One that names the wrong button: the button down is released.
    #expect(events(sgr("1;1;1M") + sgr("0;1;1m")) == ["press middle at (0, 0)", "release middle at (0, 0)"])
    // Two buttons down, legacy releases: the last pressed first.
    let x10Release: [UInt8] = [0x1B, 0x5B, 0x4D, 35, 33, 33]
    #expect(
      events(sgr("0;1;1M") + sgr("2;1;1M") + x10Release + x10Release) == [
        "press primary at (0, 0)", "press secondary at (0, 0)", "release secondary at (0, 0)",
        "release primary at (0, 0)",
      ])
    // A release with nothing down, and a drag with no press, arrive as they are.
    #expect(events(sgr("0;1;1m") + sgr("32;2;2M")) == ["release primary at (0, 0)", "move at (1, 1)"])
  }

  @Test func badReportsAreDroppedWholeAndNeverBecomeKeys() {
    let bad = [
      sgr("0;0;5M"),  // a coordinate of 0
      sgr("0;5M"),  // two numbers
      sgr("0;1;1;1M"),  // four
      sgr("256;1;1M"),  // a button value above 255
      sgr("0;99999999;1M"),  // a number above the last code point
      sgr("3;1;1M"),  // a press that names no button
      sgr("64;1;1m"),  // a wheel "release"
      Array("\u{1B}[35;10M".utf8),  // urxvt with two numbers
      [0x1B, 0x5B, 0x4D, 32, 32, 40],  // legacy, a coordinate of 0
      [0x1B, 0x5B, 0x4D, 31, 40, 40],  // legacy, a button byte below 32
      sgr(String(repeating: "1;", count: 80) + "1M"),  // longer than any sequence is kept
      sgr("0;-5;1M"),  // a minus sign in a coordinate
      sgr("0;5;-1M"),  // in the row
      sgr("-0;5;1M"),  // in the button value
      sgr("0;5;1:2M"),  // a sub-parameter
      sgr("0;;1M"),  // an empty number
      Array("\u{1B}[32;-10;5M".utf8),  // urxvt with a minus sign
    ]
    for report in bad {
      #expect(
        events(report + Array("k".utf8)) == ["k"],
        "\(String(decoding: report, as: UTF8.self).debugDescription)")
    }
  }

  @Test func aLegacyReportSplitAtItsRawBytesWaitsForThem() {
    var decoder = TerminalKeyDecoder()
    #expect(decoder.feed([0x1B, 0x5B, 0x4D, 32]).isEmpty)
    #expect(decoder.isWaiting)
    #expect(decoder.feed([40, 40]).map(describe) == ["press primary at (7, 7)"])
  }
}
