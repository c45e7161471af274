import Actions
import ViewTree

/// Where a binding stands in the order of precedence (see ``Keymap``).
struct Rank {
  let isPriority: Bool
  /// How many steps up from the node pressed at is the node it matches at: fewer is deeper.
  let distance: Int
  let layer: KeymapLayer
  /// Breaks ties within a layer at one depth, lower first.
  let order: Int

  /// Whether it comes before `other`: priority, then deeper, then a higher layer, then `order`.
  func precedes(_ other: Rank) -> Bool {
    if isPriority != other.isPriority { return isPriority }
    if distance != other.distance { return distance < other.distance }
    if layer != other.layer { return layer > other.layer }
    return order < other.order
  }

  /// Why a binding of this rank, taken first, comes before one of `other`.
  func precedence(over other: Rank) -> KeyCandidate.Precedence {
    if isPriority != other.isPriority { return .priority }
    if distance != other.distance { return .deeper }
    if layer != other.layer { return .higherLayer }
    return .declaration
  }
}

/// A binding a key press considers, as found: its rank, where it is, and, when it does not take
/// part, why. Only numbers: a candidate becomes a ``KeyBinding`` when asked (see
/// `binding(from:top:keys:)`), so that a press makes one binding, the one that takes the key.
struct Candidate {
  enum Origin {
    /// The binding at `position` of the bindings declared on the node `rank.distance` steps up.
    case node(position: Int)
    /// The tree's default at `position` (see `NodeTree.defaultKeyBindings`).
    case treeDefault(position: Int)
    /// The entry at `position` of the keymap of `rank.layer`, matched on the node `rank.distance`
    /// steps up.
    case entry(position: Int)
  }

  let origin: Origin
  let rank: Rank
  /// Why it does not take part (an unbind filtered it, or a modal scope makes it inert); `nil`
  /// when it does.
  let refusal: KeyCandidate.Verdict?

  /// The candidate made into the binding found in effect at `node`, where the key was pressed,
  /// in the tree whose top-most node is `top`, with keymaps `keys`. The candidate was found
  /// there and nothing changed the tree since: its node, binding, default or entry is there.
  func binding(from node: Node, top: Node, keys: TreeKeys) -> KeyBinding {
    let owner = node.ancestor(rank.distance)!
    switch origin {
    case .node(let position):
      return owner.withAttachment(KeyBindingsAttachment.self) {
        KeyBinding($0.bindings[position], on: owner)
      }!
    case .treeDefault(let position):
      var skipped = 0
      return top.tree!.firstDefaultKeyBinding { _ in
        skipped += 1
        return skipped > position
      }!
    case .entry(let position):
      return KeyBinding(position, of: keys.index(rank.layer)!, in: rank.layer, on: owner)
    }
  }

  /// The candidate made into a binding found in effect at `node` (see
  /// `binding(from:top:keys:)`), with its keymap predicate and source.
  func made(from node: Node, top: Node, keys: TreeKeys) -> RankedBinding {
    var (predicate, source): (KeyPredicate?, String?) = (nil, nil)
    if case .entry(let position) = origin {
      let entry = keys.keymap(rank.layer)!.entries[position]
      (predicate, source) = (entry.predicate, entry.source)
    }
    return RankedBinding(
      binding: binding(from: node, top: top, keys: keys), predicate: predicate, source: source, rank: rank,
      refusal: refusal)
  }
}

/// A candidate made into a binding (see ``Candidate``).
struct RankedBinding {
  /// The binding, as found in effect (its node and layer).
  let binding: KeyBinding
  let predicate: KeyPredicate?
  /// The keymap line that declares it; `nil` for a node's binding or a default.
  let source: String?
  let rank: Rank
  let refusal: KeyCandidate.Verdict?
}

/// The context stack of a key press as keymap predicates read it, collected from the node
/// pressed at up: each node on the path that declares a context, then the root's level (with its
/// context, if it declares one). Levels are kept by their distance, not their node, so that
/// collecting them retains no node.
struct ContextLevels {
  private(set) var contexts = ContextStack()
  /// Each level's steps up from the node pressed at.
  private(set) var distances: [Int] = []
  /// The sets of levels where each term of a predicate holds, when it does not fit the stack.
  private var sets: [UInt64] = []

  /// Forgets the levels, keeping the storage.
  mutating func removeAll() {
    contexts.removeAll()
    distances.removeAll(keepingCapacity: true)
  }

  /// Adds the level of the node `distance` steps up, with its context.
  mutating func append(_ context: KeyContext?, distance: Int) {
    contexts.append(context)
    distances.append(distance)
  }

  /// The level where the predicate of the entry at `position` of `keymap` matches (the root's
  /// without one), or `nil` when it does not. (Read where the keymap keeps it: a copy would
  /// retain it.)
  mutating func match(_ keymap: KeymapIndex, _ position: Int) -> Int? {
    guard keymap.predicates[position] != nil else { return distances.count - 1 }
    return keymap.predicates[position]!.matchLevel(nearestFirst: contexts, scratch: &sets)
  }
}

extension Node {
  /// Calls `body` with every binding from this node up whose keys begin with `chord` (every one,
  /// when `nil`; only those of keys `exact`, when given), from the nodes, the tree's defaults and
  /// its keymaps, in no order; each one that does not take part says why (an unbind, a modal
  /// scope). A binding to `item.Activate` away from an item is left out, as it is in effect only
  /// at one.
  ///
  /// - Complexity: O(*d*) for the path, plus the bindings found, plus for each keymap entry of
  ///   the chord its predicate's cost (see ``KeyPredicate/matchLevel(in:)``).
  private func forEachCandidate(
    startingWith chord: KeyChord?, exactly exact: KeySequence? = nil, top: Node, keys: TreeKeys,
    levels: inout ContextLevels, _ body: (Candidate) -> Void
  ) {
    levels.removeAll()
    var reach = ModalReach(from: self, top: top)
    let unbinds = Unbinds(chord: chord, keys: keys)
    var steps = 0
    var scopeDistance = Int.max
    var topHasLevel = false
    // The nodes are lent, not retained: nothing here changes the tree or calls user code.
    _ = walkToTop { node in
      defer {
        if reach.isScope(node) { scopeDistance = steps }
        reach.passed(node)
        steps += 1
      }
      guard node.hasAttachments else { return false }
      if let context = node.keyContext {
        levels.append(context, distance: steps)
        topHasLevel = node === top
      }
      node.withAttachment(KeyBindingsAttachment.self) { list in
        for position in list.bindings.indices
        where (chord == nil || list.bindings[position].keys.chords[0] == chord)
          && (exact == nil || list.bindings[position].keys == exact)
          && appliesHere(list.bindings[position].role)
        {
          let refusal: KeyCandidate.Verdict? =
            !reach.admits(list.bindings[position])
            ? .inert
            : unbinds.isEmpty
              ? nil
              : unbinds.refusal(
                of: list.bindings[position].keys, list.bindings[position].identifier, in: .nodes,
                levels: &levels)
          body(
            Candidate(
              origin: .node(position: position),
              rank: Rank(isPriority: false, distance: steps, layer: .nodes, order: position), refusal: refusal
            ))
        }
      }
      return false
    }
    let topDistance = steps - 1
    if !topHasLevel { levels.append(nil, distance: topDistance) }
    if let tree = top.tree {
      var position = 0
      tree.firstDefaultKeyBinding { binding in
        if (chord == nil || binding.keys.chords[0] == chord) && (exact == nil || binding.keys == exact)
          && appliesHere(binding.role)
        {
          let refusal =
            reach.admitsDefaults
            ? unbinds.refusal(of: binding.keys, binding.identifier, in: .treeDefaults, levels: &levels)
            : .inert
          body(
            Candidate(
              origin: .treeDefault(position: position),
              rank: Rank(isPriority: false, distance: topDistance, layer: .treeDefaults, order: position),
              refusal: refusal))
        }
        position += 1
        return false
      }
    }
    // (The keymap's index is read where it is: a copy of a `Keymap` would retain each of its
    // arrays.)
    func consider(_ layer: KeymapLayer, _ keymap: KeymapIndex) {
      func consider(_ position: Int) {
        guard exact == nil || keymap.keys[position] == exact, let level = levels.match(keymap, position),
          appliesHere(keymap.roles[position])
        else { return }
        let distance = levels.distances[level]
        let isPriority = keymap.priorities[position]
        var refusal: KeyCandidate.Verdict? = .inert
        if isPriority || !reach.isInert(atDistance: distance, scopeDistance: scopeDistance) {
          refusal =
            keymap.roles[position].isBlock || unbinds.isEmpty
            ? nil
            : unbinds.refusal(
              of: keymap.keys[position], keymap.identifiers[position], in: layer, levels: &levels)
        }
        body(
          Candidate(
            origin: .entry(position: position),
            rank: Rank(isPriority: isPriority, distance: distance, layer: layer, order: -position),
            refusal: refusal))
      }
      if let chord {
        guard let positions = keymap.byFirstChord[chord] else { return }
        for position in positions { consider(position) }
      } else {
        for positions in keymap.byFirstChord.values { for position in positions { consider(position) } }
      }
    }
    if let toolkit = keys.toolkitIndex { consider(.toolkit, toolkit) }
    if let user = keys.userIndex { consider(.user, user) }
  }

  /// Every binding from this node up whose keys begin with `chord` (every one, when `nil`),
  /// sorted by precedence (see ``Keymap``), those that do not take part with why.
  ///
  /// - Complexity: That of the candidates, plus O(*b* log *b*) to sort the *b* found.
  func rankedBindings(startingWith chord: KeyChord?, top: Node, keys: TreeKeys) -> [RankedBinding] {
    var candidates: [Candidate] = []
    var levels = ContextLevels()
    forEachCandidate(startingWith: chord, top: top, keys: keys, levels: &levels) { candidates.append($0) }
    candidates.sort { $0.rank.precedes($1.rank) }
    return candidates.map { $0.made(from: self, top: top, keys: keys) }
  }

  /// The first binding in precedence order that takes part, for `chord` pressed here as the first
  /// key: the one that takes it (a block, a sequence or a binding). Found in one pass, keeping
  /// the best so far, with the tree's scratch: nothing is allocated once it has grown.
  func firstBinding(startingWith chord: KeyChord, top: Node, keys: TreeKeys) -> KeyBinding? {
    // Borrowed from the tree for the press; the levels hold no node, so that the scratch keeps
    // no part of the tree alive between presses (only the last press's context terms).
    var levels = ContextLevels()
    swap(&levels, &keys.scratch)
    defer { swap(&levels, &keys.scratch) }
    var best: Candidate?
    forEachCandidate(startingWith: chord, top: top, keys: keys, levels: &levels) { candidate in
      guard candidate.refusal == nil else { return }
      if let current = best, !candidate.rank.precedes(current.rank) { return }
      best = candidate
    }
    return best?.binding(from: self, top: top, keys: keys)
  }

  /// The binding a press of `keys` here falls through to once the actions of the first `tried`
  /// bindings of `keys` that take part (in the order of precedence) were unavailable: the next
  /// one, a block included. One pass over the candidates, keeping only those of `keys` (a few),
  /// sorted; only the one returned is made into a binding.
  func fallThroughBinding(of keys: KeySequence, after tried: Int, top: Node, treeKeys: TreeKeys)
    -> KeyBinding?
  {
    var levels = ContextLevels()
    swap(&levels, &treeKeys.scratch)
    defer { swap(&levels, &treeKeys.scratch) }
    var same: [Candidate] = []
    forEachCandidate(startingWith: keys.chords[0], exactly: keys, top: top, keys: treeKeys, levels: &levels) {
      if $0.refusal == nil { same.append($0) }
    }
    guard same.count > tried else { return nil }
    same.sort { $0.rank.precedes($1.rank) }
    return same[tried].binding(from: self, top: top, keys: treeKeys)
  }

  /// Calls `body` with each binding that takes part, in the order of
  /// ``rankedBindings(startingWith:top:keys:)``, until it returns `true`.
  func forEachRankedBinding(
    startingWith chord: KeyChord?, top: Node, keys: TreeKeys, _ body: (KeyBinding) -> Bool
  ) {
    for ranked in rankedBindings(startingWith: chord, top: top, keys: keys)
    where ranked.refusal == nil && body(ranked.binding) {
      return
    }
  }
}

/// The unbinds of a key press's chord (of every chord, without one), which filter the one pair
/// each names from the layers below its own, where its predicate holds.
private struct Unbinds {
  private let keys: TreeKeys
  private let toolkit: [Int]
  private let user: [Int]

  init(chord: KeyChord?, keys: TreeKeys) {
    self.keys = keys
    func positions(_ keymap: KeymapIndex?) -> [Int] {
      guard let keymap, !keymap.unbinds.isEmpty else { return [] }
      guard let chord else { return Array(keymap.unbinds.values.joined()) }
      return keymap.unbinds[chord] ?? []
    }
    toolkit = positions(keys.toolkitIndex)
    user = positions(keys.userIndex)
  }

  /// Whether there are none: no binding is filtered.
  var isEmpty: Bool { toolkit.isEmpty && user.isEmpty }

  /// Why a binding of `bound` to `identifier` in `layer` does not take part, if an unbind of a
  /// higher layer filters it.
  func refusal(
    of bound: KeySequence, _ identifier: ActionIdentifier, in layer: KeymapLayer, levels: inout ContextLevels
  ) -> KeyCandidate.Verdict? {
    if layer < .user, !user.isEmpty, let found = filter(bound, identifier, .user, user, levels: &levels) {
      return found
    }
    if layer < .toolkit, !toolkit.isEmpty {
      return filter(bound, identifier, .toolkit, toolkit, levels: &levels)
    }
    return nil
  }

  /// Why the binding is filtered by one of the unbinds at `positions` in the keymap of `layer`,
  /// if one is.
  private func filter(
    _ bound: KeySequence, _ identifier: ActionIdentifier, _ layer: KeymapLayer, _ positions: [Int],
    levels: inout ContextLevels
  ) -> KeyCandidate.Verdict? {
    // The layer has unbinds, so it has a keymap.
    let index = keys.index(layer)!
    for position in positions
    where index.identifiers[position] == identifier && index.keys[position] == bound
      && levels.match(index, position) != nil
    {
      return .filtered(by: keys.keymap(layer)!.entries[position].source)
    }
    return nil
  }
}
