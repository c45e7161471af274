import ViewTree
import ViewTreeActions

/// What a terminal sent: a key event, text pasted with bracketed paste, a mouse event, the
/// terminal's focus coming or going, a reply about its keyboard enhancements, or (from
/// ``TerminalEvents``, never from the decoder) a new size.
public enum TerminalInput: Hashable, Sendable, CustomStringConvertible {
  /// A key press, repeat or release (hand it to `tree.firstResponder.handleKey(_:)`).
  case key(KeyEvent)
  /// Text the user pasted (bracketed paste), passed through as text rather than as key presses.
  case paste(String)
  /// A mouse event, in cells: column 0 is the left edge, row 0 the top (see
  /// ``RawTerminal/MouseReporting``). Hand it to `tree.handlePointer(_:)`.
  case pointer(PointerInput)
  /// The terminal window gained the focus (see ``RawTerminal/init(input:output:alternateScreen:mouse:keyboard:focusReporting:bracketedPaste:)``).
  case focusIn
  /// The terminal window lost the focus: keys held may never report their release.
  case focusOut
  /// The terminal's reply to ``RawTerminal/queryKeyboardEnhancements()``: the enhancements it
  /// has on now (none from a terminal that does not speak the kitty protocol: it does not reply).
  case keyboardEnhancements(KeyboardEnhancements)
  /// The terminal's size changed, in cells (``TerminalEvents`` reports it; the decoder does not).
  case resize(columns: Int, rows: Int)

  /// A press of `chord`: what most keys a terminal sends are.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - modifiers: The modifiers held.
  /// - Returns: `.key(KeyEvent(KeyChord(key, modifiers: modifiers)))`.
  public static func press(_ key: KeyChord.Key, _ modifiers: KeyModifiers = []) -> Self {
    .key(KeyEvent(KeyChord(key, modifiers: modifiers)))
  }

  /// The key event, `paste(…)` with the text's length, the pointer event, or the other's name.
  public var description: String {
    switch self {
    case .key(let event): "\(event)"
    case .paste(let text): "paste(\(text.count) characters)"
    case .pointer(let input): "\(input)"
    case .focusIn: "focus in"
    case .focusOut: "focus out"
    case .keyboardEnhancements(let flags): "keyboard enhancements \(flags)"
    case .resize(let columns, let rows): "resize \(columns)x\(rows)"
    }
  }
}

/// The kitty keyboard protocol's progressive enhancements, which a terminal that speaks it
/// turns on when asked (see ``RawTerminal/init(input:output:alternateScreen:mouse:keyboard:focusReporting:bracketedPaste:)``).
public struct KeyboardEnhancements: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The protocol's bits.
  public let rawValue: Int
  /// Creates enhancements from the protocol's bits.
  ///
  /// - Parameter rawValue: The bits: 1, 2, 4, 8, 16.
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// Escape and keys with modifiers are sent as unambiguous sequences (`ESC [ 27 u`).
  public static let disambiguateEscapeCodes = Self(rawValue: 1)
  /// Repeats and releases are reported, not only presses.
  public static let reportEventTypes = Self(rawValue: 2)
  /// The shifted key and the base-layout key are reported with the key.
  public static let reportAlternateKeys = Self(rawValue: 4)
  /// Every key, text keys too, is sent as a sequence.
  public static let reportAllKeysAsEscapeCodes = Self(rawValue: 8)
  /// The text a key types is sent with it.
  public static let reportAssociatedText = Self(rawValue: 16)
  /// What ``TerminalEvents`` asks for: every enhancement but sending text keys as sequences.
  public static let standard: Self = [.disambiguateEscapeCodes, .reportEventTypes, .reportAlternateKeys]

  /// The names of the enhancements, such as `[disambiguate, event types]`.
  public var description: String {
    let names: [(Self, String)] = [
      (.disambiguateEscapeCodes, "disambiguate"), (.reportEventTypes, "event types"),
      (.reportAlternateKeys, "alternate keys"), (.reportAllKeysAsEscapeCodes, "all keys"),
      (.reportAssociatedText, "associated text"),
    ]
    return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
  }
}

/// Turns the bytes a terminal sends into key chords and pasted text, whatever way the reads split
/// them.
///
/// It understands what xterm-compatible terminals send: control bytes (Backspace as `0x7F` or
/// `0x08`, as xterm sends them; forward Delete as `ESC [ 3 ~`), CSI and SS3 sequences for arrows,
/// Home, End, Insert, Page Up and Down and F1 to F12 with their modifiers (`ESC [ 1 ; 5 A` is
/// ctrl+up), the kitty keyboard protocol (`ESC [ 97 ; 5 u` is ctrl+a), Alt as an `ESC` prefix,
/// bracketed paste (`ESC [ 200 ~ … ESC [ 201 ~`), UTF-8 text, and mouse reports (see below).
///
/// Mouse reports come in three forms, each read whatever the reads split them: SGR (mode 1006,
/// what ``RawTerminal`` asks for: `ESC [ < b ; x ; y M` for a press or a motion, `… m` for a
/// release), the legacy X10 form (`ESC [ M` and three bytes, each a value plus 32, so coordinates
/// stop at 223) and the urxvt form (mode 1015, `ESC [ b ; x ; y M`, `b` plus 32). The button value
/// carries the button (1 to 3, the wheel's four directions, buttons 8 to 11), shift (4), alt
/// (8), control (16) and motion (32). A release that names no button (the legacy form's button
/// value 3), or a button that is not down while another is, releases the button pressed last, so
/// terminals that report every release alike still pair it with its press. A report that is
/// malformed, carries a value out of range (a coordinate of 0, a button value above 255) or a
/// number above 1,114,111 is dropped whole, as a bad key sequence is: none of its bytes become
/// keys. Coordinates arrive 1-based and leave 0-based, in cells.
///
/// ```swift
/// var decoder = TerminalKeyDecoder()
/// for input in decoder.feed(bytesJustRead) { … }
/// if decoder.isWaiting { /* after ~50 ms without more bytes: */ for input in decoder.flush() { … } }
/// ```
///
/// A lone `ESC` may be the Escape key or the start of a sequence: the decoder keeps it until more
/// bytes come, and the caller decides when to stop waiting (``flush()``), as terminals give no
/// other way to tell. Malformed or unknown sequences are skipped, never trapped on: a CSI sequence
/// ends at its final byte (`0x40` to `0x7E`), or just before the first byte that cannot be part of
/// it, which is then read on its own. A sequence longer than ``maximumSequenceLength`` is dropped
/// whole, up to and including its final byte, however many reads it spans; so is a sequence with
/// a number above 1,114,111 (the last Unicode code point), which no key sends.
///
/// The decoder holds at most ``maximumSequenceLength`` bytes of an unfinished sequence, and works
/// in time linear in the bytes fed; only a bracketed paste, which is text, grows with its length.
public struct TerminalKeyDecoder {
  /// The longest escape sequence kept while waiting for its end; longer ones are dropped.
  public static let maximumSequenceLength = 64

  private var pending: [UInt8] = []
  /// The text of a bracketed paste in progress, if one is.
  private var paste: [UInt8]?
  /// Whether the rest of an overlong CSI sequence is being dropped, up to its final byte.
  private var droppingSequence = false
  /// The mouse buttons down, the last pressed last, for pairing releases that name no button.
  private var pressed: [PointerButton] = []
  /// When the bytes being decoded were read: the time of the pointer events they make.
  private var readTime = ContinuousClock.Instant.now

  /// Creates a decoder.
  public init() {}

  /// Whether bytes are held for a sequence that may go on (a lone `ESC`, a partial sequence or
  /// character, an unfinished paste, or an overlong sequence being dropped): the caller may
  /// ``flush()`` them after a timeout.
  public var isWaiting: Bool { !pending.isEmpty || paste != nil || droppingSequence }

  /// Adds bytes read from the terminal and returns the inputs they complete, in order.
  ///
  /// - Parameters:
  ///   - bytes: The bytes just read.
  ///   - time: When they were read: the time of the pointer events they complete (for telling a
  ///     double click). Now, by default.
  /// - Returns: The key presses, pastes and pointer events completed.
  /// - Complexity: O(*n*) in the bytes held and added.
  public mutating func feed(_ bytes: some Sequence<UInt8>, at time: ContinuousClock.Instant = .now)
    -> [TerminalInput]
  {
    readTime = time
    pending.append(contentsOf: bytes)
    var inputs: [TerminalInput] = []
    var position = 0
    while position < pending.count {
      if droppingSequence {
        position = dropSequence(from: position)
        continue
      }
      if paste != nil {
        guard let used = continuePaste(from: position, into: &inputs) else { break }
        position = used
        continue
      }
      guard let (input, used) = decode(at: position) else { break }
      if let input { inputs.append(input) }
      position += used
    }
    pending.removeFirst(position)
    return inputs
  }

  /// Gives up waiting: a held `ESC` is the Escape key, and the bytes after it are read as keys; an
  /// unfinished paste is returned as pasted; a partial UTF-8 character is dropped. Afterwards
  /// nothing is held (``isWaiting`` is `false`).
  ///
  /// - Returns: The inputs the held bytes make.
  public mutating func flush() -> [TerminalInput] {
    var inputs: [TerminalInput] = []
    // A timeout ends an overlong sequence too: what comes next is read afresh.
    droppingSequence = false
    if let text = paste {
      inputs.append(.paste(String(decoding: text + pending, as: UTF8.self)))
      paste = nil
      pending = []
      return inputs
    }
    var bytes = pending
    pending = []
    while !bytes.isEmpty {
      if bytes[0] == 0x1B {
        inputs.append(.press(.escape))
        bytes.removeFirst()
        inputs += feed(bytes)
        bytes = pending
        pending = []
      } else {
        // A partial UTF-8 character: dropped.
        break
      }
    }
    // The bytes after a held escape may have opened a paste that has not ended: it is pasted.
    if let text = paste {
      inputs.append(.paste(String(decoding: text + pending, as: UTF8.self)))
      paste = nil
      pending = []
    }
    return inputs
  }

  // MARK: - Decoding

  /// The input at `position` and the bytes it used (`nil` input: bytes skipped); `nil` when more
  /// bytes are needed.
  private mutating func decode(at position: Int) -> (TerminalInput?, Int)? {
    let byte = pending[position]
    switch byte {
    case 0x1B: return decodeEscape(at: position)
    case 0x09: return (.press(.tab), 1)
    case 0x0D, 0x0A: return (.press(.enter), 1)
    case 0x7F, 0x08: return (.press(.backspace), 1)
    case 0x00: return (.press(.space, .control), 1)
    case 0x01...0x1A: return (.press(.character(Self.character(byte + 0x60)), .control), 1)
    case 0x1C...0x1F: return (.press(.character(Self.character(byte + 0x40)), .control), 1)
    case 0x20: return (.press(.space), 1)
    case 0x21...0x7E: return (.press(.character(Self.character(byte))), 1)
    default: return decodeUTF8(at: position)
    }
  }

  private static func character(_ byte: UInt8) -> Character { Character(Unicode.Scalar(byte)) }

  /// A UTF-8 character, or a byte that cannot start one (skipped).
  private func decodeUTF8(at position: Int) -> (TerminalInput?, Int)? {
    let lead = pending[position]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (nil, 1)
    }
    var end = position + 1
    while end < pending.count, end < position + length {
      guard pending[end] & 0xC0 == 0x80 else { return (nil, 1) }
      end += 1
    }
    guard end == position + length else { return nil }
    var decoder = UTF8()
    var iterator = pending[position..<end].makeIterator()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return (nil, length) }
    return (.press(.character(Character(scalar))), length)
  }

  /// What follows an `ESC` at `position`.
  private mutating func decodeEscape(at position: Int) -> (TerminalInput?, Int)? {
    guard position + 1 < pending.count else { return nil }
    let next = pending[position + 1]
    switch next {
    case UInt8(ascii: "["): return decodeCSI(at: position)
    case UInt8(ascii: "O"):
      guard position + 2 < pending.count else { return nil }
      let key: KeyChord.Key? =
        switch pending[position + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
      return (key.map { .press($0) }, 3)
    case 0x1B:
      // Escape pressed, then another escape or sequence.
      return (.press(.escape), 1)
    default:
      // Alt with the key that follows.
      guard let (input, used) = decode(at: position + 1) else { return nil }
      guard case .key(var event)? = input else { return (input, used + 1) }
      event.chord = KeyChord(event.chord.key, modifiers: event.chord.modifiers.union(.alt))
      return (.key(event), used + 1)
    }
  }

  /// A CSI sequence `ESC [ parameters intermediates final` at `position`.
  private mutating func decodeCSI(at position: Int) -> (TerminalInput?, Int)? {
    // The legacy mouse report: `ESC [ M` and three raw bytes, whatever they are.
    if position + 2 < pending.count, pending[position + 2] == UInt8(ascii: "M") {
      guard position + 5 < pending.count else { return nil }
      let (button, column, row) = (pending[position + 3], pending[position + 4], pending[position + 5])
      guard button >= 32, column > 32, row > 32 else { return (nil, 6) }
      return (mouse(Int(button) - 32, Int(column) - 32, Int(row) - 32, released: nil), 6)
    }
    var end = position + 2
    while end < pending.count {
      let byte = pending[end]
      if (0x40...0x7E).contains(byte) { break }
      guard (0x20...0x3F).contains(byte) else { return (nil, end - position) }
      end += 1
      if end - position > Self.maximumSequenceLength {
        droppingSequence = true
        return (nil, end - position)
      }
    }
    guard end < pending.count else { return nil }
    let length = end - position + 1
    let final = pending[end]
    if final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
      // SGR (`ESC [ <` …, the release with `m`) or urxvt (a button value plus 32, `M` only):
      // three decimal numbers and nothing else, or the report is dropped whole.
      let isSGR = position + 2 < end && pending[position + 2] == UInt8(ascii: "<")
      guard isSGR || final == UInt8(ascii: "M"),
        let parameters = Self.mouseParameters(pending[(position + (isSGR ? 3 : 2))..<end])
      else { return (nil, length) }
      let button = isSGR ? parameters.0 : parameters.0 - 32
      return (
        mouse(button, parameters.1, parameters.2, released: isSGR ? final == UInt8(ascii: "m") : nil),
        length
      )
    }
    return (decodeKeySequence(final: final, parameters: (position + 2)..<end), length)
  }

  /// The input of a CSI sequence that is not a mouse report: a key in xterm's form
  /// (`ESC [ 1 ; 5 A`) or the kitty protocol's (`ESC [ code : shifted : base ; modifiers : event ;
  /// text u`), the start of a paste, the focus coming or going, or the reply to a query of the
  /// keyboard enhancements (`ESC [ ? flags u`); `nil` for a sequence that is malformed or names
  /// nothing.
  private mutating func decodeKeySequence(final: UInt8, parameters range: Range<Int>) -> TerminalInput? {
    let isPrivate = !range.isEmpty && pending[range.lowerBound] == UInt8(ascii: "?")
    guard
      let fields = CSIFields(
        pending[(isPrivate ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound])
    else { return nil }
    if isPrivate {
      guard final == UInt8(ascii: "u"), let flags = fields[0, 0] else { return nil }
      return .keyboardEnhancements(KeyboardEnhancements(rawValue: flags))
    }
    // The modifiers, then kitty's event type after a colon: 1 a press, 2 a repeat, 3 a release.
    let modifiers = Self.modifiers(fields[1, 0] ?? 1)
    let kind: KeyEvent.Kind
    switch fields[1, 1] ?? 1 {
    case 1: kind = .press
    case 2: kind = .repeat
    case 3: kind = .release
    default: return nil
    }
    let first = fields[0, 0] ?? 0
    let key: KeyChord.Key?
    switch final {
    case UInt8(ascii: "A"): key = .up
    case UInt8(ascii: "B"): key = .down
    case UInt8(ascii: "C"): key = .right
    case UInt8(ascii: "D"): key = .left
    case UInt8(ascii: "H"): key = .home
    case UInt8(ascii: "F"): key = .end
    case UInt8(ascii: "P"): key = .function(1)
    case UInt8(ascii: "Q"): key = .function(2)
    case UInt8(ascii: "R"): key = .function(3)
    case UInt8(ascii: "S"): key = .function(4)
    case UInt8(ascii: "I") where fields.count == 0: return .focusIn
    case UInt8(ascii: "O") where fields.count == 0: return .focusOut
    case UInt8(ascii: "Z"):
      return .key(KeyEvent(KeyChord(.tab, modifiers: modifiers.union(.shift)), kind: kind))
    case UInt8(ascii: "~"):
      switch first {
      case 200:
        paste = []
        return nil
      case 201: return nil  // an end of paste without a start
      default: key = Self.tildeKey(first)
      }
    case UInt8(ascii: "u"):
      guard let chord = Self.kittyKey(first, modifiers) else { return nil }
      return .key(
        KeyEvent(
          chord, kind: kind, shiftedKey: fields[0, 1].flatMap(Self.alternateKey),
          baseKey: fields[0, 2].flatMap(Self.alternateKey),
          text: fields.hasText ? Self.text(pending[range]) : nil))
    default: key = nil
    }
    return key.map { .key(KeyEvent(KeyChord($0, modifiers: modifiers), kind: kind)) }
  }

  /// The text of a kitty key sequence's third field: its code points, separated by colons; `nil`
  /// when one is not a Unicode scalar.
  private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
    var text = ""
    var field = 0
    var current: UInt32 = 0
    var digits = 0
    func flush() -> Bool {
      guard digits > 0 else { return true }
      guard let scalar = Unicode.Scalar(current) else { return false }
      text.unicodeScalars.append(scalar)
      (current, digits) = (0, 0)
      return true
    }
    for byte in bytes {
      switch byte {
      case UInt8(ascii: ";"):
        field += 1
      case UInt8(ascii: ":") where field == 2:
        guard flush() else { return nil }
      case UInt8(ascii: "0")...UInt8(ascii: "9") where field == 2:
        current = current * 10 + UInt32(byte - 0x30)
        digits += 1
      default: break
      }
    }
    guard flush(), !text.isEmpty else { return nil }
    return text
  }

  /// Skips the rest of an overlong CSI sequence from `position`: its parameter and intermediate
  /// bytes and its final byte, or up to the first byte that cannot be part of it. Returns where
  /// decoding goes on.
  private mutating func dropSequence(from position: Int) -> Int {
    var index = position
    while index < pending.count {
      let byte = pending[index]
      if (0x20...0x3F).contains(byte) {
        index += 1
        continue
      }
      droppingSequence = false
      return (0x40...0x7E).contains(byte) ? index + 1 : index
    }
    return index
  }

  /// Continues a bracketed paste from `position`; returns where decoding goes on, or `nil` when
  /// the end marker may still be coming.
  private mutating func continuePaste(from position: Int, into inputs: inout [TerminalInput]) -> Int? {
    let end: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~
    var index = position
    while index < pending.count {
      if pending[index] == 0x1B {
        let available = min(end.count, pending.count - index)
        if pending[index..<(index + available)].elementsEqual(end.prefix(available)) {
          guard available == end.count else {
            paste?.append(contentsOf: pending[position..<index])
            return index == position ? nil : index
          }
          paste?.append(contentsOf: pending[position..<index])
          inputs.append(.paste(String(decoding: paste ?? [], as: UTF8.self)))
          paste = nil
          return index + end.count
        }
      }
      index += 1
    }
    paste?.append(contentsOf: pending[position..<index])
    return index
  }

  /// The three numbers of a mouse report's parameters (`b;x;y`): each one or more digits, with
  /// nothing else between them; `nil` for anything else (a minus sign, a sub-parameter, an empty
  /// or overlong number).
  private static func mouseParameters(_ bytes: ArraySlice<UInt8>) -> (Int, Int, Int)? {
    // Kept in place: a report is decoded with no allocation.
    var numbers = (0, 0, 0)
    var field = 0
    var current = 0
    var digits = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        current = current * 10 + Int(byte - 0x30)
        digits += 1
        if current > 0x10FFFF { return nil }
      case UInt8(ascii: ";"):
        guard digits > 0, field < 2 else { return nil }
        if field == 0 { numbers.0 = current } else { numbers.1 = current }
        (field, current, digits) = (field + 1, 0, 0)
      default: return nil
      }
    }
    guard digits > 0, field == 2 else { return nil }
    numbers.2 = current
    return numbers
  }

  /// The pointer event a mouse report makes: `value` is the button value (the button in its
  /// low two bits, +4 shift, +8 alt, +16 control, +32 motion, +64 the wheel, +128 buttons 8 to
  /// 11), `column` and `row` 1-based; `released` says whether an SGR report is a release (`nil`
  /// for the legacy forms, where the button value 3 is). `nil` for a report out of range, which
  /// is dropped.
  private mutating func mouse(_ value: Int, _ column: Int, _ row: Int, released: Bool?) -> TerminalInput? {
    guard (0...255).contains(value), column >= 1, row >= 1 else { return nil }
    var modifiers: KeyModifiers = []
    if value & 4 != 0 { modifiers.insert(.shift) }
    if value & 8 != 0 { modifiers.insert(.alt) }
    if value & 16 != 0 { modifiers.insert(.control) }
    let location = PointerLocation(x: Double(column - 1), y: Double(row - 1))
    let low = value & 3
    let kind: PointerInput.Kind
    switch value & 0xC0 {
    case 64:
      // The wheel: up, down, left, right. Never a release, never a motion that matters.
      guard released != true else { return nil }
      kind =
        switch low {
        case 0: .wheel(deltaX: 0, deltaY: -1)
        case 1: .wheel(deltaX: 0, deltaY: 1)
        case 2: .wheel(deltaX: -1, deltaY: 0)
        default: .wheel(deltaX: 1, deltaY: 0)
        }
    case 0, 128:
      // Buttons 1 to 3 in the low bits, 3 naming none; with 128, buttons 8 to 11, 3 naming 11.
      let named: PointerButton? =
        value & 128 != 0 ? PointerButton(8 + low) : low == 3 ? nil : PointerButton(1 + low)
      if value & 32 != 0 {
        kind = .move
      } else if released ?? (named == nil) {
        kind = .release(releasedButton(named))
      } else if let named {
        pressed.removeAll { $0 == named }
        pressed.append(named)
        kind = .press(named)
      } else {
        // An SGR press with the button value 3 names no button: nothing to press.
        return nil
      }
    default:
      return nil
    }
    return .pointer(PointerInput(kind, at: location, modifiers: modifiers, time: readTime))
  }

  /// The button a release lets go of: the one it names if that one is down; else the one pressed
  /// last, as terminals that report every release alike mean; else the one it names, or the
  /// primary.
  private mutating func releasedButton(_ named: PointerButton?) -> PointerButton {
    if let named, let index = pressed.firstIndex(of: named) {
      pressed.remove(at: index)
      return named
    }
    if let last = pressed.popLast() { return last }
    return named ?? .primary
  }

  /// xterm's and kitty's modifier parameter: 1 plus a bit set of shift 1, alt 2, ctrl 4, super
  /// 8 (meta in xterm's terms), hyper 16, meta 32, caps lock 64 and num lock 128. Super and meta
  /// are both ``ViewTree/KeyModifiers/meta``; hyper and the locks name no modifier a chord has.
  private static func modifiers(_ parameter: Int) -> KeyModifiers {
    let bits = max(0, parameter - 1)
    var modifiers: KeyModifiers = []
    if bits & 1 != 0 { modifiers.insert(.shift) }
    if bits & 2 != 0 { modifiers.insert(.alt) }
    if bits & 4 != 0 { modifiers.insert(.control) }
    if bits & (8 | 32) != 0 { modifiers.insert(.meta) }
    return modifiers
  }

  /// The key of `ESC [ n ~`.
  private static func tildeKey(_ number: Int) -> KeyChord.Key? {
    switch number {
    case 1, 7: .home
    case 2: .insert
    case 3: .delete
    case 4, 8: .end
    case 5: .pageUp
    case 6: .pageDown
    case 11...15: .function(number - 10)
    case 17...21: .function(number - 11)
    case 23, 24: .function(number - 12)
    default: nil
    }
  }

  /// The key an alternate key code names, as it is written: a capital stays a capital (the
  /// shifted key of `a` is `A`, which `KeyEvent` folds shift into).
  private static func alternateKey(_ codepoint: Int) -> KeyChord.Key? {
    guard let key = kittyKey(codepoint, [])?.key else { return nil }
    guard case .character = key, !(57344...63743).contains(codepoint),
      let scalar = Unicode.Scalar(UInt32(codepoint))
    else { return key }
    return .character(Character(scalar))
  }

  /// The key of kitty's `ESC [ codepoint ; modifiers u`.
  private static func kittyKey(_ codepoint: Int, _ modifiers: KeyModifiers) -> KeyChord? {
    switch codepoint {
    case 9: return KeyChord(.tab, modifiers: modifiers)
    case 13: return KeyChord(.enter, modifiers: modifiers)
    case 27: return KeyChord(.escape, modifiers: modifiers)
    case 32: return KeyChord(.space, modifiers: modifiers)
    case 127, 8: return KeyChord(.backspace, modifiers: modifiers)
    case 57_376...57_387: return KeyChord(.function(codepoint - 57_376 + 13), modifiers: modifiers)
    case 57_399...57_415:
      // The keypad: its digits and signs type what the main keys type, its Enter is Enter.
      guard codepoint != 57_414 else { return KeyChord(.enter, modifiers: modifiers) }
      let keypad = Array("0123456789./*-+".unicodeScalars)
      guard codepoint - 57_399 < keypad.count else { return KeyChord(.character("="), modifiers: modifiers) }
      return KeyChord(.character(Character(keypad[codepoint - 57_399])), modifiers: modifiers)
    case 57_417...57_426:
      // The keypad's arrows and the keys beside them.
      let keys: [KeyChord.Key] = [
        .left, .right, .up, .down, .pageUp, .pageDown, .home, .end, .insert, .delete,
      ]
      return KeyChord(keys[codepoint - 57_417], modifiers: modifiers)
    case 0x21...0x10FFFF:
      // Kitty's other functional keys (the modifier keys themselves, media keys, the keypad's
      // begin key) are private-use code points that name no key a chord has.
      if (57344...63743).contains(codepoint) { return nil }
      guard let scalar = Unicode.Scalar(UInt32(codepoint)) else { return nil }
      return KeyChord(.character(Character(scalar)), modifiers: modifiers)
    default: return nil
    }
  }
}

/// The numbers of a CSI sequence's parameters, as the kitty protocol and xterm write them:
/// fields separated by `;`, each of sub-values separated by `:` (`97:65;2:3` is the fields
/// `[97, 65]` and `[2, 3]`). The first three sub-values of the first three fields are kept in
/// place, without an allocation, which is all a key sequence has but its text (read apart).
struct CSIFields {
  /// Field `f`'s sub-value `s` at `f * 4 + s`; -1 where none was written.
  private var values = SIMD16<Int32>(repeating: -1)
  /// How many fields the sequence has: 0 for none (`ESC [ A`), 1 for one empty field.
  private(set) var count = 0
  /// Whether the third field (a key's text) has a value.
  var hasText: Bool { values[8] >= 0 }

  /// Reads `bytes`, the parameter bytes; `nil` when a number is above the last code point, as no
  /// key sends one and clamping it would make a real key of it. Bytes other than digits, `:` and
  /// `;` (private markers, intermediates) are passed over.
  init?(_ bytes: ArraySlice<UInt8>) {
    guard !bytes.isEmpty else { return }
    count = 1
    var (field, sub) = (0, 0)
    // Every number is checked, kept or not.
    var current: Int32 = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        current = current * 10 + Int32(byte - 0x30)
        if current > 0x10FFFF { return nil }
        if field < 4, sub < 4 { values[field * 4 + sub] = current }
      case UInt8(ascii: ":"):
        (sub, current) = (sub + 1, 0)
      case UInt8(ascii: ";"):
        (field, sub, current) = (field + 1, 0, 0)
        count += 1
      default: break
      }
    }
  }

  /// Field `field`'s sub-value `sub`, if it was written (`nil` for `97::99`'s second).
  subscript(field: Int, sub: Int) -> Int? {
    guard field < 4, sub < 4, values[field * 4 + sub] >= 0 else { return nil }
    return Int(values[field * 4 + sub])
  }
}
