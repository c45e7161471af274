import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

/// Random trees, keymaps, text owners, modal traps and pending sequences: what `explainKey` says
/// takes a key is what `handleKey` does with it, and what the lists show.
@Suite struct KeyAgreementTests {
  struct Enabled: ManagedAction {
    func perform(context: ActionContext) throws {}
  }

  struct Disabled: ManagedAction {
    func validate(context: ActionContext) -> Validation { Validation(isEnabled: false, title: "Off") }
    func perform(context: ActionContext) throws {}
  }

  /// Identifiers a binding may name: enabled, disabled (shown, not enabled), and unknown to the
  /// manager (unavailable: the key goes on).
  static let identifiers = ["I0", "I1", "I2", "D0", "U0", "focus.Next"]
  static let chords = ["a", "b", "ctrl+x", "tab", "shift+a"]

  /// A generator that repeats from its seed.
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// A chain `n0` (root) … `n3` (the focus), with random bindings, contexts, maybe a text owner
  /// at the focus, a modal trap from `n2`, and a user keymap.
  func makeTree(_ random: inout Seeded) throws -> NodeTree {
    let manager = ActionManager()
    for name in ["I0", "I1", "I2"] { try manager.register(Enabled(), as: name) }
    try manager.register(Disabled(), as: "D0")
    let tree = NodeTree("n0") { Node("n1") { Node("n2") { Node("n3").focusable() }.focusable() }.focusable() }
    tree.root.actionManager(manager)
    let nodes = ["n0", "n1", "n2", "n3"].map { tree.node(id: $0)! }
    func keys(_ random: inout Seeded) -> String {
      let first = Self.chords.randomElement(using: &random)!
      return Bool.random(using: &random) ? first : first + " " + Self.chords.randomElement(using: &random)!
    }
    for node in nodes {
      if Bool.random(using: &random) { node.keyContext(["A", "B"].randomElement(using: &random)!) }
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        node.bindKey(
          keys(&random), to: Self.identifiers.randomElement(using: &random)!,
          passesModal: Int.random(in: 0..<4, using: &random) == 0)
      }
    }
    if Bool.random(using: &random) { nodes[3].takesText() }
    if Int.random(in: 0..<3, using: &random) == 0 { nodes[2].focusScope(.trap) }
    if Bool.random(using: &random) {
      var lines: [String] = []
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let head = ["", "[A]\n", "[B]\n", "[A > B]\n"].randomElement(using: &random)!
        let word = ["", "", "priority "].randomElement(using: &random)!
        let value = (Self.identifiers + ["null"]).randomElement(using: &random)!
        lines.append(head + word + keys(&random) + " = " + value + "\n[]")
      }
      tree.userKeymap = Keymap(parsing: lines.joined(separator: "\n"), source: "user.keymap")
    }
    try tree.focus(nodes[3])
    return tree
  }

  /// What the explanation says a press of it does, in the words `pressed(_:)` uses.
  func explained(_ explanation: KeyExplanation) -> String {
    if explanation.candidates.contains(where: { $0.verdict == .waitsForSequence }) { return "waits" }
    guard let winner = explanation.winner, !winner.isBlock else { return "nothing" }
    if winner.binding.identifier.text == "InsertText" { return "types" }
    return "\(winner.binding.identifier) on \(winner.binding.node?.id ?? "?")"
  }

  func pressed(_ result: KeyPressResult) -> String {
    switch result {
    case .unbound: "nothing"
    case .resolved(let binding, let result):
      // A binding whose action nothing can perform (the last one the key went on to) did nothing.
      isUnavailable(result) ? "nothing" : "\(binding.identifier) on \(binding.node?.id ?? "?")"
    case .movedFocus(let binding, _):
      "\(binding.identifier) on \(binding.node?.id ?? "?")"
    case .pending: "waits"
    case .insertedText: "types"
    case .cancelled(_, _, let then): then.map(pressed) ?? "nothing"
    case .composing: "composing"
    case .replayed(_, let then): then.map(pressed) ?? "nothing"
    }
  }

  func isUnavailable(_ result: RequestResult<PerformResult>) -> Bool {
    switch result {
    case .unanswered: true
    case .answered(.unknown, _): true
    case .answered(.disabled(_, let validation), _): !validation.isVisible
    default: false
    }
  }

  @Test(arguments: 0..<40)
  func theExplanationsWinnerIsWhatThePressDoes(seed: Int) throws {
    var random = Seeded(state: UInt64(seed))
    for _ in 0..<25 {
      let tree = try makeTree(&random)
      for text in Self.chords {
        let chord = try KeyChord(parsing: text)
        let focus = tree.firstResponder
        let explanation = tree.explainKey(chord, at: focus)
        let said = explained(explanation)
        let did = pressed(focus.handleKey(chord))
        tree.cancelPendingKeys()
        // A focus move changes the focus: the tree is made again for the next chord.
        try tree.focus(tree.node(id: "n3")!)
        #expect(said == did, "\(chord) at n3:\n\(explanation)\nthe press: \(did)")
        if said != did { return }
      }
    }
  }

  /// The identifier a press performed (or moved the focus by), if it did.
  func performedIdentifier(_ result: KeyPressResult) -> String? {
    switch result {
    case .resolved(let binding, let result): isUnavailable(result) ? nil : binding.identifier.text
    case .movedFocus(let binding, _): binding.identifier.text
    case .cancelled(_, _, let then), .replayed(_, let then): then.flatMap(performedIdentifier)
    default: nil
    }
  }

  @Test(arguments: 0..<40)
  func theOfferedListsKeysPerformItsAction(seed: Int) throws {
    var random = Seeded(state: UInt64(seed))
    var checked = 0
    defer { #expect(checked > 0, "no entry with keys in 25 trees") }
    for _ in 0..<25 {
      let tree = try makeTree(&random)
      for entry in tree.offeredActions(includingRegistered: false) where entry.validation.isEnabled {
        guard let keys = entry.keys else { continue }
        checked += 1
        var result: KeyPressResult?
        for chord in keys.chords { result = tree.firstResponder.handleKey(chord) }
        tree.cancelPendingKeys()
        try tree.focus(tree.node(id: "n3")!)
        // The keys perform the entry's action; an item's activation performs the item's.
        let performed = result.flatMap(performedIdentifier)
        let agrees = performed == entry.identifier || (performed == "item.Activate" && entry.isDefault)
        #expect(
          agrees,
          """
          \(keys) is offered for \(entry.identifier) at n3, and performed \(performed ?? "nothing")
          \(tree.explainKey(keys.chords[0], at: tree.firstResponder))
          """)
        if !agrees { return }
      }
    }
  }

  // MARK: What the random trees found

  /// A focused text owner `box` under `list`, with the given user keymap and the box's bindings.
  func owner(keymap: String, boxBinds: [(String, String)] = []) throws -> (NodeTree, Log) {
    let log = Log()
    let manager = ActionManager()
    try manager.register(Enabled(), as: "I0")
    var box = Node("box").focusable().takesText().handleAction(InsertText.self) { log("+" + $0.text) }
    for (keys, identifier) in boxBinds { box = box.bindKey(keys, to: identifier) }
    let tree = NodeTree("root") { Node("list") { box }.bindKey("b", to: "I0") }
    tree.root.actionManager(manager)
    tree.userKeymap = Keymap(parsing: keymap, source: "user.keymap")
    try tree.focus(id: "box")
    return (tree, log)
  }

  @Test func twoEqualKeymapEntriesOfAnUnavailableActionEndTheFallThrough() throws {
    // Both entries make the same binding: found by identity, the second fell through to itself
    // for ever.
    let tree = NodeTree("root") { Node("leaf").focusable() }
    tree.root.actionManager(ActionManager())
    tree.userKeymap = Keymap(parsing: "f2 = Missing\nf2 = Missing")
    try tree.focus(id: "leaf")
    guard case .resolved(_, let result) = tree.firstResponder.handleKey(KeyChord(.function(2))) else {
      Issue.record("f2 was not resolved")
      return
    }
    #expect(isUnavailable(result))
  }

  @Test func explainKeyAtATextOwnerShowsTheTextTheKeyTypes() throws {
    let (tree, log) = try owner(keymap: "")
    let explanation = tree.explainKey(KeyChord(.character("b")), at: tree.firstResponder)
    #expect(explanation.winner?.binding.identifier.text == "InsertText")
    #expect(explanation.candidates.map(\.verdict) == [.wins, .shadowed(by: 0, because: .deeper)])
    tree.firstResponder.handleKey(KeyChord(.character("b")))
    #expect(log.entries == ["+b"])
  }

  @Test func aBlockTheOwnerKeepsBeforeTextStopsTheTyping() throws {
    let (tree, log) = try owner(keymap: "priority b = null")
    guard case .unbound = tree.firstResponder.handleKey(KeyChord(.character("b"))) else {
      Issue.record("b did something")
      return
    }
    #expect(log.entries.isEmpty)
    #expect(tree.explainKey(KeyChord(.character("b")), at: tree.firstResponder).winner?.isBlock == true)
  }

  @Test func anOwnersUnavailableBindingPassesTheKeyToItsText() throws {
    let (tree, log) = try owner(keymap: "", boxBinds: [("b", "Missing")])
    guard case .insertedText = tree.firstResponder.handleKey(KeyChord(.character("b"))) else {
      Issue.record("b was not typed")
      return
    }
    #expect(log.entries == ["+b"])
    let explanation = tree.explainKey(KeyChord(.character("b")), at: tree.firstResponder)
    #expect(explanation.candidates.first?.verdict == .unavailable)
    #expect(explanation.winner?.binding.identifier.text == "InsertText")
  }

  @Test func anUnavailableBindingFallsThroughToABlockTheOwnerKeepsBeforeText() throws {
    // The later priority entry comes first: unavailable, it passes `b` to the priority block,
    // which the owner keeps before its text: `b` does nothing.
    let (tree, log) = try owner(keymap: "priority b = null\npriority b = Missing")
    tree.firstResponder.handleKey(KeyChord(.character("b")))
    #expect(log.entries.isEmpty)
    #expect(tree.explainKey(KeyChord(.character("b")), at: tree.firstResponder).winner?.isBlock == true)
    // A block matched at the root comes after the text: `b` is typed.
    let (typing, typed) = try owner(keymap: "b = null\npriority b = Missing")
    typing.firstResponder.handleKey(KeyChord(.character("b")))
    #expect(typed.entries == ["+b"])
  }

  @Test func aLoneBlockSequenceWaitsForNothing() throws {
    let tree = NodeTree("root") { Node("leaf").focusable() }
    tree.userKeymap = Keymap(parsing: "g g = null")
    try tree.focus(id: "leaf")
    let explanation = tree.explainKey(KeyChord(.character("g")), at: tree.firstResponder)
    #expect(explanation.winner?.isBlock == true)
    #expect(!explanation.candidates.contains { $0.verdict == .waitsForSequence })
    guard case .unbound = tree.firstResponder.handleKey(KeyChord(.character("g"))) else {
      Issue.record("g left a sequence pending")
      return
    }
  }
}
