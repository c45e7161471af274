import Testing
import ViewTree
import ViewTreeActions

@testable import Actions

@Suite struct KeyBindingTests {
  @Test(arguments: [
    ("ctrl+s", "ctrl+s"), ("Ctrl+s", "ctrl+s"), ("Ctrl+S", "ctrl+shift+s"), ("shift+tab", "shift+tab"),
    ("f5", "f5"),
    ("alt+enter", "alt+enter"), ("option+return", "alt+enter"), ("cmd+shift+ctrl+z", "ctrl+shift+meta+z"),
    ("ctrl+plus", "ctrl+plus"), ("ctrl+/", "ctrl+/"), ("esc", "escape"), ("F24", "f24"), ("é", "é"),
  ])
  func chordsParseToACanonicalForm(text: String, canonical: String) throws {
    #expect(try KeyChord(parsing: text).description == canonical)
  }

  @Test(arguments: [
    ("", 0, InvalidKeyChord.empty),
    ("ctrl+", 5, .emptyPart),
    ("ctrl++s", 5, .emptyPart),
    ("+s", 0, .emptyPart),
    ("hyper+s", 0, .unknownModifier("hyper")),
    ("ctrl+control+s", 5, .duplicateModifier("control")),
    ("ctrl+xyz", 5, .unknownKey("xyz")),
    ("f25", 0, .unknownKey("f25")),
    ("f0", 0, .unknownKey("f0")),
    ("ctrl+ ", 5, .unknownKey(" ")),
  ])
  func malformedChordsAreErrorsWithAPosition(text: String, offset: Int, reason: InvalidKeyChord) {
    #expect(throws: ParseError<InvalidKeyChord>(text: text, offset: offset, reason: reason)) {
      try KeyChord(parsing: text)
    }
  }

  @Test func aHugeMalformedChordIsRejectedAtItsFirstMistake() {
    // Ten million "+" (an empty first part) and a million "ctrl+" (a duplicate second part) are
    // rejected after reading a few bytes, without splitting the rest: each in well under a
    // second even in a sanitized debug build, where splitting first took seconds.
    let plusses = String(repeating: "+", count: 10_000_000)
    let controls = String(repeating: "ctrl+", count: 1_000_000) + "s"
    for (text, offset, reason) in [
      (plusses, 0, InvalidKeyChord.emptyPart), (controls, 5, .duplicateModifier("ctrl")),
    ] {
      let clock = ContinuousClock()
      var error: ParseError<InvalidKeyChord>?
      let elapsed = clock.measure {
        do throws(ParseError<InvalidKeyChord>) { _ = try KeyChord(parsing: text) } catch let caught {
          error = caught
        }
      }
      #expect(error?.offset == offset)
      #expect(error?.reason == reason)
      #expect(elapsed < .milliseconds(500))
    }
    // A long first part is read to its end, once.
    let longName = String(repeating: "x", count: 100_000) + "+s"
    #expect(
      throws: ParseError<InvalidKeyChord>(
        text: longName, offset: 0, reason: .unknownModifier(String(longName.dropLast(2))))
    ) {
      try KeyChord(parsing: longName)
    }
  }

  @Test func aChordBoundTwiceOnOneNodeIsReportedAndNotBound() throws {
    let tree = NodeTree("root") { Node("editor") }
    var reported: [String] = []
    tree.onProblem = { problem, node in reported.append("\(node.path): \(problem)") }
    let node = tree.node(id: "editor")!
    // The same chord, spelled another way: modifier names are case-insensitive.
    node.bindKey("ctrl+s", to: "Save").bindKey("Control+s", to: "SaveAs")
    #expect(
      node.problems.map { $0 as? ViewTreeActionsError } == [
        .keysConflict(
          keys: try KeySequence(parsing: "ctrl+s"), node: "root/editor",
          bound: try KeySequence(parsing: "ctrl+s"),
          identifier: "Save")
      ])
    #expect(node.keyBindings.map(\.identifier.text) == ["Save"])
    #expect(reported == ["root/editor: 'ctrl+s' is already bound to 'Save' on 'root/editor'"])
    node.bindKey("ctrl+q", to: "Quit(").bindKey("ctrl+", to: "Save")
    #expect(node.keyBindings.map(\.keys.description) == ["ctrl+s"])
    guard case .invalidIdentifier = node.problems[1] as? ViewTreeActionsError,
      case .invalidChord(let parseError) = node.problems[2] as? ViewTreeActionsError
    else {
      Issue.record("expected invalidIdentifier and invalidChord, got \(node.problems)")
      return
    }
    #expect(parseError.offset == 5)
    #expect(parseError.reason == .emptyPart)
  }

  @Test func overlapsAreFoundAmongManyBindingsAndCopiesOfADeclarationStayApart() throws {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let node = Node("keys")
    var declaration = NodeDeclaration("keys")
    for first in letters {
      for second in letters {
        node.bindKey("\(first) \(second)", to: "Type")
        declaration = declaration.bindKey("\(first) \(second)", to: "Type")
      }
    }
    #expect(node.keyBindings.count == 676 && node.problems.isEmpty)
    // A sequence that begins one, one that one begins, and one bound already: each names the
    // binding it overlaps, and none is bound.
    node.bindKey("q", to: "Quit").bindKey("m x y", to: "Other").bindKey("z z", to: "Again")
    #expect(
      node.problems.map { ($0 as? ViewTreeActionsError).map { "\($0)" } ?? "" } == [
        "'q' cannot be bound on 'keys': it overlaps 'q a', bound there to 'Type' (a key press could not tell which one is meant)",
        "'m x y' cannot be bound on 'keys': it overlaps 'm x', bound there to 'Type' (a key press could not tell which one is meant)",
        "'z z' is already bound to 'Type' on 'keys'",
      ])
    #expect(node.keyBindings.count == 676)

    // A copy made before a binding does not see it, and binds the same keys on its own.
    let copy = declaration
    declaration = declaration.bindKey("ctrl+s", to: "Save")
    let other = copy.bindKey("ctrl+s", to: "SaveAs")
    #expect(declaration.problems.isEmpty && other.problems.isEmpty)
    let tree = NodeTree(declaring: other)
    #expect(tree.root.keyBindings.count == 677)
    #expect(tree.root.keyBindings.last?.identifier.text == "SaveAs")
    tree.update(to: declaration)
    #expect(tree.root.keyBindings.last?.identifier.text == "Save")
  }

  @Test func aDeclarationReportsItsProblemsToTheNodeItUpdates() throws {
    let declaration = NodeDeclaration("root").bindKey("ctrl+s", to: "Save").bindKey("ctrl+s", to: "Other")
    #expect(declaration.problems.count == 1)
    let tree = NodeTree(declaring: NodeDeclaration("root"))
    var reported = 0
    tree.onProblem = { _, _ in reported += 1 }
    tree.update(to: declaration)
    #expect(tree.root.problems.count == 1)
    #expect(reported == 1)
    #expect(tree.root.keyBindings.map(\.identifier.text) == ["Save"])
    tree.update(to: NodeDeclaration("root").bindKey("ctrl+o", to: "Open"))
    #expect(tree.root.problems.isEmpty)
    #expect(tree.root.keyBindings.map(\.identifier.text) == ["Open"])
    tree.update(to: NodeDeclaration("root"))
    #expect(tree.root.keyBindings.isEmpty)
  }

  @Test func anyNodeHandlesKeysAsIfItHadFocus() throws {
    let editor = Editor()
    editor.tree.root.bindKey("ctrl+s", to: "SetColor(color: root)")
    editor.node("editor").bindKey("ctrl+s", to: "SetColor(color: editor)")
    try editor.tree.focus(id: "list")
    let chord = try KeyChord(parsing: "ctrl+s")
    #expect(editor.node("editor").resolveKey(chord).bound?.node?.id == "editor")
    guard case .resolved(let binding, let result) = editor.node("editor").handleKey(chord), result.isPerformed
    else {
      Issue.record("expected the editor's binding to perform")
      return
    }
    #expect(binding.node?.id == "editor")
    #expect(editor.model.colors == ["editor"])
    #expect(editor.tree.focusedNode?.id == "list")
    editor.tree.firstResponder.handleKey(chord)
    #expect(editor.model.colors == ["editor", "root"])
  }

  @Test func theNearestBindingFromTheFocusWins() throws {
    let editor = Editor()
    editor.tree.root.bindKey("ctrl+s", to: "Save")
    editor.node("editor").bindKey("ctrl+s", to: "SetColor(color: blue)")
    try editor.tree.focus(id: "editor")
    let binding = try #require(editor.tree.firstResponder.resolveKey(try KeyChord(parsing: "ctrl+s")).bound)
    #expect(binding.node?.id == "editor")
    let result = try editor.tree.firstResponder.handleKey(KeyChord(parsing: "ctrl+s"))
    guard case .resolved(_, let performed) = result, performed.isPerformed else {
      Issue.record("expected the editor binding to perform, got \(result)")
      return
    }
    #expect(editor.model.colors == ["blue"])

    try editor.tree.focus(id: "list")
    try editor.tree.firstResponder.handleKey(KeyChord(parsing: "ctrl+s"))
    #expect(editor.model.saves.isEmpty)  // Save is disabled from the list: no document
    guard case .unbound = try editor.tree.firstResponder.handleKey(KeyChord(parsing: "ctrl+q")) else {
      Issue.record("expected unbound")
      return
    }
  }

  @Test func aDisabledBindingReportsItAndDoesNotFallThrough() throws {
    let editor = Editor()
    editor.tree.root.bindKey("del", to: "SetColor(color: outer)")
    editor.node("sidebar").bindKey("delete", to: "DeleteRow")
    editor.model.selection = []
    try editor.tree.focus(id: "list")
    let result = try editor.tree.firstResponder.handleKey(KeyChord(parsing: "del"))
    guard case .resolved(let binding, .answered(.disabled, _)) = result else {
      Issue.record("expected a disabled answer from the sidebar binding, got \(result)")
      return
    }
    #expect(binding.node?.id == "sidebar")
    #expect(editor.model.colors.isEmpty)
  }

  @Test func malformedKeyPressesAreErrors() {
    #expect(throws: ParseError<InvalidKeyChord>(text: "ctrl+", offset: 5, reason: .emptyPart)) {
      try KeyChord(parsing: "ctrl+")
    }
  }
}

@Suite struct KeyChordCharacterTests {
  @Test func aKeyIsOneCharacterHoweverManyScalarsMakeIt() throws {
    // `é` as `e` and a combining acute accent: one character, two scalars.
    let decomposed = try KeyChord(parsing: "ctrl+e\u{301}")
    #expect(decomposed.key == .character("é"))
    #expect(try KeyChord(parsing: decomposed.description) == decomposed)
    #expect(try KeyChord(parsing: "🇫🇷").key == .character("🇫🇷"))
    // A capital is the letter with shift, as a terminal reports it.
    #expect(try KeyChord(parsing: "É") == KeyChord(parsing: "shift+é"))
    // Two characters, whitespace and controls are not keys.
    #expect(throws: ParseError<InvalidKeyChord>.self) { try KeyChord(parsing: "ab") }
    #expect(throws: ParseError<InvalidKeyChord>.self) { try KeyChord(parsing: "ctrl+\u{A0}") }
    #expect(throws: ParseError<InvalidKeyChord>.self) { try KeyChord(parsing: "ctrl+\u{7}") }
  }
}

/// Every rule of the key-chord spelling (KeyChord's documentation) beside its hostile neighbours.
@Suite struct KeyChordRuleTests {
  static let valid: [(String, String)] = [
    ("ctrl+shift+s", "ctrl+shift+s"), ("CTRL+s", "ctrl+s"), ("CTRL+S", "ctrl+shift+s"),
    ("S", "shift+s"), ("shift+S", "shift+s"), ("shift+ctrl+s", "ctrl+shift+s"),
    ("control+s", "ctrl+s"), ("opt+x", "alt+x"), ("option+x", "alt+x"), ("cmd+q", "meta+q"),
    ("super+q", "meta+q"), ("win+q", "meta+q"), ("command+q", "meta+q"), ("plus", "plus"),
    ("ctrl+plus", "ctrl+plus"), ("F5", "f5"), ("f24", "f24"), ("f1", "f1"), ("return", "enter"),
    ("esc", "escape"), ("del", "delete"), ("ins", "insert"), ("pgup", "pageup"), ("pgdn", "pagedown"),
    ("/", "/"), ("5", "5"), ("ctrl+5", "ctrl+5"),
  ]
  static let invalid: [(String, InvalidKeyChord)] = [
    ("", .empty), ("ctrl+", .emptyPart), ("+s", .emptyPart), ("ctrl++", .emptyPart), ("+", .emptyPart),
    ("ctrl+ctrl+s", .duplicateModifier("ctrl")), ("ctrl+control+s", .duplicateModifier("control")),
    ("hyper+s", .unknownModifier("hyper")), ("s+ctrl", .unknownModifier("s")), ("f0", .unknownKey("f0")),
    ("f25", .unknownKey("f25")), ("f01", .unknownKey("f01")), ("fx", .unknownKey("fx")),
    ("ctrl+s ", .unknownKey("s ")), (" ", .unknownKey(" ")), ("ctrl+\t", .unknownKey("\t")),
    ("ab", .unknownKey("ab")), ("enterx", .unknownKey("enterx")),
  ]

  @Test(arguments: valid.indices)
  func validSpellingsParseToTheirCanonicalForm(row: Int) throws {
    let (text, canonical) = Self.valid[row]
    #expect(try KeyChord(parsing: text).description == canonical, "\(text.debugDescription)")
  }

  @Test(arguments: invalid.indices)
  func neighboursOfTheRulesAreErrors(row: Int) {
    let (text, reason) = Self.invalid[row]
    do {
      let chord = try KeyChord(parsing: text)
      Issue.record("\(text.debugDescription) parsed as \(chord)")
    } catch {
      #expect(error.reason == reason, "\(text.debugDescription)")
    }
  }
}

@Suite struct FocusKeyTests {
  @Test func tabAndShiftTabMoveTheFocusUnlessANodeBindsThem() throws {
    let tree = NodeTree("window") {
      Node("list").focusable()
      Node("editor").focusable().bindKey("tab", to: "InsertTab")
      Node("grid") {
        Node("a").focusable()
        Node("b").focusable()
      }
      .bindKey("right", to: "focus.Right")
    }
    let tab = KeyChord(.tab)
    guard case .movedFocus(let binding, .moved(let node)) = tree.firstResponder.handleKey(tab) else {
      Issue.record("Tab should move the focus by the tree's default binding")
      return
    }
    #expect(binding.identifier.text == "focus.Next")
    #expect(binding.node === tree.root)
    #expect(node.id == "list")
    tree.firstResponder.handleKey(tab)
    #expect(tree.focusedNode?.id == "editor")
    // With no manager to perform it, the editor's InsertTab is unavailable: the key falls
    // through to the tree's default, which moves the focus on.
    guard case .movedFocus(let fallen, .moved(let grid)) = tree.firstResponder.handleKey(tab) else {
      Issue.record("an unavailable binding of Tab should fall through to the default")
      return
    }
    #expect(fallen.identifier.text == "focus.Next")
    #expect(grid.id == "a")
    tree.firstResponder.handleKey(KeyChord(.tab, modifiers: .shift))
    #expect(tree.focusedNode?.id == "editor")
    // With a manager that performs it, the editor's own binding wins: focus stays.
    let manager = ActionManager()
    try manager.register(RunAction {}, as: "InsertTab")
    tree.root.actionManager(manager)
    guard case .resolved(let own, let result) = tree.firstResponder.handleKey(tab) else {
      Issue.record("the editor's binding of Tab should win")
      return
    }
    #expect(own.identifier.text == "InsertTab")
    #expect(result.answer?.isPerformed == true)
    #expect(tree.focusedNode?.id == "editor")
    tree.firstResponder.handleKey(KeyChord(.tab, modifiers: .shift))
    #expect(tree.focusedNode?.id == "list")
    // Bindings of the other focus identifiers move it too.
    try tree.focus(id: "a")
    tree.firstResponder.handleKey(KeyChord(.right))
    #expect(tree.focusedNode?.id == "b")
    // A tree replaces its defaults.
    tree.defaultKeyBindings = [try KeyBinding("ctrl+n", to: "focus.Next")]
    guard case .unbound = tree.firstResponder.handleKey(tab) else {
      Issue.record("Tab has no default binding any more")
      return
    }
    tree.firstResponder.handleKey(try KeyChord(parsing: "ctrl+n"))
    #expect(tree.focusedNode?.id == "list")
  }

  @Test func theFooterListsFocusBindingsAsEnabled() throws {
    let tree = NodeTree("window") { Node("grid").focusable().bindKey("left", to: "focus.Left") }
    try tree.focus(id: "grid")
    let entries = tree.firstResponder.bindingsInEffect()
    #expect(
      entries.map(\.description) == ["left  Focus left", "tab  Focus next", "shift+tab  Focus previous"])
    #expect(entries.map { $0.shadowedBy == nil } == [true, true, true])
  }
}

extension KeyResolution {
  /// The binding the keys complete, if they complete one.
  var bound: KeyBinding? {
    guard case .binding(let binding) = self else { return nil }
    return binding
  }
}

@Suite struct CapitalLetterTests {
  @Test func aCapitalIsTheLetterWithShiftWhereverItIsWritten() throws {
    #expect(KeyChord(.character("D")) == KeyChord(.character("d"), modifiers: .shift))
    #expect(try KeyChord(parsing: "D") == KeyChord(parsing: "shift+d"))
    #expect(try KeyChord(parsing: "ctrl+S").description == "ctrl+shift+s")
    // Characters that are not capitals keep their modifiers as they are.
    #expect(try KeyChord(parsing: "ß").description == "ß")
    #expect(try KeyChord(parsing: "5").description == "5")
    let node = Node("list").bindKey("D", to: "DeleteAll")
    #expect(node.keyBindings.map(\.keys.description) == ["shift+d"])
  }

  @Test func aTypedCapitalDoesNotStartTheSequenceOfItsLowercaseLetter() throws {
    let editor = Editor()
    let list = editor.node("list")
    list.bindKey("d d", to: "DeleteRow").bindKey("shift+d", to: #"SetColor(color: dark)"#)
    // `D` as a terminal sends it: the letter with shift, bound on its own.
    guard case .resolved(let binding, let result) = list.handleKey(KeyChord(.character("D"))) else {
      Issue.record("D resolves to the shift+d binding")
      return
    }
    #expect(binding.identifier.text == "SetColor(color: dark)")
    #expect(result.isPerformed)
    #expect(editor.tree.pendingKeys == nil)
    #expect(editor.model.rows.count == 3)
  }
}

@Suite struct EnterActivatesItemsTests {
  @Test func enterActivatesTheFocusedItemWithTheItemAsSender() throws {
    let editor = Editor()
    editor.node("red").focusable()
    let tree = editor.tree
    try tree.focus(id: "red")
    let enter = KeyChord(.enter)
    guard case .resolved(let binding, let result) = tree.firstResponder.handleKey(enter) else {
      Issue.record("Enter activates the focused item")
      return
    }
    #expect(binding.identifier.text == "item.Activate")
    #expect(binding.isDefault)
    #expect(result.isPerformed)
    #expect(editor.model.colors == ["red"])
    #expect(editor.model.senders == ["window/menubar/edit/red"])
    // The footer shows it with the item's validation.
    #expect(
      tree.firstResponder.bindingsInEffect().map(\.description).last
        == #"enter  color.SetColor("color": "red")"#)
  }

  @Test func enterIsUnboundWhereTheFocusIsNoItemAndATreeCanReplaceIt() throws {
    let editor = Editor()
    let tree = editor.tree
    try tree.focus(id: "list")
    guard case .unbound = tree.firstResponder.handleKey(KeyChord(.enter)) else {
      Issue.record("Enter does nothing where no item is focused: the toolkit may take it")
      return
    }
    #expect(!tree.firstResponder.bindingsInEffect().contains { $0.identifier == "item.Activate" })
    // Space activates instead, once the tree says so; Enter is then unbound at an item too.
    tree.defaultKeyBindings = [try KeyBinding([KeyChord(.space)], to: "item.Activate")]
    editor.node("save").focusable()
    try tree.focus(id: "save")
    guard case .unbound = tree.firstResponder.handleKey(KeyChord(.enter)) else {
      Issue.record("the tree replaced Enter's default")
      return
    }
    guard case .resolved(_, let result) = tree.firstResponder.handleKey(KeyChord(.space)) else {
      Issue.record("Space activates the item now")
      return
    }
    // Nothing provides a document at the save item: validated, and disabled.
    guard case .answered(.disabled, _) = result else {
      Issue.record("expected a disabled answer, got \(result)")
      return
    }
  }

  @Test func aNodesOwnEnterBindingWinsOverActivation() throws {
    let editor = Editor()
    editor.node("red").focusable().bindKey("enter", to: "Save")
    try editor.tree.focus(id: "red")
    guard case .resolved(let binding, _) = editor.tree.firstResponder.handleKey(KeyChord(.enter)) else {
      Issue.record("the item's own binding resolves")
      return
    }
    #expect(binding.identifier.text == "Save")
    #expect(editor.model.colors.isEmpty)
  }
}

/// What the manager is given on a key press: the binding's identifier as it was parsed.
@Suite struct KeyPressIdentifierTests {
  /// Records the identifier each perform's context holds.
  final class Identifiers {
    var seen: [ActionIdentifier] = []
  }

  struct Recording: ManagedAction {
    static var defaultIdentifier: String { "Color" }
    let identifiers: Identifiers
    func perform(context: ActionContext) throws { identifiers.seen.append(context.identifier) }
  }

  @Test func aKeyPressHandsTheManagerTheBindingsParsedIdentifier() throws {
    let identifiers = Identifiers()
    let manager = ActionManager()
    try manager.register(Recording(identifiers: identifiers))
    let field = Node("field").bindKey("ctrl+r", to: #"keys.Color(name: "red")"#)
    let tree = try NodeTree(root: Node("window") { field }.actionManager(manager))
    defer { withExtendedLifetime(tree) {} }
    let binding = try #require(field.keyBindings.first)
    // Twice: the first press misses the manager's cache, the second hits it.
    for _ in 0..<2 {
      guard case .resolved(_, let result) = field.handleKey(try KeyChord(parsing: "ctrl+r")) else {
        Issue.record("the key was not resolved")
        return
      }
      #expect(result.isPerformed)
    }
    #expect(identifiers.seen.count == 2)
    // The same parsed value, not a second parse of the same text.
    #expect(identifiers.seen.allSatisfy { $0.isIdentical(to: binding.identifier) })
    // A perform of the same text by name is parsed by the manager, as before: equal, not the same.
    #expect(manager.perform(#"keys.Color(name: "red")"#).isPerformed)
    #expect(identifiers.seen.last == binding.identifier)
  }
}
