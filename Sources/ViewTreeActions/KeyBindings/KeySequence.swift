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
/// binding it takes. The tree is flat (one table of edges, one array of levels), so that recording
/// keys allocates nothing per chord and releasing it recurses nowhere.
struct OverlapIndex<Value> {
  /// A chord leaving a level; level 0 is the top, which no keys end at.
  private struct Edge: Hashable {
    let level: Int
    let chord: KeyChord
  }

  /// A level below the top: the value of the recorded keys that end there, and of the first
  /// recorded keys that pass through it or end there.
  private struct Level {
    var ending: Value?
    let first: Value
  }

  private var edges: [Edge: Int] = [:]
  /// Level `n` (from 1) is at `levels[n - 1]`.
  private var levels: [Level] = []

  /// Returns the value of the first recorded keys that overlap `keys` (one begins with the
  /// other); when none do, records `keys` with `value` and returns `nil`. Empty keys overlap
  /// nothing and are not recorded.
  mutating func claim(_ keys: KeySequence, for value: Value) -> Value? {
    let chords = keys.chords
    guard !chords.isEmpty else { return nil }
    var level = 0
    for position in chords.indices {
      // Recorded keys end here, so they begin `keys`. (Recorded keys never overlap each other:
      // then no other recorded keys begin with `keys`.)
      if level > 0, let ending = levels[level - 1].ending { return ending }
      guard
        let next = edges.existingValue(
          forKey: Edge(level: level, chord: chords[position]), orInserting: levels.count + 1)
      else {
        levels.append(Level(ending: nil, first: value))
        level = levels.count
        for chord in chords[(position + 1)...] {
          levels.append(Level(ending: nil, first: value))
          edges[Edge(level: level, chord: chord)] = levels.count
          level = levels.count
        }
        levels[level - 1].ending = value
        return nil
      }
      level = next
    }
    // `keys` end here: they are recorded keys, or begin some.
    return levels[level - 1].ending ?? levels[level - 1].first
  }
}

extension Dictionary {
  /// Makes room for `count` more elements, at least doubling when it grows: reserving a few more
  /// at a time would otherwise reallocate every time.
  mutating func reserveGrowing(by count: Int) {
    guard self.count + count > capacity else { return }
    reserveCapacity(Swift.max(self.count + count, 2 * capacity))
  }

  /// The value stored for `key`; when there is none, stores `value` and returns `nil`. One lookup
  /// either way, where reading then writing would hash the key twice.
  mutating func existingValue(forKey key: Key, orInserting value: Value) -> Value? {
    Self.existing(in: &self[key], orStoring: value)
  }

  private static func existing(in slot: inout Value?, orStoring value: Value) -> Value? {
    if let existing = slot { return existing }
    slot = value
    return nil
  }
}
