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
