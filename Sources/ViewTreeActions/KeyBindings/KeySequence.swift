/// One or more key chords pressed one after another, such as `g g` or `ctrl+k ctrl+s`.
///
/// Parse sequences from text with ``init(parsing:)``: chords (see ``KeyChord``) separated by
/// spaces. A single chord is a sequence of one.
///
/// ```swift
/// let save = try KeySequence(parsing: "ctrl+k ctrl+s")
/// let top: KeySequence = [KeyChord(.character("g")), KeyChord(.character("g"))]
/// ```
public struct KeySequence: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
  /// The chords, in the order they are pressed.
  public var chords: [KeyChord]

  /// Creates a sequence of chords.
  ///
  /// - Parameter chords: The chords, in the order they are pressed.
  public init(_ chords: [KeyChord]) { self.chords = chords }

  /// Creates a sequence from a list of chords.
  ///
  /// - Parameter chords: The chords, in the order they are pressed.
  public init(arrayLiteral chords: KeyChord...) { self.chords = chords }

  /// Parses a sequence such as `"ctrl+k ctrl+s"`: chords separated by one or more spaces.
  ///
  /// - Parameter text: The sequence.
  /// - Throws: ``KeyChordParseError``, with the offset of the offending part in `text`.
  public init(parsing text: String) throws(KeyChordParseError) {
    var chords: [KeyChord] = []
    var offset = 0
    for part in text.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false) {
      defer { offset += part.count + 1 }
      guard !part.isEmpty else { continue }
      do {
        chords.append(try KeyChordParser.parse(String(Substring(part))))
      } catch {
        throw KeyChordParseError(text: text, offset: offset + error.offset, reason: error.reason)
      }
    }
    if chords.isEmpty { throw KeyChordParseError(text: text, offset: 0, reason: .empty) }
    self.chords = chords
  }

  /// The canonical spelling: each chord's (see ``KeyChord/description``), separated by a space.
  public var description: String { chords.map(\.description).joined(separator: " ") }

  /// Whether this sequence begins with `other` (or is it), or `other` begins with this one: two
  /// such bindings cannot both be in effect, since one would have to wait for keys the other does
  /// not.
  func overlaps(_ other: KeySequence) -> Bool {
    chords.starts(with: other.chords) || other.chords.starts(with: chords)
  }
}
