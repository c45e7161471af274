import Actions

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
  /// - Throws: `ParseError<InvalidKeyChord>`, with the offset of the offending part in `text`.
  public init(parsing text: String) throws(ParseError<InvalidKeyChord>) {
    var chords: [KeyChord] = []
    var offset = 0
    for part in text.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false) {
      defer { offset += part.count + 1 }
      guard !part.isEmpty else { continue }
      do {
        chords.append(try KeyChordParser.parse(String(Substring(part))))
      } catch {
        throw ParseError<InvalidKeyChord>(text: text, offset: offset + error.offset, reason: error.reason)
      }
    }
    if chords.isEmpty { throw ParseError<InvalidKeyChord>(text: text, offset: 0, reason: .empty) }
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

/// Keys recorded as a tree of chords, to tell in O(*s*), in the length of new keys, whether they
/// overlap recorded ones, however many are recorded: the rule of nearest binding asks it of each
/// binding it takes.
final class OverlapIndex<Value> {
  private final class Level {
    var next: [KeyChord: Level] = [:]
    /// The value of the recorded keys that end here.
    var ending: Value?
    /// The value of the first recorded keys that pass through here or end here.
    let first: Value
    init(first: Value) { self.first = first }
  }

  private var top: [KeyChord: Level] = [:]

  /// Returns the value of the first recorded keys that overlap `keys` (one begins with the
  /// other); when none do, records `keys` with `value` and returns `nil`. Empty keys overlap
  /// nothing and are not recorded.
  func claim(_ keys: KeySequence, for value: Value) -> Value? {
    let chords = keys.chords
    guard let head = chords.first else { return nil }
    guard var level = top[head] else {
      top[head] = Self.path(chords, from: 1, for: value)
      return nil
    }
    for position in chords.indices.dropFirst() {
      // Recorded keys end here, so they begin `keys`. (Recorded keys never overlap each other:
      // then no other recorded keys begin with `keys`.)
      if let ending = level.ending { return ending }
      guard let next = level.next[chords[position]] else {
        level.next[chords[position]] = Self.path(chords, from: position + 1, for: value)
        return nil
      }
      level = next
    }
    // `keys` end here: they are recorded keys, or begin some.
    return level.ending ?? level.first
  }

  /// The level reached by `chords[..<position]`, with the levels for the rest below it.
  private static func path(_ chords: [KeyChord], from position: Int, for value: Value) -> Level {
    let end = Level(first: value)
    end.ending = value
    var level = end
    for index in (position..<chords.count).reversed() {
      let above = Level(first: value)
      above.next[chords[index]] = level
      level = above
    }
    return level
  }

  // Released level by level: a chain of levels as long as a 10,000-key sequence would otherwise
  // be released by as many nested calls.
  deinit {
    var levels = Array(top.values)
    top = [:]
    while let level = levels.popLast() {
      levels.append(contentsOf: level.next.values)
      level.next = [:]
    }
  }
}
