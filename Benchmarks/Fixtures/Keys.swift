import Actions
import ViewTree
import ViewTreeActions

// The trees the key benchmarks measure: a chain 16 deep (4 providers on the way), focused at the
// bottom, with bindings at the root.

/// `ctrl+s` bound at the root, 16 levels above the focus, and another binding on the way.
package final class KeyState {
  package let tree: NodeTree
  package let chord = try! KeyChord(parsing: "ctrl+s")

  package init() {
    let (chainTree, leaf) = makeChain(depth: 16, providers: 4)
    chainTree.root.bindKey("ctrl+s", to: "Save")
    leaf.parent!.bindKey("ctrl+o", to: "Open")
    try! chainTree.focus(leaf.focusable())
    tree = chainTree
  }
}

/// The chain of `KeyState` (its bindings included), its leaf a text owner that handles the
/// `InsertText` a typed character becomes.
package final class TextOwnerState {
  package let tree: NodeTree
  package let chord = KeyChord(.character("a"))

  package init() {
    let (chainTree, leaf) = makeChain(depth: 16, providers: 4)
    chainTree.root.bindKey("ctrl+s", to: "Save").bindKey("a", to: "Save")
    leaf.parent!.bindKey("ctrl+o", to: "Open")
    leaf.takesText().handleAction(InsertText.self) { sink($0) }
    try! chainTree.focus(leaf.focusable())
    tree = chainTree
    guard case .insertedText = tree.firstResponder.handleKey(chord) else { fatalError("a was not typed") }
  }
}

/// `g g` bound at the root, 16 levels above the focus, beside the bindings of `KeyState`, with
/// its first `g` pressed: resolving `chord` is the second key of the sequence.
package final class SequenceState {
  package let tree: NodeTree
  package let chord = KeyChord(.character("g"))

  package init() {
    let (chainTree, leaf) = makeChain(depth: 16, providers: 4)
    chainTree.root.bindKey("ctrl+s", to: "Save").bindKey("g g", to: "Save")
    leaf.parent!.bindKey("ctrl+o", to: "Open")
    try! chainTree.focus(leaf.focusable())
    tree = chainTree
    guard case .pending = tree.firstResponder.handleKey(chord) else { fatalError("g g is not pending") }
  }
}

/// 50 sequences `ctrl+k <key>` bound at the root to 50 registered actions, `ctrl+k` pressed at
/// the focus; and the 50 bindings, for the reference that validates each of them.
package final class ContinuationsState {
  package let tree: NodeTree
  package let pending: PendingKeys

  package init() {
    let (chainTree, leaf) = makeChain(depth: 16, providers: 4)
    let manager = chainTree.root.attachedActionManager!
    let keys = (0..<50).map { index in
      let letter = Character(UnicodeScalar(UInt8(97 + index % 26)))
      return index < 26 ? "ctrl+k \(letter)" : "ctrl+k alt+\(letter)"
    }
    for (index, sequence) in keys.enumerated() {
      try! manager.register(Validated(), as: "Command\(index)")
      chainTree.root.bindKey(sequence, to: "Command\(index)")
    }
    try! chainTree.focus(leaf.focusable())
    tree = chainTree
    guard
      case .pending(let pending) = tree.firstResponder.handleKey(
        KeyChord(.character("k"), modifiers: .control))
    else { fatalError("ctrl+k is not pending") }
    self.pending = pending
  }

  /// The reference: each continuation validated at the focus with its binding as sender, as
  /// `validatedContinuations()` validates them, with nothing else.
  package func validateEach() -> [Validation] {
    pending.continuations.map { pending.node.validate($0.identifier.text, sender: $0) }
  }
}

/// The chain of `KeyState` (16 deep, 4 providers on the way), focused at the bottom, with 40 key
/// bindings and 10 items on the path: each node binds two or three chords, the 10 lowest nodes
/// are items, and the root's manager registers the 50 actions.
package final class OfferedState {
  package let tree: NodeTree

  package init() {
    let (chainTree, leaf) = makeChain(depth: 16, providers: 4)
    let manager = chainTree.root.attachedActionManager!
    var path: [Node] = []
    var next: Node? = leaf
    while let node = next {
      path.append(node)
      next = node.parent
    }
    for index in 0..<40 {
      let letter = Character(UnicodeScalar(UInt8(97 + index % 26)))
      try! manager.register(Validated(), as: "Command\(index)")
      path[index % path.count].bindKey(index < 26 ? "ctrl+\(letter)" : "alt+\(letter)", to: "Command\(index)")
    }
    for index in 0..<10 {
      try! manager.register(Validated(), as: "Item\(index)")
      path[index].actionItem("Item\(index)")
    }
    try! chainTree.focus(leaf.focusable())
    tree = chainTree
  }
}

/// A palette from a node whose manager has 1,000 actions registered under names like
/// `SaveDocument17` and `OpenRecentFile17`.
package func makePalette() -> CommandPalette {
  let manager = ActionManager()
  let words = ["Save", "Open", "Close", "Delete", "Format", "Find", "Replace", "Toggle", "Show", "Move"]
  let objects = [
    "Document", "RecentFile", "Selection", "Row", "Sidebar", "Panel", "Line", "Word", "Tab", "Window",
  ]
  for index in 0..<1_000 {
    try! manager.register(SaveAction(), as: "\(words[index % 10])\(objects[index / 10 % 10])\(index)")
  }
  let tree = NodeTree("root") { Node("leaf") }
  tree.root.actionManager(manager)
  return CommandPalette(from: tree.node(id: "leaf")!)
}

/// An action that is always enabled, with a title.
private struct Validated: ManagedAction {
  func validate(context: ActionContext) -> Validation { Validation(title: "Command") }
  func perform(context: ActionContext) throws {}
}

/// 4,000 distinct two-chord sequences (two letters or digits each, none the beginning of
/// another) and the identifiers they are bound to, made once: `bindAll()` binds them all on one
/// node.
package final class ManyBindingsState {
  package let keys: [KeySequence]
  package let identifiers: [String]

  package init(count: Int = 4_000) {
    let characters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    // 36 by 36 pairs with each of these on the second chord: 5,184 sequences.
    let modifiers: [KeyModifiers] = [[], .control, .alt, .meta]
    keys = (0..<count).map { index in
      KeySequence([
        KeyChord(.character(characters[index / characters.count % characters.count])),
        KeyChord(.character(characters[index % characters.count]), modifiers: modifiers[index / 1_296]),
      ])
    }
    identifiers = (0..<count).map { "menu.Action\($0 % 50)" }
  }

  /// A node with every binding, bound one `bindKey` at a time.
  package func bindAll() -> Node {
    let node = Node("keys")
    for index in keys.indices {
      node.bindKey(keys[index], to: identifiers[index])
    }
    return node
  }
}

/// `KeyState`'s chain with a key context on every other node from the root (8 on the path,
/// `L<i> mode=m<i>`) and a user keymap of 1,000 bindings: 997 on other chords, each with a
/// predicate, and three of `ctrl+s`; `[L5 && mode != m0] ctrl+s = Find` matches deepest, below
/// the root's own `ctrl+s`, and wins.
package final class KeymapState {
  package let tree: NodeTree
  package let chord = try! KeyChord(parsing: "ctrl+s")

  package init() {
    let (chainTree, leaf) = makeChain(depth: 16, providers: 4)
    chainTree.root.bindKey("ctrl+s", to: "Save")
    leaf.parent!.bindKey("ctrl+o", to: "Open")
    var path: [Node] = []
    leaf.walkAncestors { node in
      path.append(node)
      return false
    }
    for (level, node) in path.reversed().enumerated() where level % 2 == 0 && level < 16 {
      node.keyContext("L\(level / 2) mode=m\(level / 2)")
    }
    try! chainTree.focus(leaf.focusable())
    chainTree.userKeymap = Keymap(
      parsing: keymapText(bindings: 997) + "\n" + """
        [L3]
        ctrl+s = SaveAll
        [L5 && mode != m0]
        ctrl+s = Find
        [Missing]
        ctrl+s = Open
        """)
    precondition(chainTree.userKeymap!.issues.isEmpty && chainTree.userKeymap!.entries.count == 1_000)
    tree = chainTree
    guard case .binding(let binding) = tree.firstResponder.resolveKey(chord),
      binding.identifier.text == "Find"
    else { fatalError("ctrl+s does not resolve to the keymap's Find") }
  }
}

/// A keymap file of `bindings` lines, in sections of 10 under predicates of the contexts
/// `KeymapState` declares, on chords other than `ctrl+s`.
package func keymapText(bindings: Int) -> String {
  var lines: [String] = []
  lines.reserveCapacity(bindings + bindings / 10)
  for index in 0..<bindings {
    if index % 10 == 0 { lines.append("[L\(index / 10 % 8) && mode == m\(index / 10 % 8) || Missing]") }
    let letter = Character(UnicodeScalar(UInt8(97 + index % 26)))
    lines.append("f\(index / 26 % 24 + 1) \(letter) = Command\(index)")
  }
  return lines.joined(separator: "\n")
}

/// The reference for `ResolveKeyChord16DeepKeymap`: the plainest safe Swift a real implementation
/// would write for the same work. Names and values are interned as integers when the keymap and
/// the contexts are declared, each chord's keymap bindings are kept with their predicates over
/// those integers, and one walk from the focus up takes the nearest node binding of the chord and
/// records the context levels as one set of levels (a bit per level, nearest lowest) per name.
/// Each keymap binding of the chord then matches at the nearest level of its predicate's set; the
/// best is taken by depth, then layer.
package final class KeymapReference {
  /// A predicate over interned names: its set of levels is computed from the names' sets.
  indirect enum Predicate {
    case name(Int)
    case notEquals(key: Int, value: Int)
    case and(Predicate, Predicate)
  }

  /// Names `L0`...`L7` are 0...7, `mode` is 8; values `m0`...`m7` are 0...7.
  static let mode = 8
  /// Node 0 is the leaf, node 16 the root: each node's context names (none without a context)
  /// and its `mode` value (-1 for none, -2 without a context).
  let contextNames: [[Int]]
  let contextModes: [Int]
  let bindings: [[(chord: KeyChord, identifier: String)]]
  let keymap: [KeyChord: [(predicate: Predicate, identifier: String)]]
  package let chord = try! KeyChord(parsing: "ctrl+s")
  /// The levels found, kept between resolutions so that a resolution allocates nothing.
  private var scratch = Levels()

  /// The context levels of one resolution: for each name, the levels whose context has it; for
  /// each level, its node and `mode` value. A value, taken from the class for the resolution, so
  /// that its arrays are checked for exclusive access once rather than at every read.
  private struct Levels {
    var names: [UInt64] = []
    var nodes: [Int] = []
    var modes: [Int] = []

    /// The levels where `predicate` holds.
    func levels(where predicate: Predicate) -> UInt64 {
      switch predicate {
      case .name(let name): return name < names.count ? names[name] : 0
      case .notEquals(let key, let value):
        var set: UInt64 = 0
        for level in modes.indices
        where key == KeymapReference.mode && modes[level] >= 0 && modes[level] != value {
          set |= 1 << UInt64(level)
        }
        return set
      case .and(let left, let right): return levels(where: left) & levels(where: right)
      }
    }
  }

  package init() {
    let levels = (0...16).map { 16 - $0 }
    contextNames = levels.map { $0 % 2 == 0 && $0 < 16 ? [$0 / 2, Self.mode] : [] }
    contextModes = levels.map { $0 % 2 == 0 && $0 < 16 ? $0 / 2 : -2 }
    var bindings = Array(repeating: [(chord: KeyChord, identifier: String)](), count: 17)
    bindings[16] = [(chord, "Save")]
    bindings[1] = [(try! KeyChord(parsing: "ctrl+o"), "Open")]
    self.bindings = bindings
    var keymap: [KeyChord: [(predicate: Predicate, identifier: String)]] = [:]
    for index in 0..<997 {
      keymap[KeyChord(.function(index / 26 % 24 + 1)), default: []].append(
        (.name(index % 8), "Command\(index)"))
    }
    // `Missing` is a name no context has: 9, past the names' sets.
    keymap[chord] = [
      (.name(9), "Open"), (.and(.name(5), .notEquals(key: Self.mode, value: 0)), "Find"),
      (.name(3), "SaveAll"),
    ]
    self.keymap = keymap
    scratch.names = Array(repeating: 0, count: 9)
  }

  /// The identifier `chord` resolves to.
  package func resolve() -> String? {
    var levels = Levels()
    swap(&levels, &scratch)
    defer { swap(&levels, &scratch) }
    levels.nodes.removeAll(keepingCapacity: true)
    levels.modes.removeAll(keepingCapacity: true)
    for name in levels.names.indices { levels.names[name] = 0 }
    var best: (distance: Int, layer: Int, identifier: String)?
    for node in 0...16 {
      if contextModes[node] != -2 {
        for name in contextNames[node] { levels.names[name] |= 1 << UInt64(levels.nodes.count) }
        levels.nodes.append(node)
        levels.modes.append(contextModes[node])
      }
      if best == nil, let found = bindings[node].first(where: { $0.chord == chord }) {
        best = (node, 1, found.identifier)
      }
    }
    if contextModes[16] == -2 {
      levels.nodes.append(16)
      levels.modes.append(-1)
    }
    for candidate in keymap[chord] ?? [] {
      let set = levels.levels(where: candidate.predicate)
      guard set != 0 else { continue }
      let distance = levels.nodes[set.trailingZeroBitCount]
      if let current = best,
        current.distance < distance || (current.distance == distance && current.layer > 3)
      {
        continue
      }
      best = (distance, 3, candidate.identifier)
    }
    return best?.identifier
  }
}

/// `KeymapReference`'s work with names and values compared as strings, to show what that costs:
/// the same chain, contexts, bindings and keymap in plain arrays and a dictionary, and the same
/// work in one walk: the nearest node binding of the chord, the context levels, each keymap
/// binding of the chord matched at the nearest level where its predicate holds (tried level by
/// level), the best by depth then layer.
package final class StringKeymapReference {
  /// A predicate as a plain tree, evaluated at a level by recursion.
  indirect enum Predicate {
    case name(String)
    case notEquals(String, String)
    case and(Predicate, Predicate)

    func holds(at level: Int, in levels: [[(name: String, value: String?)]]) -> Bool {
      switch self {
      case .name(let name): levels[level].contains { $0.name == name }
      case .notEquals(let key, let value):
        levels[level].contains { $0.name == key && $0.value != nil && $0.value != value }
      case .and(let left, let right): left.holds(at: level, in: levels) && right.holds(at: level, in: levels)
      }
    }
  }

  /// Node 0 is the leaf, node 16 the root.
  let contexts: [[(name: String, value: String?)]?]
  let bindings: [[(chord: KeyChord, identifier: String)]]
  let keymap: [KeyChord: [(predicate: Predicate, identifier: String)]]
  package let chord = try! KeyChord(parsing: "ctrl+s")
  /// The levels' contexts and distances, reused.
  private var levels: [[(name: String, value: String?)]] = []
  private var distances: [Int] = []

  package init() {
    contexts = (0...16).map { node in
      let level = 16 - node
      return level % 2 == 0 && level < 16 ? [("L\(level / 2)", nil), ("mode", "m\(level / 2)")] : nil
    }
    var bindings = Array(repeating: [(chord: KeyChord, identifier: String)](), count: 17)
    bindings[16] = [(chord, "Save")]
    bindings[1] = [(try! KeyChord(parsing: "ctrl+o"), "Open")]
    self.bindings = bindings
    var keymap: [KeyChord: [(predicate: Predicate, identifier: String)]] = [:]
    for index in 0..<997 {
      let letter = Character(UnicodeScalar(UInt8(97 + index % 26)))
      keymap[KeyChord(.function(index / 26 % 24 + 1)), default: []].append(
        (.name("L\(index % 8)"), "\(letter)"))
    }
    keymap[chord] = [
      (.name("Missing"), "Open"), (.and(.name("L5"), .notEquals("mode", "m0")), "Find"),
      (.name("L3"), "SaveAll"),
    ]
    self.keymap = keymap
  }

  /// The identifier `chord` resolves to.
  package func resolve() -> String? {
    levels.removeAll(keepingCapacity: true)
    distances.removeAll(keepingCapacity: true)
    var best: (distance: Int, layer: Int, identifier: String)?
    for node in 0...16 {
      if let context = contexts[node] {
        levels.append(context)
        distances.append(node)
      }
      if best == nil, let found = bindings[node].first(where: { $0.chord == chord }) {
        best = (node, 1, found.identifier)
      }
    }
    if contexts[16] == nil {
      levels.append([])
      distances.append(16)
    }
    for candidate in keymap[chord] ?? [] {
      guard let level = levels.indices.first(where: { candidate.predicate.holds(at: $0, in: levels) }) else {
        continue
      }
      let distance = distances[level]
      if let current = best,
        current.distance < distance || (current.distance == distance && current.layer > 3)
      {
        continue
      }
      best = (distance, 3, candidate.identifier)
    }
    return best?.identifier
  }
}
