import TerminalKeys

// Any bytes must decode without trapping, and the decoder's documented rules must hold on them.
// The first byte picks a rule and two cut points:
// - split-invariance: feeding the rest in three reads gives what feeding it at once gives;
// - drop: an overlong CSI sequence (more than `maximumSequenceLength` bytes, its parameters and
//   final byte made from the input) before the rest changes nothing the rest decodes to, however
//   the reads split it;
// - skip: a CSI sequence carrying a number above the last code point, before the rest, likewise;
// - mouse: a mouse report that is malformed or out of range (SGR, legacy or urxvt), before the
//   rest, likewise: dropped whole, none of its bytes leaked as keys;
// - kitty: a kitty key sequence (`ESC [ code : shifted : base ; modifiers : event ; text u`) made
//   from the input, before the rest: it decodes to one key event with the event type and the
//   modifiers written (or, for an event type the protocol does not define or a code that names
//   no key, to nothing), whatever the reads split it, and changes nothing the rest decodes to.

/// One time for every read, so that pointer events from different reads compare equal.
let readTime = ContinuousClock.now

/// The inputs `bytes` decode to when fed in three reads cut at `first` and `second`, then flushed.
func decode(_ bytes: [UInt8], cuttingAt first: Int, _ second: Int) -> [TerminalInput] {
  var decoder = TerminalKeyDecoder()
  let first = min(first, bytes.count)
  let second = min(max(second, first), bytes.count)
  let inputs =
    decoder.feed(bytes[..<first], at: readTime) + decoder.feed(bytes[first..<second], at: readTime)
    + decoder.feed(bytes[second...], at: readTime) + decoder.flush()
  precondition(!decoder.isWaiting, "waiting after a flush")
  return inputs
}

/// libFuzzer's entry point: one input, checked against one rule.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminalKeys(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: count - 1))
  let expected = decode(bytes, cuttingAt: bytes.count, bytes.count)
  let first = bytes.isEmpty ? 0 : Int(data[0] & 0x0F) % (bytes.count + 1)
  let second = bytes.isEmpty ? 0 : first + Int(data[0] >> 4) % (bytes.count - first + 1)
  switch data[0] % 5 {
  case 0:
    let inputs = decode(bytes, cuttingAt: first, second)
    precondition(inputs == expected, "a split at \(first), \(second) decoded differently")
  case 1:
    // ESC [, then parameter bytes past the limit, then a final byte; the rest as it came.
    let length = TerminalKeyDecoder.maximumSequenceLength + Int(data[0] >> 2)
    var sequence: [UInt8] = [0x1B, UInt8(ascii: "[")]
    for index in 0..<length {
      sequence.append(0x30 + (bytes.isEmpty ? 0 : bytes[index % bytes.count] & 0x0F))
    }
    sequence.append(0x40 + (bytes.first ?? 0) % 0x3F)
    let inputs = decode(sequence + bytes, cuttingAt: first * 7, second * 7)
    precondition(inputs == expected, "an overlong sequence changed what follows it")
  case 3:
    // A bad mouse report: a coordinate of 0, a wrong count of numbers, a button value past 255,
    // or a legacy report with a raw byte below 32, its numbers from the input.
    let number = Int(bytes.first ?? 0)
    let reports = [
      "\u{1B}[<\(number);0;5M", "\u{1B}[<\(number);5m", "\u{1B}[<\(number + 256);1;1M",
      "\u{1B}[\(number);0;1M", "\u{1B}[<\(number);1;1;1m",
    ]
    var sequence = Array(reports[Int(data[0] >> 4) % reports.count].utf8)
    if data[0] >> 4 == 15 { sequence = [0x1B, 0x5B, 0x4D, UInt8(number % 32), 40, 40] }
    let inputs = decode(sequence + bytes, cuttingAt: first, second)
    precondition(inputs == expected, "a bad mouse report changed what follows it")
  case 4:
    checkKittySequence(bytes, expected: expected, cuttingAt: first, second)
  default:
    // ESC [, a number above U+10FFFF in one of three places, then a final byte.
    let parameters = ["2000000", "2000000;5", "1;2000000"][Int(bytes.first ?? 0) % 3]
    let final = ["u", "A", "~"][Int(data[0] >> 4) % 3]
    let sequence = [0x1B] + Array("[\(parameters)\(final)".utf8)
    let inputs = decode(sequence + bytes, cuttingAt: first, second)
    precondition(inputs == expected, "a sequence with an out-of-range number made input")
  }
  return 0
}

/// Code points a kitty key sequence may carry: letters, a capital, Cyrillic, Enter, Tab,
/// Backspace, Escape, the keypad, F13 to F35, a modifier key, the last code point, a surrogate,
/// zero.
let codes = [
  97, 65, 1089, 13, 9, 127, 27, 32, 57399, 57409, 57414, 57415, 57417, 57427, 57376, 57398, 57441, 0x10FFFF,
  0xD800, 0,
]

/// The kitty-sequence rule: the sequence is made from the first bytes of `bytes`, then `bytes`
/// follows it as it came.
func checkKittySequence(_ bytes: [UInt8], expected: [TerminalInput], cuttingAt first: Int, _ second: Int) {
  func byte(_ index: Int) -> Int { index < bytes.count ? Int(bytes[index]) : 0 }
  let code = byte(0) < 200 ? codes[byte(0) % codes.count] : byte(0) * 37 + byte(1)
  var keyField = "\(code)"
  let shifted = byte(1) % 3 == 0 ? "" : "\(codes[byte(1) % codes.count])"
  let base = byte(2) % 3 == 0 ? "" : "\(codes[byte(2) % codes.count])"
  if !shifted.isEmpty || !base.isEmpty { keyField += ":" + shifted }
  if !base.isEmpty { keyField += ":" + base }
  let modifierBits = byte(3)
  let eventType = byte(4) % 5  // 0 and 4 are not event types
  var sequence = "\u{1B}[\(keyField);\(1 + modifierBits):\(eventType)"
  let textLength = byte(5) % 4
  if textLength > 0 {
    sequence += ";" + (0..<textLength).map { "\(codes[byte(6 + $0) % codes.count])" }.joined(separator: ":")
  }
  sequence += "u"
  let decoded = decode(Array(sequence.utf8), cuttingAt: bytes.count, bytes.count)
  precondition(decoded.count <= 1, "a kitty sequence made \(decoded.count) inputs")
  if let input = decoded.first {
    guard case .key(let event) = input else { preconditionFailure("a kitty sequence made \(input)") }
    let kinds: [KeyEvent.Kind] = [.press, .repeat, .release]
    precondition((1...3).contains(eventType) && event.kind == kinds[eventType - 1], "the event type was lost")
    precondition(event.chord.modifiers.contains(.control) == (modifierBits & 4 != 0), "ctrl was lost")
    precondition(event.chord.modifiers.contains(.alt) == (modifierBits & 2 != 0), "alt was lost")
    precondition(event.chord.modifiers.contains(.meta) == (modifierBits & 40 != 0), "meta was lost")
  } else {
    precondition(
      !(1...3).contains(eventType) || code == 0 || code == 0xD800 || (57344...63743).contains(code))
  }
  let inputs = decode(Array(sequence.utf8) + bytes, cuttingAt: first * 3, second * 3)
  precondition(inputs == decoded + expected, "a kitty sequence changed what follows it, or split differently")
}
