import Actions

/// Two entries of one keymap that can take the same key press, so that one hides the other
/// where both apply: the order of the keymap decides between them, or a priority entry does (see
/// ``Keymap/conflicts()``).
public struct KeymapConflict: Hashable, Sendable, CustomStringConvertible {
  /// How the two entries' keys meet.
  public enum Kind: Hashable, Sendable {
    /// The same keys.
    case sameKeys
    /// The earlier entry's keys begin the later's, or the other way round: where both apply, the
    /// one that wins hides the other, and a single chord that begins a sequence waits for the
    /// next key instead of doing what it is bound to.
    case prefix
  }

  /// Whether the two can apply at once.
  public enum Certainty: Hashable, Sendable {
    /// Some context makes both apply at the same node: the later entry wins there and the
    /// earlier never does. ``example`` is such a context.
    case certain
    /// The predicates use `!` or `>`, and no single context makes both apply; a stack of several
    /// might (this is not decided).
    case possible
  }

  /// The entry declared first.
  public let first: KeymapEntry
  /// The entry declared later, which wins where both apply at the same depth, unless only
  /// ``first`` is a priority entry (see ``winner``).
  public let second: KeymapEntry
  /// How their keys meet.
  public let kind: Kind
  /// Whether they certainly apply at once.
  public let certainty: Certainty
  /// A context in which both apply, when the conflict is certain.
  public let example: KeyContext?

  /// The entry that takes the key where both apply at the same node: a priority entry over one
  /// that is not, else the later (see ``Keymap``'s order of precedence).
  public var winner: KeymapEntry { first.isPriority && !second.isPriority ? first : second }

  /// `user.keymap:3 and user.keymap:9: ctrl+s is bound twice where both apply (Editor mode=insert):
  /// the later wins`, or `…: user.keymap:3 wins (priority)` when a priority entry decides.
  public var description: String {
    let keys = kind == .sameKeys ? "\(first.keys) is bound twice" : "\(first.keys) and \(second.keys) overlap"
    let whereBoth =
      certainty == .certain
      ? "where both apply (\(example.map { $0.description.isEmpty ? "any context" : $0.description } ?? ""))"
      : "where both may apply"
    let wins =
      first.isPriority == second.isPriority ? "the later wins" : "\(winner.source) wins (priority)"
    return "\(first.source) and \(second.source): \(keys) \(whereBoth): \(wins)"
  }
}

extension Keymap {
  /// The pairs of entries that can take the same key press, where their order in the keymap (or
  /// a priority entry) decides: the same keys, or keys one of which begins the other, with
  /// predicates that can hold at the same node. A binding without a predicate conflicts with
  /// another without one, and with one with a predicate only when it is a priority entry and the
  /// other is not (otherwise the binding with a predicate overrides it by design); blocks and
  /// unbinds are not bindings and conflict with nothing. ``KeymapConflict/winner`` says which
  /// entry takes the key.
  ///
  /// Whether two predicates can hold at the same node is decided by trying the contexts that the
  /// names and values they mention make; with `!` or `>`, which read other levels, a pair that no
  /// single context makes both hold is reported as ``KeymapConflict/Certainty/possible``.
  ///
  /// - Returns: The conflicts, each pair once, in the order of their later entry.
  /// - Complexity: O(*n* + *p*²) for *n* entries and *p* entries of the same keys (or of keys
  ///   that begin them), times what deciding a pair costs (at most 4,096 contexts tried).
  public func conflicts() -> [KeymapConflict] {
    var byKeys: [KeySequence: [Int]] = [:]
    for (position, entry) in entries.enumerated() {
      guard case .perform = entry.effect else { continue }
      byKeys[entry.keys, default: []].append(position)
    }
    var found: [(position: Int, conflict: KeymapConflict)] = []
    for (keys, positions) in byKeys {
      // The same keys: each pair once, but that an entry whose predicate an earlier one repeats
      // is reported with the first such entry only (a thousand copies are a thousand conflicts,
      // not half a million).
      for (index, later) in positions.enumerated() {
        for earlier in positions[..<index] {
          if let conflict = conflict(earlier, later, kind: .sameKeys) {
            found.append((later, conflict))
            if entries[earlier].predicate == entries[later].predicate { break }
          }
        }
      }
      // Keys that begin these: each shorter sequence bound in the keymap.
      for length in stride(from: keys.chords.count - 1, to: 0, by: -1) {
        guard let shorter = byKeys[KeySequence(Array(keys.chords.prefix(length)))] else { continue }
        for long in positions {
          for short in shorter {
            let (earlier, later) = short < long ? (short, long) : (long, short)
            if let conflict = conflict(earlier, later, kind: .prefix) { found.append((later, conflict)) }
          }
        }
      }
    }
    return found.sorted { $0.position < $1.position }.map(\.conflict)
  }

  /// The conflict between the entries at `earlier` and `later`, if their predicates can hold at
  /// the same node.
  private func conflict(_ earlier: Int, _ later: Int, kind: KeymapConflict.Kind) -> KeymapConflict? {
    let (first, second) = (entries[earlier], entries[later])
    let certainty: KeymapConflict.Certainty
    var example: KeyContext?
    switch (first.predicate, second.predicate) {
    case (nil, nil):
      certainty = .certain
      example = KeyContext.none
    case (nil, let other?), (let other?, nil):
      // A binding with a predicate matches at least as deep, so it overrides one without, unless
      // the one without is a priority entry: then it wins wherever the other applies.
      let plain = first.predicate == nil ? first : second
      let contextual = first.predicate == nil ? second : first
      guard plain.isPriority, !contextual.isPriority else { return nil }
      switch PredicatePair(other, other).witness() {
      case .found(let context):
        certainty = .certain
        example = context
      case .none(let decided):
        guard !decided else { return nil }
        certainty = .possible
      }
    case (let left?, let right?):
      switch PredicatePair(left, right).witness() {
      case .found(let context):
        certainty = .certain
        example = context
      case .none(let decided):
        guard !decided else { return nil }
        certainty = .possible
      }
    }
    return KeymapConflict(first: first, second: second, kind: kind, certainty: certainty, example: example)
  }
}

/// Two predicates, tried together on the contexts their names and values make.
private struct PredicatePair {
  /// What a context gives a name: nothing, the name alone, or a value.
  enum Given: Hashable {
    case absent
    case name
    case value(String)
  }

  /// A value that no predicate mentions.
  static let otherValue = "\u{0}"
  /// How many contexts a pair may try.
  static let limit = 4_096

  let predicates: [KeyPredicate]

  init(_ left: KeyPredicate, _ right: KeyPredicate) { predicates = [left, right] }

  /// What trying contexts found.
  enum Witness {
    /// A context in which both hold.
    case found(KeyContext)
    /// None does; `decided` when that settles it (no `!` or `>`, and every context was tried).
    case none(decided: Bool)
  }

  func witness() -> Witness {
    // Each name's possibilities: absent, alone, each value mentioned, another value.
    var values: [String: Set<String>] = [:]
    var readsLevels = false
    for predicate in predicates {
      for term in predicate.terms {
        switch term {
        case .name(let name): values[predicate.symbols[name].text, default: []].formUnion(EmptyCollection())
        case .equals(let key, let value), .notEquals(let key, let value):
          values[predicate.symbols[key].text, default: []].insert(predicate.symbols[value].text)
        case .not, .descendant: readsLevels = true
        case .and, .or: break
        }
      }
    }
    let names = values.keys.sorted()
    let options: [[Given]] = names.map { name in
      [.absent, .name] + values[name]!.sorted().map(Given.value) + [.value(Self.otherValue)]
    }
    let count = options.reduce(1) { total, choices in total > Self.limit ? total : total * choices.count }
    guard count <= Self.limit else { return .none(decided: false) }
    var choice = Array(repeating: 0, count: names.count)
    for _ in 0..<count {
      var world: [String: Given] = [:]
      for (index, name) in names.enumerated() { world[name] = options[index][choice[index]] }
      if predicates.allSatisfy({ $0.holds(in: world) }) { return .found(context(of: world)) }
      // The next combination, as an odometer.
      for index in choice.indices {
        choice[index] += 1
        if choice[index] < options[index].count { break }
        choice[index] = 0
      }
    }
    return .none(decided: !readsLevels)
  }

  /// The context a combination describes (another value shown as `other`).
  private func context(of world: [String: Given]) -> KeyContext {
    let terms = world.keys.sorted().compactMap { name -> String? in
      switch world[name]! {
      case .absent: nil
      case .name: name
      case .value(let value): "\(name)=\(value == Self.otherValue ? "other" : value)"
      }
    }
    // Known to parse: a predicate's names and values are made of the bytes a context's are.
    return try! KeyContext(parsing: terms.joined(separator: " "))
  }
}

extension KeyContext {
  /// The context of no terms.
  fileprivate static let none = try! KeyContext(parsing: "")  // Known to parse.
}

extension KeyPredicate {
  /// Whether the predicate holds on a stack of one level whose context gives each name what
  /// `world` says (a name it does not list is absent). On one level, `!p` is `p` not holding
  /// there, and `p > q` never holds.
  fileprivate func holds(in world: [String: PredicatePair.Given]) -> Bool {
    var values: [Bool] = []
    values.reserveCapacity(terms.count)
    for term in terms {
      switch term {
      case .name(let name): values.append((world[symbols[name].text] ?? .absent) != .absent)
      case .equals(let key, let value):
        values.append(world[symbols[key].text] == .value(symbols[value].text))
      case .notEquals(let key, let value):
        guard case .value(let given)? = world[symbols[key].text] else {
          values.append(false)
          continue
        }
        values.append(given != symbols[value].text)
      case .not(let operand): values.append(!values[operand])
      case .and(let left, let right): values.append(values[left] && values[right])
      case .or(let left, let right): values.append(values[left] || values[right])
      case .descendant: values.append(false)
      }
    }
    return values.last!
  }
}
