import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

/// Key events: press, repeat and release; alternate keys.
@Suite struct KeyEventTests {
  struct Named: ManagedAction {
    let log: Log
    let name: String
    func perform(context: ActionContext) throws { log(name) }
  }

  /// `window` (a manager registering `names`) with `editor`, focused, below it.
  func makeTree(
    _ log: Log, _ names: [String] = ["Copy", "Bang", "Talk", "TalkEnd", "Revert", "Top", "Outer"]
  )
    throws -> (NodeTree, Node)
  {
    let manager = ActionManager()
    for name in names { try manager.register(Named(log: log, name: name), as: name) }
    let tree = NodeTree("window") { Node("editor").focusable() }
    tree.root.actionManager(manager)
    let editor = tree.node(id: "editor")!
    try tree.focus(editor)
    return (tree, editor)
  }

  func chord(_ text: String) throws -> KeyChord { try KeyChord(parsing: text) }

  @Test func aReleaseNeverFiresAPressBinding() throws {
    let log = Log()
    let (tree, editor) = try makeTree(log)
    tree.root.bindKey("ctrl+c", to: "Copy").bindKey("g g", to: "Top")
    let release = KeyEvent(try chord("ctrl+c"), kind: .release)
    guard case .unbound = editor.handleKey(release) else {
      Issue.record("a release resolved")
      return
    }
    #expect(log.entries.isEmpty)
    // Nor does it break, advance or cancel a pending sequence.
    guard case .pending = editor.handleKey(try chord("g")) else {
      Issue.record("g is not pending")
      return
    }
    editor.handleKey(KeyEvent(try chord("g"), kind: .release))
    editor.handleKey(KeyEvent(try chord("x"), kind: .release))
    #expect(tree.pendingKeys?.typed.description == "g")
    editor.handleKey(try chord("g"))
    #expect(log.entries == ["Top"])
  }

  @Test func aPressThenItsRepeatsThenItsReleaseFireTheBindingOncePerPressAndRepeat() throws {
    let log = Log()
    let (tree, editor) = try makeTree(log)
    tree.root.bindKey("ctrl+z", to: "Revert")
    for kind in [KeyEvent.Kind.press, .repeat, .repeat, .release] {
      editor.handleKey(KeyEvent(try chord("ctrl+z"), kind: kind))
    }
    #expect(log.entries == ["Revert", "Revert", "Revert"])
  }

  @Test func aBindingCanOptOutOfRepeatsAndOuterBindingsDoNotTakeThem() throws {
    let log = Log()
    let (tree, editor) = try makeTree(log)
    tree.root.bindKey("ctrl+z", to: "Outer")
    editor.bindKey("ctrl+z", to: "Revert", on: .press)
    editor.handleKey(KeyEvent(try chord("ctrl+z")))
    guard case .unbound = editor.handleKey(KeyEvent(try chord("ctrl+z"), kind: .repeat)) else {
      Issue.record("a repeat fired a binding that takes only presses")
      return
    }
    #expect(log.entries == ["Revert"])
  }

  @Test func aReleaseBindingFiresOnReleaseBesideAPressBindingOfTheSameKey() throws {
    let log = Log()
    let (tree, editor) = try makeTree(log)
    editor.bindKey("space", to: "Talk", on: .press).bindKey("space", to: "TalkEnd", on: .release)
    #expect(editor.problems.isEmpty)
    #expect(tree.firstResponder === editor)
    editor.handleKey(KeyEvent(KeyChord(.space)))
    editor.handleKey(KeyEvent(KeyChord(.space), kind: .repeat))
    guard case .resolved(let binding, _) = editor.handleKey(KeyEvent(KeyChord(.space), kind: .release)) else {
      Issue.record("the release binding did not resolve")
      return
    }
    #expect(binding.events == .release)
    #expect(log.entries == ["Talk", "TalkEnd"])
    // Listed with the node's bindings, the release binding last.
    #expect(editor.keyBindings.map(\.identifier.text) == ["Talk", "TalkEnd"])
  }

  @Test func releaseBindingsOfTheSameChordConflictAndSequencesCannotTakeReleases() throws {
    let (tree, editor) = try makeTree(Log())
    editor.bindKey("space", to: "TalkEnd", on: .release).bindKey("space", to: "Talk", on: [.press, .release])
    #expect(
      editor.problems.map { $0 as? ViewTreeActionsError } == [
        .keysConflict(
          keys: try KeySequence(parsing: "space"), node: "window/editor",
          bound: try KeySequence(parsing: "space"),
          identifier: "TalkEnd")
      ])
    // The refused binding recorded nothing: a press binding of space is still free.
    editor.bindKey("space", to: "Talk")
    #expect(tree.firstResponder === editor)
    #expect(editor.keyBindings.map(\.identifier.text) == ["Talk", "TalkEnd"])
    #expect(throws: ViewTreeActionsError.invalidKeyEvents(try KeySequence(parsing: "g g"), .release)) {
      try KeyBinding("g g", to: "Top", on: .release)
    }
    #expect(throws: ViewTreeActionsError.invalidKeyEvents(try KeySequence(parsing: "g"), [])) {
      try KeyBinding("g", to: "Top", on: [])
    }
  }

  @Test func aReleaseBindingOutsideAModalScopeIsInert() throws {
    let log = Log()
    let manager = ActionManager()
    try manager.register(Named(log: log, name: "TalkEnd"), as: "TalkEnd")
    let tree = NodeTree("window") { Node("dialog") { Node("field").focusable() }.focusScope(.trap) }
    tree.root.actionManager(manager).bindKey("space", to: "TalkEnd", on: .release)
    let field = tree.node(id: "field")!
    try tree.focus(field)
    field.handleKey(KeyEvent(KeyChord(.space), kind: .release))
    #expect(log.entries.isEmpty)
    tree.root.bindKey("escape", to: "TalkEnd", passesModal: true, on: .release)
    field.handleKey(KeyEvent(KeyChord(.escape), kind: .release))
    #expect(log.entries == ["TalkEnd"])
  }

  @Test func ctrlWithACyrillicLetterFiresTheBindingOfItsBaseLayoutKey() throws {
    let log = Log()
    let (tree, editor) = try makeTree(log)
    tree.root.bindKey("ctrl+c", to: "Copy")
    let event = KeyEvent(KeyChord(.character("с"), modifiers: .control), baseKey: .character("c"))
    #expect(event.alternates == [try chord("ctrl+c")])
    guard case .resolved(let binding, _) = editor.handleKey(event) else {
      Issue.record("ctrl+с did not resolve")
      return
    }
    #expect(binding.keys.description == "ctrl+c")
    #expect(log.entries == ["Copy"])
    // The reported chord comes first: a binding of ctrl+с itself wins.
    editor.bindKey(KeySequence([KeyChord(.character("с"), modifiers: .control)]), to: "Outer")
    editor.handleKey(event)
    #expect(log.entries == ["Copy", "Outer"])
  }

  @Test func explainingAnEventSaysWhichChordMatched() throws {
    let (tree, editor) = try makeTree(Log())
    tree.root.bindKey("ctrl+c", to: "Copy")
    let event = KeyEvent(KeyChord(.character("с"), modifiers: .control), baseKey: .character("c"))
    let explanation = tree.explainKey(event, at: editor)
    #expect(explanation.tried == [KeyChord(.character("с"), modifiers: .control)])
    #expect(explanation.chord == (try chord("ctrl+c")))
    #expect(explanation.winner?.binding.identifier.text == "Copy")
    #expect(explanation.description.hasPrefix("ctrl+с: no binding; ctrl+c:\n0: ctrl+c -> Copy"))
    // The reported chord, when bound, is explained with nothing tried before it.
    editor.bindKey(KeySequence([KeyChord(.character("с"), modifiers: .control)]), to: "Outer")
    #expect(tree.explainKey(event, at: editor).tried.isEmpty)
    #expect(tree.explainKey(KeyEvent(try chord("f9")), at: editor).description == "f9: no binding")
  }

  @Test func theShiftedKeyIsTriedWithShiftFoldedIn() throws {
    let log = Log()
    let (tree, editor) = try makeTree(log)
    tree.root.bindKey("!", to: "Bang")
    let event = KeyEvent(try chord("shift+1"), shiftedKey: .character("!"), baseKey: .character("1"))
    #expect(event.alternates == [try chord("!")])
    editor.handleKey(event)
    #expect(log.entries == ["Bang"])
    // A capital keeps its shift: the shifted key of shift+a is shift+a, not tried again.
    #expect(KeyEvent(try chord("shift+a"), shiftedKey: .character("A")).alternates.isEmpty)
  }

  @Test func anAlternateContinuesAPendingSequence() throws {
    let log = Log()
    let (tree, editor) = try makeTree(log)
    tree.root.bindKey("ctrl+k ctrl+c", to: "Copy")
    let cyrillic = KeyEvent(KeyChord(.character("л"), modifiers: .control), baseKey: .character("k"))
    guard case .pending = editor.handleKey(cyrillic) else {
      Issue.record("ctrl+л did not begin ctrl+k ctrl+c")
      return
    }
    editor.handleKey(KeyEvent(KeyChord(.character("с"), modifiers: .control), baseKey: .character("c")))
    #expect(log.entries == ["Copy"])
  }

  @Test func descriptionsSayTheKindAndTheAlternates() throws {
    #expect(KeyEvent(try chord("a")).description == "a")
    #expect(KeyEvent(try chord("a"), kind: .repeat).description == "a (repeat)")
    #expect(
      KeyEvent(KeyChord(.character("с"), modifiers: .control), kind: .release, baseKey: .character("c"))
        .description == "ctrl+с (release) [also ctrl+c]")
  }
}
