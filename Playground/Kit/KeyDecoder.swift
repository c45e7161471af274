import ViewTreeActions

/// Turns the bytes a terminal sends into key chords.
public struct KeyDecoder {
  private var pending: [UInt8] = []

  /// Creates a decoder.
  public init() {}

  /// Adds bytes read from the terminal and returns the chords they complete. An escape byte on
  /// its own is held until more bytes arrive or ``flush()`` says it stood alone.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [KeyChord] {
    pending.append(contentsOf: bytes)
    var chords: [KeyChord] = []
    while let (chord, used) = Self.decode(pending[...]) {
      if let chord { chords.append(chord) }
      pending.removeFirst(used)
    }
    return chords
  }

  /// Returns a lone escape still pending (the Escape key), when no more bytes came.
  public mutating func flush() -> [KeyChord] {
    defer { pending = [] }
    return pending == [0x1B] ? [KeyChord(.escape)] : []
  }

  /// The chord at the start of `bytes` and how many bytes it used; `nil` when more are needed.
  static func decode(_ bytes: ArraySlice<UInt8>) -> (KeyChord?, Int)? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x1B:
      let rest = Array(bytes.dropFirst())
      guard let second = rest.first else { return nil }
      guard second == UInt8(ascii: "[") else {
        // Alt with a key.
        return (KeyChord(.character(Character(Unicode.Scalar(second))), modifiers: .alt), 2)
      }
      guard rest.count >= 2 else { return nil }
      switch rest[1] {
      case UInt8(ascii: "A"): return (KeyChord(.up), 3)
      case UInt8(ascii: "B"): return (KeyChord(.down), 3)
      case UInt8(ascii: "C"): return (KeyChord(.right), 3)
      case UInt8(ascii: "D"): return (KeyChord(.left), 3)
      case UInt8(ascii: "Z"): return (KeyChord(.tab, modifiers: .shift), 3)
      case UInt8(ascii: "H"): return (KeyChord(.home), 3)
      case UInt8(ascii: "F"): return (KeyChord(.end), 3)
      case UInt8(ascii: "3"):
        guard rest.count >= 3 else { return nil }
        return rest[2] == UInt8(ascii: "~") ? (KeyChord(.delete), 4) : (nil, 3)
      default:
        // An escape sequence we do not know: skip its introducer.
        return (nil, 2)
      }
    case 0x09: return (KeyChord(.tab), 1)
    case 0x0D, 0x0A: return (KeyChord(.enter), 1)
    case 0x7F, 0x08: return (KeyChord(.delete), 1)
    case 0x01...0x1A:
      return (KeyChord(.character(Character(Unicode.Scalar(first + 0x60))), modifiers: .control), 1)
    case 0x20: return (KeyChord(.space), 1)
    case 0x21...0x7E: return (KeyChord(.character(Character(Unicode.Scalar(first)))), 1)
    default:
      return (nil, 1)
    }
  }
}

/// Parses a script of key chords separated by commas or spaces, such as `"tab, del, ctrl+z"`.
///
/// - Parameter script: The keys.
/// - Returns: The chords.
/// - Throws: `KeyChordParseError` for a malformed chord.
public func parseScript(_ script: String) throws(KeyChordParseError) -> [KeyChord] {
  var chords: [KeyChord] = []
  for part in script.split(whereSeparator: { $0 == "," || $0 == " " }) {
    chords.append(try KeyChord(parsing: String(part)))
  }
  return chords
}
