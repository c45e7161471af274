import Actions
import ViewTree
import ViewTreeActions

// Interprets the input as a program of key bindings (chords and sequences, on a chain of nodes
// and in the tree's defaults), key presses at the focus, focus changes, removals, re-parenting
// and timeouts, and checks every key press against a reference resolver written from the rules
// the article "Key bindings" states, in the plainest way: every binding listed again at each
// press, sequences compared as strings.

struct NoopAction: ManagedAction {
  func perform(context: ActionContext) throws {}
}

/// The keys the program presses and binds: few, so that sequences overlap often.
let alphabet = ["a", "b", "c", "escape"]

/// A binding as the reference sees it: its keys as chord names, and who declared it (a node's
/// index, or `defaults`).
struct Binding: Equatable {
  static let defaults = -1
  var keys: [String]
  var identifier: String
  var node: Int

  var text: String { keys.joined(separator: " ") }

  func overlaps(_ other: Binding) -> Bool {
    keys.starts(with: other.keys) || other.keys.starts(with: keys)
  }
}

/// The reference resolver: the bindings, the chain's parents, the focus, and what is pending.
struct Reference {
  var bindings: [[Binding]] = [[], [], [], []]
  var defaults: [Binding] = []
  var parents: [Int?] = [nil, 0, 1, 2]
  var focus = 0
  var pending: (node: Int, typed: [String], continuations: [Binding])?

  /// The node and its ancestors, nearest first.
  func path(from node: Int) -> [Int] {
    var path = [node]
    while let parent = parents[path.last!] { path.append(parent) }
    return path
  }

  /// The bindings in effect at `node`, in the order the rule takes them.
  func inEffect(at node: Int) -> [Binding] {
    var taken: [Binding] = []
    for binding in path(from: node).flatMap({ bindings[$0] }) + defaults
    where !taken.contains(where: { $0.overlaps(binding) }) {
      taken.append(binding)
    }
    return taken
  }

  /// Whether `binding` is still declared, on the path from `node`.
  func isBound(_ binding: Binding, at node: Int) -> Bool {
    if binding.node == Binding.defaults { return defaults.contains(binding) }
    return path(from: node).contains(binding.node) && bindings[binding.node].contains(binding)
  }

  /// A key pressed at the focus, described as the test describes the library's result.
  mutating func press(_ key: String) -> String {
    var cancelled: String?
    if let pending {
      self.pending = nil
      let typed = pending.typed.joined(separator: " ")
      if pending.node != focus {
        cancelled = "cancelled \(typed) (focusMoved)"
      } else if key == "escape" {
        return "cancelled \(typed) (escape)"
      } else {
        let live = pending.continuations.filter { isBound($0, at: focus) }
        let next = pending.typed + [key]
        let continuing = live.filter { $0.keys.starts(with: next) }
        if let complete = continuing.first(where: { $0.keys == next }) {
          return "\(complete.text) -> \(complete.identifier)"
        }
        if !continuing.isEmpty {
          self.pending = (focus, next, continuing)
          return describePending(self.pending!)
        }
        cancelled = "cancelled \(typed) (\(live.isEmpty ? "bindingsRemoved" : "broken"))"
      }
    }
    let result: String
    let starting = inEffect(at: focus).filter { $0.keys[0] == key }
    if let complete = starting.first(where: { $0.keys == [key] }) {
      result = "\(complete.text) -> \(complete.identifier)"
    } else if starting.isEmpty {
      result = "unbound \(key)"
    } else {
      pending = (focus, [key], starting)
      result = describePending(pending!)
    }
    return cancelled.map { "\($0); \(result)" } ?? result
  }

  func describePending(_ pending: (node: Int, typed: [String], continuations: [Binding])) -> String {
    "pending \(pending.typed.joined(separator: " ")) (\(pending.continuations.map(\.text).joined(separator: ", ")))"
  }
}

/// The library's result, in the reference's words.
func describe(_ result: KeyPressResult) -> String {
  switch result {
  case .unbound(let chord): "unbound \(chord)"
  case .resolved(let binding, _): "\(binding.keys) -> \(binding.identifier)"
  case .movedFocus(let binding, _): "\(binding.keys) -> \(binding.identifier)"
  case .pending(let pending):
    "pending \(pending.typed) (\(pending.continuations.map { "\($0.keys)" }.joined(separator: ", ")))"
  case .cancelled(let pending, let reason, let then):
    "cancelled \(pending.typed) (\(reason))" + (then.map { "; " + describe($0) } ?? "")
  // No node here takes text: the reference has no words for these, and they must not occur.
  case .insertedText, .composing, .replayed: preconditionFailure("\(result) without a text owner")
  }
}

/// libFuzzer's entry point: one input, run as a program.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeySequences(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: count)
  let manager = ActionManager()
  for index in 0..<8 { try! manager.register(NoopAction(), as: "I\(index)") }
  let tree = NodeTree("n0") { Node("n1") { Node("n2") { Node("n3") } } }
  tree.root.actionManager(manager)
  tree.defaultKeyBindings = []
  var nodes = [tree.root]
  while let child = nodes.last!.children.first { nodes.append(child) }
  for node in nodes { node.focusable() }
  var reference = Reference()
  var index = 0
  while index + 2 < bytes.count {
    let (op, a, b) = (bytes[index], Int(bytes[index + 1]), Int(bytes[index + 2]))
    index += 3
    switch op % 8 {
    case 0:
      // A binding of one to three keys on a node, or in the defaults.
      let keys = (0...(b % 3)).map { alphabet[(a >> ($0 * 2)) % alphabet.count] }
      let identifier = "I\(b % 8)"
      let sequence = KeySequence(keys.map { try! KeyChord(parsing: $0) })
      let owner = (a >> 6) % 5
      if owner == 4, b % 7 == 6 {
        // A binding of no keys is refused when made, for the defaults as for a node.
        precondition((try? KeyBinding(KeySequence([]), to: identifier)) == nil)
      } else if owner == 4 {
        // The defaults may overlap, but a binding with Escape after its first key is refused.
        if let binding = try? KeyBinding(sequence, to: identifier) {
          precondition(!keys.dropFirst().contains("escape"))
          tree.defaultKeyBindings.append(binding)
          reference.defaults.append(Binding(keys: keys, identifier: identifier, node: Binding.defaults))
        } else {
          precondition(keys.dropFirst().contains("escape"))
        }
      } else {
        nodes[owner].bindKey(sequence, to: identifier)
        let binding = Binding(keys: keys, identifier: identifier, node: owner)
        // The declaration rules: no Escape after the first key, nothing overlapping on the node.
        if !keys.dropFirst().contains("escape"),
          !reference.bindings[owner].contains(where: { $0.overlaps(binding) })
        {
          reference.bindings[owner].append(binding)
        }
      }
    case 1:
      if a % 5 == 4 {
        tree.defaultKeyBindings = []
        reference.defaults = []
      } else {
        nodes[a % 5].removeKeyBindings()
        reference.bindings[a % 5] = []
      }
    case 2:
      try! tree.focus(nodes[a % 4])
      reference.focus = a % 4
    case 3:
      // n2 (with n3) moves between n1 and the root.
      let (old, parent) = reference.parents[2] == 1 ? (1, 0) : (0, 1)
      _ = nodes[2].removeFromParent()
      // Focus that left with n2 went to its nearest focusable ancestor still in the tree.
      if reference.focus >= 2 { reference.focus = old }
      try! nodes[parent].addChild(nodes[2])
      reference.parents[2] = parent
    case 4:
      let cancelled = tree.cancelPendingKeys()
      precondition(
        (cancelled != nil) == (reference.pending != nil),
        "cancelPendingKeys: \(String(describing: cancelled))")
      reference.pending = nil
    default:
      let key = alphabet[a % alphabet.count]
      let got = describe(tree.firstResponder.handleKey(try! KeyChord(parsing: key)))
      let expected = reference.press(key)
      precondition(
        got == expected, "pressed \(key) at n\(reference.focus): got '\(got)', expected '\(expected)'")
    }
  }
  return 0
}
