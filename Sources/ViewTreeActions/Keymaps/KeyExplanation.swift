import Actions
import ViewTree

/// One binding a key press considered, and what became of it (see
/// `NodeTree.explainKey(_:at:)`).
public struct KeyCandidate: CustomStringConvertible {
  /// What became of a candidate.
  public enum Verdict: Hashable, Sendable, CustomStringConvertible {
    /// It takes the key: its action is performed (or, for a block, nothing is).
    case wins
    /// It begins with the key and is longer: the key leaves a sequence pending, and this binding
    /// can complete it.
    case waitsForSequence
    /// A candidate before it takes the same keys, or keys that begin or are begun by its own;
    /// `by` is that candidate's position in the list, and `because` says why it comes first.
    case shadowed(by: Int, because: Precedence)
    /// A block (`null`) before it takes its keys: the key does nothing here.
    case blocked(by: Int)
    /// An unbind filtered it out; `by` is the unbind's source.
    case filtered(by: String)
    /// A modal scope holds the focus and the binding is outside it (see `Node.isInert`).
    case inert
    /// It took the key, but no manager or provider on the chain can perform its action: the key
    /// went on to the next binding of the same keys.
    case unavailable
    /// It takes the key, but its action is disabled: nothing is performed, and the key stops here.
    case disabled

    /// `wins`, `shadowed by 0 (deeper)`, `filtered by user.keymap:4`.
    public var description: String {
      switch self {
      case .wins: "wins"
      case .waitsForSequence: "waits for the rest of its sequence"
      case .shadowed(let index, let precedence): "shadowed by \(index) (\(precedence))"
      case .blocked(let index): "blocked by \(index)"
      case .filtered(let source): "filtered by \(source)"
      case .inert: "inert (outside the modal scope)"
      case .unavailable: "unavailable here (the key goes on)"
      case .disabled: "wins, disabled (the key stops here)"
      }
    }
  }

  /// Why one candidate comes before another.
  public enum Precedence: Hashable, Sendable, CustomStringConvertible {
    /// It is a priority binding.
    case priority
    /// It matches deeper.
    case deeper
    /// It matches at the same depth, in a higher layer.
    case higherLayer
    /// It is in the same layer at the same depth, declared later in a keymap (or earlier on a
    /// node or among the defaults).
    case declaration

    /// `priority`, `deeper`, `higher layer`, `declaration order`.
    public var description: String {
      switch self {
      case .priority: "priority"
      case .deeper: "deeper"
      case .higherLayer: "higher layer"
      case .declaration: "declaration order"
      }
    }
  }

  /// The binding: its keys, identifier (`null` for a block), node and layer.
  public let binding: KeyBinding
  /// The keymap line that declares it (`user.keymap:12`); `nil` for a binding declared on a node
  /// or a default.
  public let source: String?
  /// The keymap entry's predicate, if it has one.
  public let predicate: KeyPredicate?
  /// Whether it is a priority binding.
  public let isPriority: Bool
  /// The depth of the node it matches at (its node's, for a binding declared on a node).
  public let depth: Int
  /// What became of it.
  public internal(set) var verdict: Verdict

  /// Whether it is a block (`null`).
  public var isBlock: Bool { binding.role.isBlock }

  /// `ctrl+s -> Save [user user.keymap:3, depth 2, when Editor]: wins`.
  public var description: String {
    var origin = "\(binding.layer)"
    if let source { origin += " \(source)" }
    if let node = binding.node { origin += " on \(node.path)" }
    origin += ", depth \(depth)"
    if let predicate { origin += ", when \(predicate)" }
    if isPriority { origin += ", priority" }
    return "\(binding.keys) -> \(binding.identifier) [\(origin)]: \(verdict)"
  }
}

/// Every binding a key press at a node considers, in the order they are taken, and what became
/// of each (see `NodeTree.explainKey(_:at:)`).
public struct KeyExplanation: CustomStringConvertible {
  /// The chord explained: for a key event, the one a binding took (see
  /// `NodeTree.explainKey(_:at:)-(KeyEvent,_)`).
  public let chord: KeyChord
  /// The candidates, in precedence order.
  public let candidates: [KeyCandidate]
  /// For a key event, the chords tried before ``chord`` that no binding took: the reported chord,
  /// then the shifted key (see `KeyEvent.alternates`). Empty when the reported chord matched.
  public var tried: [KeyChord] = []

  /// The candidate that takes the key, if any: a block says the key does nothing, and a
  /// ``KeyCandidate/Verdict/disabled`` one that its action is disabled.
  public var winner: KeyCandidate? { candidates.first { $0.verdict == .wins || $0.verdict == .disabled } }

  /// One line per candidate, numbered as `shadowed(by:)` and `blocked(by:)` count.
  public var description: String {
    let passed = tried.map { "\($0): no binding; " }.joined() + (tried.isEmpty ? "" : "\(chord):\n")
    guard !candidates.isEmpty else { return passed + "\(chord): no binding" }
    return passed + candidates.enumerated().map { "\($0.offset): \($0.element)" }.joined(separator: "\n")
  }
}

extension NodeTree {
  /// Why a key event does what it does at a node, as a press: the explanation of the first of its
  /// chord and its alternates (see ``KeyEvent/alternates``) that a binding takes, as
  /// `Node.handleKey(_:)` tries them, with the chords tried before it in
  /// ``KeyExplanation/tried``; the reported chord's when none is taken.
  ///
  /// ```swift
  /// let event = KeyEvent(KeyChord(.character("с"), modifiers: .control), baseKey: .character("c"))
  /// print(tree.explainKey(event, at: tree.firstResponder))
  /// // ctrl+с: no binding; ctrl+c:
  /// // 0: ctrl+c -> Copy [nodes on window, depth 0]: wins
  /// ```
  ///
  /// - Parameters:
  ///   - event: The key event.
  ///   - node: Where it is pressed; the focus, for a key press.
  /// - Returns: The candidates of the chord that matched, and the chords tried before it.
  /// - Complexity: That of ``explainKey(_:at:)-(KeyChord,_)`` for each chord tried (three at most).
  public func explainKey(_ event: KeyEvent, at node: Node) -> KeyExplanation {
    var tried: [KeyChord] = []
    for chord in [event.chord] + event.alternates {
      var explanation = explainKey(chord, at: node)
      // As a key press resolves: a binding in effect takes the chord, whatever its action's
      // state; a block leaves it unbound, and the next chord is tried.
      let taken = explanation.candidates.contains { candidate in
        switch candidate.verdict {
        case .wins: !candidate.isBlock
        case .waitsForSequence, .unavailable, .disabled: true
        default: false
        }
      }
      if taken {
        explanation.tried = tried
        return explanation
      }
      tried.append(chord)
    }
    return explainKey(event.chord, at: node)
  }

  /// Why a key does what it does at a node: every binding whose keys begin with `chord`, from
  /// the nodes, the tree's defaults and its keymaps, in the order of precedence (see
  /// ``Keymap``), each with its layer, source, match depth, predicate, and what became of it.
  ///
  /// ```swift
  /// print(tree.explainKey(try KeyChord(parsing: "ctrl+s"), at: tree.firstResponder))
  /// // 0: ctrl+s -> SaveAll [user user.keymap:3 on window/editor, depth 1, when Editor]: wins
  /// // 1: ctrl+s -> Save [nodes on window/editor, depth 1]: shadowed by 0 (higher layer)
  /// ```
  ///
  /// The binding that takes the key has its action validated, as a key press finds it (a
  /// manager's `validate` runs; nothing is performed): an unavailable one passes the key to the
  /// next binding of the same keys, and a disabled one stops it (see `Node.handleKey(_:)`).
  ///
  /// The chord is explained as the first key of a sequence; a key that continues a pending
  /// sequence resolves among that sequence's continuations (see `Node.resolveKey(_:)`). At a
  /// text owner, the text a key types is a candidate too, where a key press places it: after the
  /// owner's own bindings and the priority ones, before the rest
  /// (`a -> InsertText [nodes on window/box, depth 2]: wins`).
  ///
  /// - Parameters:
  ///   - chord: The chord pressed.
  ///   - node: Where it is pressed; the focus, for a key press.
  /// - Returns: The candidates and their verdicts.
  /// - Complexity: That of resolving the key with every candidate kept, O(*d* + *b* log *b*).
  public func explainKey(_ chord: KeyChord, at node: Node) -> KeyExplanation {
    let top = node.root
    var ranked = node.rankedBindings(
      startingWith: chord, top: top, keys: top.treeKeys ?? TreeKeys(toolkit: nil, user: nil))
    if node.takesText, !node.isComposing, chord.typedText(in: nil) != nil {
      // As a key press at a text owner: the text the key types comes after the bindings the
      // owner keeps before text (priority ones, and those that match at the owner), before the
      // rest.
      let place = ranked.firstIndex { !node.keepsBeforeText($0.binding) } ?? ranked.count
      ranked.insert(
        RankedBinding(
          binding: KeyBinding(typing: chord, at: node), predicate: nil, source: nil,
          rank: Rank(isPriority: false, distance: 0, layer: .nodes, order: .max), refusal: nil),
        at: place)
    }
    var inEffect = OverlapIndex<Int>()
    var candidates: [KeyCandidate] = []
    var winner: Int?
    for (index, found) in ranked.enumerated() {
      var verdict: KeyCandidate.Verdict
      if let refusal = found.refusal {
        verdict = refusal
      } else if let first = inEffect.claim(found.binding.keys, for: index) {
        let earlier = ranked[first]
        verdict =
          earlier.binding.role.isBlock
          ? .blocked(by: first) : .shadowed(by: first, because: earlier.rank.precedence(over: found.rank))
      } else if winner == nil {
        winner = index
        verdict = found.binding.keys.chords.count == 1 ? .wins : .waitsForSequence
      } else {
        // In effect after the winner: only a sequence can be, when the winner is one too.
        verdict = .waitsForSequence
      }
      candidates.append(
        KeyCandidate(
          binding: found.binding, source: found.source, predicate: found.predicate,
          isPriority: found.rank.isPriority, depth: found.binding.node?.depth ?? 0, verdict: verdict))
    }
    // Blocks begin no sequence: when only blocks would wait, the first of them takes the key and
    // nothing happens, as at a key press.
    if let taker = winner, candidates[taker].verdict == .waitsForSequence,
      !candidates.contains(where: { $0.verdict == .waitsForSequence && !$0.isBlock })
    {
      for index in candidates.indices where candidates[index].verdict == .waitsForSequence {
        candidates[index].verdict = index == taker ? .wins : .blocked(by: taker)
      }
    }
    // As a key press does: an unavailable action passes the key to the next binding of the same
    // keys (a block stops it), a disabled one stops it there.
    while let taker = winner, candidates[taker].verdict == .wins, !candidates[taker].isBlock,
      !candidates[taker].binding.role.isFocusMove, candidates[taker].binding.identifier != typingIdentifier
    {
      let binding = candidates[taker].binding
      let validation = node.validate(node.performed(by: binding), sender: binding)
      if validation.isEnabled { break }
      guard !validation.isVisible else {
        candidates[taker].verdict = .disabled
        break
      }
      candidates[taker].verdict = .unavailable
      winner = candidates.indices.first { index in
        index > taker && candidates[index].binding.keys == binding.keys
          && candidates[index].verdict
            == .shadowed(by: taker, because: ranked[taker].rank.precedence(over: ranked[index].rank))
      }
      if let next = winner {
        candidates[next].verdict = .wins
        // What it shadowed is shadowed by the new taker now.
        for index in candidates.indices where index > next {
          if case .shadowed(by: taker, _) = candidates[index].verdict {
            candidates[index].verdict = .shadowed(
              by: next, because: ranked[next].rank.precedence(over: ranked[index].rank))
          }
        }
      }
    }
    return KeyExplanation(chord: chord, candidates: candidates)
  }
}

/// A binding of a lower layer that a keymap line takes its keys from at a node: an entry that
/// comes before it with the same keys (or overlapping ones), a block, or an unbind that filters
/// it (see `NodeTree.keymapOverrides(at:)`).
public struct KeymapOverride: CustomStringConvertible {
  /// The keymap line that takes the keys (`user.keymap:3`).
  public let source: String
  /// The layer of that line's keymap: ``KeymapLayer/user`` or ``KeymapLayer/toolkit``.
  public let layer: KeymapLayer
  /// The binding it takes them from, as `explainKey` lists it: a toolkit entry, a node's binding
  /// or a default. Its ``KeyCandidate/verdict`` says how: shadowed, blocked or filtered.
  public let binding: KeyCandidate

  /// `user.keymap:3 takes ctrl+s -> Save [nodes on window, depth 0]: shadowed by 0 (deeper)`.
  public var description: String { "\(source) takes \(binding)" }
}

extension NodeTree {
  /// Which bindings of lower layers the keymaps take keys from at `node`: for each key a keymap
  /// binds, every toolkit entry, node binding or default that a user entry (or a toolkit entry, for
  /// those below it) shadows, blocks or filters with an unbind, as ``explainKey(_:at:)-(KeyChord,_)``
  /// finds it there. A settings page lists them beside ``Keymap/conflicts()``, which compares the
  /// entries of one keymap.
  ///
  /// ```swift
  /// tree.userKeymap = Keymap(parsing: "ctrl+s = SaveAll", source: "user.keymap")
  /// for override in tree.keymapOverrides(at: tree.firstResponder) { print(override) }
  /// // user.keymap:1 takes ctrl+s -> Save [nodes on window, depth 0]: shadowed by 0 (higher layer)
  /// ```
  ///
  /// - Parameter node: Where the keys would be pressed: the focus when `nil`. Predicates match
  ///   the contexts from there up, so another node may see other overrides.
  /// - Returns: The overrides, by the keymap line's first chord in the order of its description,
  ///   then as the explanation lists the bindings.
  /// - Complexity: One explanation for each first chord of the keymaps' entries.
  public func keymapOverrides(at node: Node? = nil) -> [KeymapOverride] {
    let node = node ?? firstResponder
    var chords: Set<KeyChord> = []
    for keymap in [toolkitKeymap, userKeymap] {
      for entry in keymap?.entries ?? [] { chords.insert(entry.keys.chords[0]) }
    }
    // An unbind names its line; the layer is the keymap that holds it.
    func layer(of source: String) -> KeymapLayer {
      userKeymap?.entries.contains { $0.source == source } == true ? .user : .toolkit
    }
    var overrides: [KeymapOverride] = []
    for chord in chords.sorted(by: { $0.description < $1.description }) {
      let candidates = explainKey(chord, at: node).candidates
      for candidate in candidates {
        switch candidate.verdict {
        case .shadowed(let index, _), .blocked(let index):
          let taker = candidates[index]
          guard taker.binding.layer > candidate.binding.layer, let source = taker.source else { continue }
          overrides.append(KeymapOverride(source: source, layer: taker.binding.layer, binding: candidate))
        case .filtered(let source):
          overrides.append(KeymapOverride(source: source, layer: layer(of: source), binding: candidate))
        default: continue
        }
      }
    }
    return overrides
  }
}
