import Actions
import ViewTree

/// What a command palette offers from one node: every identifier the nearest manager can perform,
/// validated there once, with the keys bound to it in effect; filtered by typed text on every
/// keystroke.
///
/// ```swift
/// let palette = CommandPalette(from: tree.focusedNode ?? tree.root)
/// for match in palette.matches("sv") { print(match.entry) }  // "ctrl+k ctrl+s  Save All"
/// tree.firstResponder.perform(palette.matches("sv")[0].entry.identifier)
/// ```
///
/// Building a palette validates each identifier (one validation dispatch each); filtering reads
/// only what was prepared, so it is cheap enough to run on every keystroke. Build a new palette
/// when the focus or the document changes.
public struct CommandPalette {
  /// An entry that matches typed text, with where.
  public struct Match {
    /// The entry.
    public var entry: ActionEntry { entries[index] }
    /// Higher is better: matches at word starts and in runs rank first.
    public let score: Int
    /// The palette's entries and the matched one's index: a match stays a few words wide, so
    /// that ranking the matches moves no entry.
    let entries: [ActionEntry]
    let index: Int
    /// The query and the entry's key, to find the offsets when asked.
    let query: [Character]
    let key: [Character]

    /// The offsets of the matched characters among the characters of the lowercased
    /// ``ActionEntry/title``. Computed when asked, so that filtering allocates nothing per match.
    public var matchedOffsets: [Int] {
      var offsets: [Int] = []
      _ = CommandPalette.score(query, in: key) { offsets.append($0) }
      return offsets
    }
  }

  /// Every entry, visible or not, sorted by title.
  public let entries: [ActionEntry]

  /// Each visible entry's title, lowercased, as characters; parallel to `visible`.
  private let keys: [[Character]]
  private let visible: [Int]

  /// Prepares the palette of `node`: what it offers (see
  /// `NodeTree.offeredActions(at:itemsIn:includingRegistered:)`), the registered identifiers of the
  /// manager that would answer a perform from it included, each validated from `node`, with the
  /// keys (a chord or a sequence) of the nearest binding in effect for it. Focus moves are left
  /// out: the tree moves the focus, no manager performs them.
  ///
  /// - Parameter node: Where the palette's commands would be performed.
  /// - Complexity: One validation dispatch per action, plus what the list costs.
  public init(from node: Node) {
    let offered = node.offered(itemsIn: nil, includingRegistered: true).entries
    self.init(entries: offered.filter { entry in entry.offers.contains { $0.source != .focusMove } })
  }

  /// A palette of given entries (sorted by title), for tests and other sources.
  ///
  /// - Parameter entries: The entries.
  public init(entries: [ActionEntry]) {
    let sorted = entries.sorted { $0.title < $1.title }
    let visible = sorted.indices.filter { sorted[$0].validation.isVisible }
    self.entries = sorted
    self.visible = visible
    keys = visible.map { Array(sorted[$0].title.lowercased()) }
  }

  /// The visible entries whose title contains the characters of `text` in order (a subsequence,
  /// case-insensitive, spaces ignored), best first: matches at word starts and in runs score
  /// higher, earlier and shorter ones break ties. Empty text matches every visible entry, in title
  /// order.
  ///
  /// - Parameter text: What the user typed.
  /// - Returns: The matches.
  /// - Complexity: O(*n* · *l*) in the entries and their title lengths.
  public func matches(_ text: String) -> [Match] {
    // Characters, not bytes or scalars: "é" must not match the first byte of "ã", and a
    // precomposed "é" matches a decomposed one.
    let query = Array(text.lowercased().filter { $0 != " " })
    var found: [Match] = []
    for (position, key) in keys.enumerated() {
      guard let score = Self.score(query, in: key, { _ in }) else { continue }
      found.append(Match(score: score, entries: entries, index: visible[position], query: query, key: key))
    }
    // Stable: equal scores keep title order.
    return found.enumerated().sorted { lhs, rhs in
      lhs.element.score != rhs.element.score ? lhs.element.score > rhs.element.score : lhs.offset < rhs.offset
    }.map(\.element)
  }

  /// Scores `query` as a subsequence of `key`, greedily from the left, preferring word starts,
  /// and passes each matched offset to `offset`; `nil` when it is not one.
  static func score(_ query: [Character], in key: [Character], _ offset: (Int) -> Void) -> Int? {
    if query.isEmpty { return 0 }
    var score = 0
    var first = -1
    var position = 0
    var previous = -2
    for character in query {
      // Prefer the next occurrence at a word start, else the next occurrence.
      var chosen = -1
      var scan = position
      while scan < key.count {
        if key[scan] == character {
          if chosen < 0 { chosen = scan }
          if isWordStart(key, scan) {
            chosen = scan
            break
          }
          if scan == previous + 1 { break }
        }
        scan += 1
      }
      guard chosen >= 0 else { return nil }
      score += 1
      if isWordStart(key, chosen) { score += 8 }
      if chosen == previous + 1 { score += 4 }
      offset(chosen)
      if first < 0 { first = chosen }
      previous = chosen
      position = chosen + 1
    }
    score -= first / 4 + key.count / 16
    return score
  }

  private static func isWordStart(_ key: [Character], _ offset: Int) -> Bool {
    if offset == 0 { return true }
    switch key[offset - 1] {
    case " ", ".", "_", "-", "(":
      return true
    default: return false
    }
  }
}
