import Actions
import ViewTree
import ViewTreeActions

// Interprets the input as a tree (a chain `n0` … `n3` with bindings, key contexts, items, maybe a
// text owner at the focus `n3` and a modal trap anywhere on its path), maybe a toolkit and a user
// keymap (predicates, priority, press-only entries, blocks, unbinds), and a run of key presses,
// each at a node of the chain (outside the trap too). For each press it checks two agreements:
// - on a tree without keymaps, the nearest-first walk the press takes resolves the key as the
//   ranked path of keymaps does (the same tree with an empty keymap installed);
// - `explainKey`'s winner is what `handleKey` does with the key.

struct Enabled: ManagedAction {
  func perform(context: ActionContext) throws {}
}

struct Disabled: ManagedAction {
  func validate(context: ActionContext) -> Validation { Validation(isEnabled: false, title: "Off") }
  func perform(context: ActionContext) throws {}
}

/// Identifiers a binding may name: enabled, disabled (shown, not enabled), unknown to the manager
/// (unavailable: the key goes on), a focus move and an item's activation.
let identifiers = ["I0", "I1", "D0", "U0", "focus.Next", "item.Activate"]
let chords = ["a", "b", "ctrl+x", "tab", "shift+a", "escape"]
let predicates = ["", "[A]\n", "[B]\n", "[A > B]\n", "[!A]\n", "[mode == x]\n"]
let contexts = ["A", "B", "A mode=x", "mode=y"]

/// The input, read a byte at a time; 0 once it is used up.
struct Reader {
  var bytes: [UInt8]
  var position = 0

  mutating func next(_ count: Int) -> Int {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return Int(bytes[position]) % count
  }

  var isAtEnd: Bool { position >= bytes.count }

  /// One chord or two.
  mutating func keys() -> String {
    let first = chords[next(chords.count)]
    return next(2) == 0 ? first : first + " " + chords[next(chords.count - 1)]
  }

  /// A keymap of up to four lines: predicates, priority and press-only entries, blocks and
  /// unbinds.
  mutating func keymap() -> Keymap {
    var lines: [String] = []
    for _ in 0...next(4) {
      let head = predicates[next(predicates.count)]
      let line: String
      switch next(5) {
      case 0: line = "unbind " + keys() + " = " + identifiers[next(identifiers.count)]
      case 1: line = keys() + " = null"
      default:
        let word = ["", "", "priority ", "press ", "priority press "][next(5)]
        line = word + keys() + " = " + identifiers[next(identifiers.count)]
      }
      lines.append(head + line + "\n[]")
    }
    return Keymap(parsing: lines.joined(separator: "\n"), source: "fuzz.keymap")
  }
}

/// What the explanation says a press does, in the words of `pressed(_:)`.
func explained(_ explanation: KeyExplanation) -> String {
  if explanation.candidates.contains(where: { $0.verdict == .waitsForSequence }) { return "waits" }
  guard let winner = explanation.winner, !winner.isBlock else { return "nothing" }
  if winner.binding.identifier.text == "InsertText" { return "types" }
  return "\(winner.binding.identifier) on \(winner.binding.node?.id ?? "?")"
}

/// What a press did: the binding whose action ran (or moved the focus), a pending sequence, text,
/// or nothing.
func pressed(_ result: KeyPressResult) -> String {
  switch result {
  case .unbound: "nothing"
  case .resolved(let binding, let result):
    isUnavailable(result) ? "nothing" : "\(binding.identifier) on \(binding.node?.id ?? "?")"
  case .movedFocus(let binding, _): "\(binding.identifier) on \(binding.node?.id ?? "?")"
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

/// A resolution as text, with each binding's node.
func describe(_ resolution: KeyResolution) -> String {
  switch resolution {
  case .unbound: "unbound"
  case .binding(let binding): "\(binding) [\(binding.layer)]"
  case .pending(let pending):
    "pending " + pending.continuations.map { "\($0) [\($0.layer)]" }.joined(separator: ", ")
  }
}

/// libFuzzer's entry point: one input, read as a tree and its key presses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = Reader(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
  let manager = ActionManager()
  for name in ["I0", "I1"] { try! manager.register(Enabled(), as: name) }
  try! manager.register(Disabled(), as: "D0")
  let tree = NodeTree("n0") { Node("n1") { Node("n2") { Node("n3").focusable() }.focusable() }.focusable() }
  tree.root.actionManager(manager)
  let nodes = ["n0", "n1", "n2", "n3"].map { tree.node(id: $0)! }
  for node in nodes {
    if input.next(2) == 0 { node.keyContext(contexts[input.next(contexts.count)]) }
    if input.next(4) == 0 { node.actionItem("I1") }
    for _ in 0..<input.next(4) {
      node.bindKey(
        input.keys(), to: identifiers[input.next(identifiers.count)], passesModal: input.next(4) == 0)
    }
  }
  if input.next(2) == 0 { nodes[3].takesText() }
  if input.next(2) == 0 { nodes[input.next(4)].focusScope(.trap) }
  if input.next(3) == 0 { tree.toolkitKeymap = input.keymap() }
  if input.next(2) == 0 { tree.userKeymap = input.keymap() }
  try! tree.focus(nodes[3])
  let hasKeymaps = tree.toolkitKeymap != nil || tree.userKeymap != nil
  while !input.isAtEnd {
    let chord = try! KeyChord(parsing: chords[input.next(chords.count)])
    // The focus, or as often any node of the chain (one outside a trap among them).
    let focus = input.next(2) == 0 ? nodes[input.next(4)] : tree.firstResponder
    if !hasKeymaps {
      let walked = describe(focus.resolveKey(chord))
      tree.toolkitKeymap = Keymap()
      let ranked = describe(focus.resolveKey(chord))
      tree.toolkitKeymap = nil
      // (`fatalError`, not `precondition`: an optimized build keeps only the former's message.)
      if walked != ranked { fatalError("\(chord) at \(focus.id ?? "?"): walked \(walked), ranked \(ranked)") }
    }
    let explanation = tree.explainKey(chord, at: focus)
    let said = explained(explanation)
    let did = pressed(focus.handleKey(chord))
    if said != did { fatalError("\(chord) at \(focus.id ?? "?"):\n\(explanation)\nthe press: \(did)") }
    // Each press is checked on its own: the explanation does not continue a pending sequence.
    tree.cancelPendingKeys()
    try! tree.focus(nodes[3])
  }
  return 0
}
