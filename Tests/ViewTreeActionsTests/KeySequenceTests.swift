import Actions
import Testing
import ViewTree
import ViewTreeActions

/// Presses each chord of `keys` (chords separated by spaces) at `node`, and describes each result.
@discardableResult
private func press(_ keys: String, at node: Node) throws -> [String] {
  try KeySequence(parsing: keys).chords.map { describe(node.handleKey($0)) }
}

/// A result in a few words: `pending g (g)`, `g g -> SelectFirst`, `cancelled g (broken); x -> X`.
private func describe(_ result: KeyPressResult) -> String {
  switch result {
  case .unbound(let chord): "unbound \(chord)"
  case .resolved(let binding, _): "\(binding.keys) -> \(binding.identifier)"
  case .movedFocus(let binding, _): "\(binding.keys) -> \(binding.identifier)"
  case .pending(let pending):
    "pending \(pending.typed) (\(pending.continuations.map { "\($0.keys)" }.joined(separator: ", ")))"
  case .cancelled(let pending, let reason, let then):
    "cancelled \(pending.typed) (\(reason))" + (then.map { "; " + describe($0) } ?? "")
  case .insertedText(let insert, _): "\(insert)"
  case .composing(let chord): "composing \(chord)"
  case .replayed(let results, let then):
    "replayed " + results.map(describe).joined(separator: ", ") + (then.map { "; " + describe($0) } ?? "")
  }
}

private func color(_ name: String) -> String { "SetColor(color: \(name))" }

@Suite struct KeySequenceParsingTests {
  @Test(arguments: [
    ("ctrl+k ctrl+s", "ctrl+k ctrl+s", 2), ("g g", "g g", 2), ("  G   g ", "shift+g g", 2),
    ("ctrl+S", "ctrl+shift+s", 1), ("CTRL+s", "ctrl+s", 1),
    ("esc shift+tab f5", "escape shift+tab f5", 3),
  ])
  func sequencesParseToACanonicalForm(text: String, canonical: String, count: Int) throws {
    let sequence = try KeySequence(parsing: text)
    #expect(sequence.description == canonical)
    #expect(sequence.chords.count == count)
    #expect(try KeySequence(parsing: canonical) == sequence)
  }

  @Test(arguments: [
    ("", 0, InvalidKeyChord.empty),
    ("   ", 0, .empty),
    ("ctrl+k ctrl+", 12, .emptyPart),
    ("g  hyper+x", 3, .unknownModifier("hyper")),
    ("g xy", 2, .unknownKey("xy")),
  ])
  func malformedSequencesAreErrorsAtTheOffendingChord(
    text: String, offset: Int, reason: InvalidKeyChord
  ) {
    #expect(throws: ParseError<InvalidKeyChord>(text: text, offset: offset, reason: reason)) {
      try KeySequence(parsing: text)
    }
  }

  @Test func theCaretPointsIntoTheWholeSequence() throws {
    let error = try #require(throws: ParseError<InvalidKeyChord>.self) {
      try KeySequence(parsing: "ctrl+k shift+xyz")
    }
    #expect(
      "\(error)" == "invalid key chord: 'xyz' is not a key (offset 13)\n  ctrl+k shift+xyz\n               ^")
  }
}

@Suite struct KeySequenceDeclarationTests {
  @Test func bindingsThatOverlapOnOneNodeAreReportedAndTheFirstStays() throws {
    let node = Node("editor")
    node.bindKey("g g", to: "Top").bindKey("g", to: "Go").bindKey("g g x", to: "Other").bindKey(
      "g g", to: "Again")
    node.bindKey("ctrl+k", to: "Kill").bindKey("ctrl+k ctrl+s", to: "SaveAll")
    #expect(node.keyBindings.map { "\($0.keys) -> \($0.identifier)" } == ["g g -> Top", "ctrl+k -> Kill"])
    #expect(
      node.problems.map { "\($0)" } == [
        "'g' cannot be bound on 'editor': it overlaps 'g g', bound there to 'Top' (a key press could not tell which one is meant)",
        "'g g x' cannot be bound on 'editor': it overlaps 'g g', bound there to 'Top' (a key press could not tell which one is meant)",
        "'g g' is already bound to 'Top' on 'editor'",
        "'ctrl+k ctrl+s' cannot be bound on 'editor': it overlaps 'ctrl+k', bound there to 'Kill' (a key press could not tell which one is meant)",
      ])
    #expect(
      node.problems.first as? ViewTreeActionsError
        == .keysConflict(
          keys: try KeySequence(parsing: "g"), node: "editor", bound: KeySequence(["g", "g"].map(chord)),
          identifier: "Top"))
  }

  @Test func aSequenceWithEscapeAfterItsFirstKeyIsReported() throws {
    let node = Node("editor").bindKey("g escape", to: "Never").bindKey("escape g", to: "Fine")
    #expect(node.keyBindings.map(\.identifier.text) == ["Fine"])
    #expect(
      node.problems.map { "\($0)" } == [
        "'g escape' can never complete: Escape cancels a pending key sequence"
      ])
    #expect(Node().bindKey(KeySequence([]), to: "Empty").problems.count == 1)
  }

  @Test func sequencesReDeclareLikeChords() throws {
    let tree = NodeTree(declaring: NodeDeclaration("root").bindKey("g g", to: "Top"))
    #expect(tree.root.keyBindings.map { "\($0.keys)" } == ["g g"])
    tree.update(to: NodeDeclaration("root").bindKey("ctrl+k ctrl+s", to: "SaveAll"))
    #expect(tree.root.keyBindings.map { "\($0.keys)" } == ["ctrl+k ctrl+s"])
    #expect(tree.root.problems.isEmpty)
  }
}

private func chord(_ text: String) -> KeyChord { try! KeyChord(parsing: text) }

@Suite struct KeySequenceResolutionTests {
  @Test func aSequenceWaitsForItsNextKeyThenPerformsFromTheFocus() throws {
    let editor = Editor()
    editor.node("editor").bindKey("ctrl+k ctrl+b", to: color("blue")).bindKey(
      "ctrl+k ctrl+r", to: color("red"))
    try editor.tree.focus(id: "editor")
    let focus = editor.tree.firstResponder
    #expect(try press("ctrl+k", at: focus) == ["pending ctrl+k (ctrl+k ctrl+b, ctrl+k ctrl+r)"])
    #expect(editor.tree.pendingKeys?.typed.description == "ctrl+k")
    #expect(editor.model.colors.isEmpty)
    // Resolving does not change what is pending; pressing does.
    guard case .binding(let binding) = focus.resolveKey(chord("ctrl+r")) else {
      Issue.record("ctrl+r completes the sequence")
      return
    }
    #expect(binding.identifier.text == color("red"))
    #expect(editor.tree.pendingKeys != nil)
    guard case .resolved(let resolved, let result) = focus.handleKey(chord("ctrl+r")) else {
      Issue.record("ctrl+r completes the sequence")
      return
    }
    #expect(result.isPerformed)
    #expect(resolved.keys.description == "ctrl+k ctrl+r")
    #expect(editor.model.colors == ["red"])
    #expect(editor.model.senders == ["ctrl+k ctrl+r -> \(color("red")) (on window/editor)"])
    #expect(editor.tree.pendingKeys == nil)
    // Three keys: pending twice, then performed.
    editor.node("editor").bindKey("ctrl+k g g", to: color("green"))
    #expect(
      try press("ctrl+k g g", at: focus) == [
        "pending ctrl+k (ctrl+k ctrl+b, ctrl+k ctrl+r, ctrl+k g g)", "pending ctrl+k g (ctrl+k g g)",
        "ctrl+k g g -> \(color("green"))",
      ])
  }

  @Test func theNearerBindingHidesAFartherOneThatOverlapsItEitherWayRound() throws {
    let editor = Editor()
    // A nearer `g` hides a farther `g g`: g acts at once.
    editor.node("sidebar").bindKey("g g", to: color("top"))
    editor.node("list").bindKey("g", to: color("green"))
    #expect(try press("g", at: editor.node("list")) == ["g -> \(color("green"))"])
    let shown = editor.node("list").bindingsInEffect().map {
      "\($0.keys!) shadowed by \($0.shadowedBy?.keys.description ?? "-")"
    }
    // The tree's defaults come last: Tab and Shift-Tab (Enter activates only at an item).
    #expect(
      shown == ["g shadowed by -", "g g shadowed by g", "tab shadowed by -", "shift+tab shadowed by -"])
    // A nearer `g g` hides a farther `g`: g waits.
    editor.node("list").removeKeyBindings()
    editor.node("list").bindKey("g g", to: color("first"))
    editor.node("sidebar").removeKeyBindings()
    editor.node("sidebar").bindKey("g", to: color("green"))
    #expect(try press("g g", at: editor.node("list")) == ["pending g (g g)", "g g -> \(color("first"))"])
    #expect(
      editor.node("list").bindingsInEffect().map {
        "\($0.keys!) shadowed by \($0.shadowedBy?.keys.description ?? "-")"
      }
        == ["g g shadowed by -", "g shadowed by g g", "tab shadowed by -", "shift+tab shadowed by -"])
    #expect(
      editor.node("list").bindingsInEffect(includingShadowed: false).map(\.identifier) == [
        color("first"), "focus.Next", "focus.Previous",
      ])
    // From the sidebar, its own `g` is the nearest.
    #expect(try press("g", at: editor.node("sidebar")) == ["g -> \(color("green"))"])
    // Farther bindings that do not overlap a nearer one stay in effect beside it.
    editor.tree.root.bindKey("g h", to: color("home"))
    #expect(try press("g h", at: editor.node("list")) == ["pending g (g g, g h)", "g h -> \(color("home"))"])
    #expect(editor.model.colors == ["green", "first", "green", "home"])
  }

  @Test func aKeyThatDoesNotContinueTheSequenceCancelsItAndIsResolvedOnItsOwn() throws {
    let editor = Editor()
    editor.tree.root.bindKey("g g", to: color("top")).bindKey("x", to: color("x")).bindKey(
      "escape", to: color("esc"))
    let root = editor.tree.root
    #expect(try press("g x", at: root) == ["pending g (g g)", "cancelled g (broken); x -> \(color("x"))"])
    #expect(try press("g q", at: root) == ["pending g (g g)", "cancelled g (broken); unbound q"])
    // A key that breaks one sequence may begin another.
    #expect(
      try press("g ctrl+k g g", at: root) == [
        "pending g (g g)", "cancelled g (broken); unbound ctrl+k", "pending g (g g)",
        "g g -> \(color("top"))",
      ])
    // Escape cancels and does nothing else: the root's Escape binding does not run.
    #expect(try press("g escape", at: root) == ["pending g (g g)", "cancelled g (escape)"])
    #expect(try press("escape", at: root) == ["escape -> \(color("esc"))"])
    #expect(editor.model.colors == ["x", "top", "esc"])
  }

  @Test func aFocusChangeCancelsTheSequenceWhenTheNextKeyComes() throws {
    let editor = Editor()
    editor.tree.root.bindKey("g g", to: color("top"))
    try editor.tree.focus(id: "list")
    #expect(try press("g", at: editor.tree.firstResponder) == ["pending g (g g)"])
    try editor.tree.focus(id: "editor")
    // The footer stops showing it at once; the next key says it was cancelled.
    #expect(editor.tree.pendingKeys == nil)
    #expect(
      try press("g", at: editor.tree.firstResponder) == ["cancelled g (focusMoved); pending g (g g)"])
    // Completed at the new focus, from where it began again.
    #expect(try press("g", at: editor.tree.firstResponder) == ["g g -> \(color("top"))"])
    #expect(editor.model.senders == ["g g -> \(color("top")) (on window)"])
  }

  @Test func removingTheBindingsOfAPendingSequenceCancelsIt() throws {
    let editor = Editor()
    editor.node("list").bindKey("g g", to: color("top")).bindKey("g h", to: color("home"))
    editor.tree.root.bindKey("h", to: color("h"))
    let list = editor.node("list")
    #expect(try press("g", at: list) == ["pending g (g g, g h)"])
    list.removeKeyBindings()
    #expect(try press("h", at: list) == ["cancelled g (bindingsRemoved); h -> \(color("h"))"])
    // An update that re-declares the same binding keeps the sequence going; one that drops one
    // of its continuations leaves the others.
    let tree = NodeTree(
      declaring: NodeDeclaration("root").bindKey("g g", to: "Top").bindKey("g h", to: "Home"))
    #expect(try press("g", at: tree.root) == ["pending g (g g, g h)"])
    tree.update(to: NodeDeclaration("root").bindKey("g h", to: "Home"))
    #expect(tree.pendingKeys?.continuations.map(\.identifier.text) == ["Home"])
    #expect(try press("g", at: tree.root) == ["cancelled g (broken); pending g (g h)"])
    tree.update(to: NodeDeclaration("root").bindKey("g h", to: "Home"))
    #expect(describe(tree.root.handleKey(chord("h"))) == "g h -> Home")
    // A node that leaves the path with its binding takes the binding with it.
    #expect(try press("g g", at: editor.tree.root) == ["unbound g", "unbound g"])
    editor.node("sidebar").bindKey("g g", to: color("top"))
    #expect(try press("g", at: list) == ["pending g (g g)"])
    #expect(list.removeFromParent())
    try editor.tree.root.addChild(list)
    #expect(try press("g", at: list) == ["cancelled g (bindingsRemoved); unbound g"])
  }

  @Test func theCallersTimeoutCancelsThePendingSequence() throws {
    let editor = Editor()
    editor.tree.root.bindKey("ctrl+k ctrl+s", to: "Save").bindKey("ctrl+s", to: color("s"))
    #expect(editor.tree.cancelPendingKeys() == nil)
    #expect(try press("ctrl+k", at: editor.tree.root) == ["pending ctrl+k (ctrl+k ctrl+s)"])
    #expect(editor.tree.cancelPendingKeys()?.typed.description == "ctrl+k")
    #expect(editor.tree.pendingKeys == nil)
    #expect(try press("ctrl+s", at: editor.tree.root) == ["ctrl+s -> \(color("s"))"])
  }

  @Test func theContinuationsAreSortedAndValidatedForAWhichKeyFooter() throws {
    let editor = Editor()
    editor.tree.root
      .bindKey("ctrl+k z", to: color("z")).bindKey("ctrl+k ctrl+s", to: "Save")
      .bindKey("ctrl+k g h", to: color("gh")).bindKey("ctrl+k a", to: color("a"))
      .bindKey("ctrl+k f2", to: color("f2")).bindKey("ctrl+k f10", to: color("f10"))
      .bindKey("ctrl+k s", to: "Save").bindKey("ctrl+k g b", to: color("gb"))
    try editor.tree.focus(id: "list")
    editor.tree.firstResponder.handleKey(chord("ctrl+k"))
    let entries = try #require(editor.tree.pendingKeys).validatedContinuations()
    // Characters first, in order; a chord's modifiers after its key; function keys by number;
    // continuations that share the next key by the keys after it.
    #expect(
      entries.map(\.description) == [
        "ctrl+k a  \(color("a"))", "ctrl+k g b  \(color("gb"))", "ctrl+k g h  \(color("gh"))",
        "ctrl+k s  Save (disabled)", "ctrl+k ctrl+s  Save (disabled)", "ctrl+k z  \(color("z"))",
        "ctrl+k f2  \(color("f2"))", "ctrl+k f10  \(color("f10"))",
      ])
    #expect(entries.allSatisfy { $0.node === editor.tree.root })
    // Where the document is provided, Save is enabled and titled.
    try editor.tree.focus(id: "editor")
    editor.tree.firstResponder.handleKey(chord("ctrl+k"))
    #expect(editor.tree.pendingKeys?.validatedContinuations()[3].description == "ctrl+k s  Save report.txt")
  }

  @Test func theTreesDefaultBindingsTakeSequencesAndComeLast() throws {
    let tree = NodeTree("root") {
      Node("a").focusable()
      Node("b").focusable().bindKey("tab x", to: "Indent")
    }
    tree.defaultKeyBindings += [try KeyBinding("ctrl+w l", to: "focus.Right")]
    try tree.focus(id: "a")
    #expect(
      try press("ctrl+w l", at: tree.firstResponder) == [
        "pending ctrl+w (ctrl+w l)", "ctrl+w l -> focus.Right",
      ])
    #expect(tree.focusedNode?.id == "b")
    // b's own `tab x` hides the default Tab there.
    #expect(try press("tab", at: tree.firstResponder) == ["pending tab (tab x)"])
    #expect(tree.focusedNode?.id == "b")
  }

  @Test func thePaletteShowsEachCommandsSequence() throws {
    let editor = Editor()
    editor.tree.root.bindKey("ctrl+k ctrl+s", to: "Save")
    let palette = CommandPalette(from: editor.node("editor"))
    #expect(palette.entries.first { $0.identifier == "Save" }?.keys?.description == "ctrl+k ctrl+s")
  }

  @Test func awaitedKeyPressesResolveSequencesTheSameWay() async throws {
    let editor = Editor()
    editor.tree.root.bindKey("g g", to: color("top"))
    let root = editor.tree.root
    guard case .pending = await root.handleKey(chord("g")) else {
      Issue.record("g begins a sequence")
      return
    }
    guard case .resolved(_, let result) = await root.handleKey(chord("g")) else {
      Issue.record("g g completes it")
      return
    }
    #expect(result.isPerformed)
    #expect(editor.model.colors == ["top"])
  }
}

@Suite struct HostileKeySequenceTests {
  @Test func manyBindingsThatShareAFirstChordAreSortedOutOnce() throws {
    let tree = NodeTree("root") { Node("leaf") }
    let leaf = try #require(tree.node(id: "leaf"))
    let letters = (0..<26).map { String(UnicodeScalar(UInt8(97 + $0))) }
    for first in letters {
      for second in letters { tree.root.bindKey("ctrl+k \(first) \(second)", to: "Root") }
    }
    // A nearer `ctrl+k a` hides the 26 that begin with it; the other 650 stay in effect.
    leaf.bindKey("ctrl+k a", to: "Leaf")
    guard case .pending(let pending) = leaf.resolveKey(chord("ctrl+k")) else {
      Issue.record("ctrl+k begins sequences")
      return
    }
    #expect(pending.continuations.count == 651)
    #expect(pending.continuations.first?.identifier.text == "Leaf")
    let listed = leaf.bindingsInEffect()
    // 676 on the root, one on the leaf, and the tree's Tab and Shift-Tab.
    #expect(listed.count == 679)
    #expect(listed.suffix(2).map(\.identifier) == ["focus.Next", "focus.Previous"])
    #expect(listed.filter { $0.shadowedBy?.identifier.text == "Leaf" }.count == 26)
    #expect(listed.filter { $0.shadowedBy != nil }.count == 26)
  }

  @Test func anActionThatPressesKeysLeavesItsOwnSequencePending() throws {
    let editor = Editor()
    let root = editor.tree.root
    // Weakly: the root holds the manager, which holds the action.
    try editor.manager.register(
      RunAction { [weak root] in root?.handleKey(chord("ctrl+k")) }, as: "PressCtrlK")
    root.bindKey("g g", to: "PressCtrlK").bindKey("ctrl+k x", to: color("x"))
    // The outer sequence ends before its action runs; the action's own press begins another.
    #expect(try press("g g", at: root) == ["pending g (g g)", "g g -> PressCtrlK"])
    #expect(editor.tree.pendingKeys?.typed.description == "ctrl+k")
    #expect(try press("x", at: root) == ["ctrl+k x -> \(color("x"))"])
    #expect(editor.model.colors == ["x"])
  }

  @Test func aTenThousandKeySequenceResolvesOneKeyAtATime() throws {
    let keys = (0..<10_000).map { KeyChord(.character(Character(UnicodeScalar(UInt8(97 + $0 % 26))))) }
    let tree = NodeTree("root") { Node("leaf") }
    let leaf = try #require(tree.node(id: "leaf"))
    tree.root.bindKey(KeySequence(keys), to: "Long")
    leaf.bindKey(KeySequence(Array(keys.prefix(2)) + [KeyChord(.enter)]), to: "Short")
    var results: [KeyPressResult] = []
    for key in keys { results.append(leaf.handleKey(key)) }
    for result in results.dropLast() {
      guard case .pending = result else {
        Issue.record("every key but the last leaves the sequence pending, got \(result)")
        return
      }
    }
    guard case .resolved(let binding, _) = results.last else {
      Issue.record("the last key completes the sequence")
      return
    }
    #expect(binding.identifier.text == "Long")
    #expect(binding.keys.description.count == 19_999)
  }

  @Test func theTreesDefaultsMayOverlapWithoutBreakingAKeyPress() throws {
    let tree = NodeTree("root") { Node("leaf") }
    let leaf = try #require(tree.node(id: "leaf"))
    tree.defaultKeyBindings = try [
      KeyBinding("g h", to: "Help"), KeyBinding("g", to: "Go"), KeyBinding("g g", to: "Top"),
      KeyBinding("x", to: "X"), KeyBinding("x", to: "Twice"),
    ]
    // `g h` is taken first and hides `g`; `g g` overlaps neither. `g` waits for either.
    #expect(try press("g h", at: leaf) == ["pending g (g h, g g)", "g h -> Help"])
    #expect(try press("g g", at: leaf) == ["pending g (g h, g g)", "g g -> Top"])
    // Of two defaults with the same keys, the first is the one in effect; with no manager to
    // perform it, it is unavailable and the key falls through to the second.
    #expect(try press("x", at: leaf) == ["x -> Twice"])
    let manager = ActionManager()
    try manager.register(RunAction {}, as: "X")
    tree.root.actionManager(manager)
    #expect(try press("x", at: leaf) == ["x -> X"])
    // Listed as resolution takes them.
    #expect(
      leaf.bindingsInEffect().map(\.description) == [
        "g h  Help (disabled)", "g  Go (shadowed by root) (disabled)", "g g  Top (disabled)",
        "x  X", "x  Twice (shadowed by root) (disabled)",
      ])
  }

  @Test func aBindingIsCheckedWhenMadeAsBindKeyChecksIt() throws {
    #expect(throws: ViewTreeActionsError.invalidChord(ParseError(text: "", offset: 0, reason: .empty))) {
      try KeyBinding(KeySequence([]), to: "Empty")
    }
    #expect(throws: ViewTreeActionsError.escapeInSequence([chord("g"), chord("escape")])) {
      try KeyBinding("g escape", to: "Never")
    }
    #expect(
      throws: ViewTreeActionsError.invalidChord(ParseError(text: "ctrl+", offset: 5, reason: .emptyPart))
    ) {
      try KeyBinding("ctrl+", to: "Save")
    }
    let identifierError = try #require(throws: ParseError<InvalidIdentifier>.self) {
      try ActionIdentifier(parsing: "Save(a 1)")
    }
    #expect(throws: ViewTreeActionsError.invalidIdentifier(identifierError)) {
      try KeyBinding("s", to: "Save(a 1)")
    }
    // The identifier is kept parsed; a binding as a node or a tree keeps it names no node.
    let binding = try KeyBinding("ctrl+k ctrl+s", to: "menu.SetColor(color: red)")
    #expect(binding.identifier.name == "SetColor")
    #expect(binding.identifier["color"] == .string("red"))
    #expect(binding.node == nil && !binding.isDefault)
    #expect(binding.description == "ctrl+k ctrl+s -> menu.SetColor(color: red)")
    let node = Node("n").bindKey("ctrl+k ctrl+s", to: "menu.SetColor(color: red)")
    #expect(node.keyBindings.map(\.description) == [binding.description])
    // A tree that was given no defaults reads the standard ones.
    #expect(
      try NodeTree(root: Node("t")).defaultKeyBindings.map(\.description) == [
        "tab -> focus.Next", "shift+tab -> focus.Previous", "enter -> item.Activate",
      ])
  }

  @Test func aPrefixOnOneNodeAndTheFullSequenceOnItsAncestor() throws {
    let tree = NodeTree("root") { Node("leaf") }
    tree.root.bindKey("a b c", to: "Full")
    let leaf = try #require(tree.node(id: "leaf"))
    leaf.bindKey("a b", to: "Prefix")
    #expect(try press("a b c", at: leaf) == ["pending a (a b)", "a b -> Prefix", "unbound c"])
    #expect(
      try press("a b c", at: tree.root) == ["pending a (a b c)", "pending a b (a b c)", "a b c -> Full"])
  }

  @Test func aBindingRemovedByTheActionOfAnotherKeyWhilePending() throws {
    let tree = NodeTree("root") { Node("leaf") }
    let leaf = try #require(tree.node(id: "leaf"))
    tree.root.bindKey("g g", to: "Top").bindKey("ctrl+k ctrl+k", to: "Inner")
    #expect(try press("g", at: leaf) == ["pending g (g g)"])
    // Removing the root's bindings while a sequence is pending cancels it at the next key.
    tree.root.removeKeyBindings()
    #expect(tree.pendingKeys == nil)
    #expect(try press("g", at: leaf) == ["cancelled g (bindingsRemoved); unbound g"])
    // The tree is freed even with a sequence left pending.
    weak var weakRoot: Node?
    do {
      let other = NodeTree("root") { Node("leaf") }
      other.root.bindKey("g g", to: "Top")
      weakRoot = other.root
      try press("g", at: other.root.children[0])
    }
    #expect(weakRoot == nil)
  }
}
