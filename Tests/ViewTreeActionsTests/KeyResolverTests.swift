import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

/// One answer to "what does this key do here": the press, the explanation and the lists agree,
/// and keys and text arrive in order whatever ends a pending prefix.
@Suite struct KeyResolverTests {
  struct Named: ManagedAction {
    let log: Log
    let name: String
    func perform(context: ActionContext) throws { log(name) }
  }

  /// ```
  /// window (ctrl+s Save, escape Close)
  /// └─ list (d Delete)
  ///    └─ box, focused, takes text (ctrl+x ctrl+s Save, j k Leave, escape Leave); logs what it inserts
  /// ```
  func makeTree(_ log: Log) throws -> NodeTree {
    let manager = ActionManager()
    for name in ["Save", "Delete", "Leave", "Close"] {
      try manager.register(Named(log: log, name: name), as: name)
    }
    let tree = NodeTree("window") {
      Node("list") {
        Node("box").focusable().takesText()
          .bindKey("ctrl+x ctrl+s", to: "Save").bindKey("j k", to: "Leave").bindKey("escape", to: "Leave")
          .handleAction(InsertText.self) { insert in
            log("+" + insert.text + (insert.isPaste ? " (paste)" : ""))
          }
      }
      .bindKey("d", to: "Delete")
    }
    tree.root.actionManager(manager).bindKey("ctrl+s", to: "Save")
    try tree.focus(id: "box")
    return tree
  }

  func press(_ tree: NodeTree, _ keys: String) throws {
    for chord in try KeySequence(parsing: keys).chords { tree.firstResponder.handleKey(chord) }
  }

  // MARK: What ends a pending prefix

  @Test func aTextKeyThatBreaksANonTextPrefixIsTyped() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "ctrl+x")
    let result = tree.firstResponder.handleKey(KeyChord(.character("a")))
    guard case .cancelled(_, .broken, then: .insertedText(let insert, _)?) = result else {
      Issue.record("ctrl+x a: \(result)")
      return
    }
    #expect(insert == InsertText("a"))
    #expect(log.entries == ["+a"])
  }

  @Test func escapeAtATextPrefixTypesThePrefixThenRunsEscapesBinding() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "j escape")
    #expect(log.entries == ["+j", "Leave"])
    #expect(tree.pendingKeys == nil)
  }

  @Test func escapeAtAPrefixThatIsNotTextOnlyCancels() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "ctrl+x")
    let result = tree.firstResponder.handleKey(KeyChord(.escape))
    guard case .cancelled(_, .escape, then: nil) = result else {
      Issue.record("ctrl+x escape: \(result)")
      return
    }
    #expect(log.entries.isEmpty)
  }

  @Test func aPasteSettlesThePendingPrefixFirst() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "j")
    tree.firstResponder.insertText("zz", isPaste: true)
    #expect(tree.pendingKeys == nil)
    try press(tree, "k")
    // The j is typed before the paste, and k after it is only a k: `j k` did not run.
    #expect(log.entries == ["+j", "+zz (paste)", "+k"])
  }

  @Test func aCommitAndACompositionSettleThePendingPrefixFirst() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "j")
    tree.firstResponder.insertText("你")
    #expect(log.entries == ["+j", "+你"])
    try press(tree, "j")
    tree.firstResponder.updateComposition("n")
    #expect(log.entries == ["+j", "+你", "+j"])
    #expect(tree.pendingKeys == nil)
  }

  @Test func aNonTextPrefixIsCancelledByAPaste() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "ctrl+x")
    tree.firstResponder.insertText("zz", isPaste: true)
    try press(tree, "ctrl+s")
    // ctrl+s after the paste is the window's, not the end of ctrl+x ctrl+s.
    #expect(log.entries == ["+zz (paste)", "Save"])
  }

  // MARK: Text

  @Test func aShiftedDigitWithNoShiftedKeyTypesNothing() throws {
    let log = Log()
    let tree = try makeTree(log)
    let result = tree.firstResponder.handleKey(try KeyChord(parsing: "shift+1"))
    guard case .unbound = result else {
      Issue.record("shift+1: \(result)")
      return
    }
    // With the shifted key reported, it types it.
    tree.firstResponder.handleKey(KeyEvent(try KeyChord(parsing: "shift+1"), shiftedKey: .character("!")))
    #expect(log.entries == ["+!"])
  }

  @Test func insertTextDescribesControlCharactersEscaped() {
    #expect(InsertText("a\r\nb\u{1B}", isPaste: true).description == #"paste "a\r\nb\u{1B}""#)
    #expect(InsertText("ok").description == #"insert "ok""#)
  }

  // MARK: Keymap files

  @Test(arguments: ["\r\n", "\r", "\n"])
  func aKeymapFileReadsWithAnyLineEnding(_ ending: String) {
    let lines = ["# user keymap", "ctrl+s = Save", "[Editor]", "f2 = Find", "f3 = Top"]
    let keymap = Keymap(parsing: lines.joined(separator: ending) + ending, source: "user.keymap")
    #expect(keymap.issues.isEmpty)
    #expect(keymap.entries.map(\.description) == ["ctrl+s = Save", "f2 = Find", "f3 = Top"])
    #expect(keymap.entries.map(\.source) == ["user.keymap:2", "user.keymap:4", "user.keymap:5"])
  }

  @Test func commentsMayFollowEntriesAndSectionHeaders() {
    let keymap = Keymap(
      parsing: """
        ctrl+s = Save                     # no section yet
        [Editor && mode == insert]        # a section
        alt+b = null                      # a block
        unbind ctrl+w = CloseTab          # an unbind
        priority ctrl+q = Quit            # a priority binding
        f5 = Find(text: "a # b")          # a '#' in quotes is text
        shift+3 = Hash
        g # = Jump # the key '#'
        []                                # back to no predicate
        """, source: "user.keymap")
    #expect(keymap.issues.map(\.description) == [])
    #expect(
      keymap.entries.map(\.description) == [
        "ctrl+s = Save", "alt+b = null", "unbind ctrl+w = CloseTab", "priority ctrl+q = Quit",
        #"f5 = Find(text: "a # b")"#, "shift+3 = Hash", "g # = Jump",
      ])
    #expect(keymap.entries[1].predicate?.description == "Editor && mode == insert")
  }

  @Test func aPriorityEntryWinsItsConflictWhateverItsPlace() throws {
    let keymap = Keymap(
      parsing: """
        priority ctrl+q = Quit
        ctrl+q = Other
        [Editor]
        ctrl+q = Editor
        f2 = Save
        []
        priority f2 = Top
        """, source: "user.keymap")
    let conflicts = keymap.conflicts()
    #expect(
      conflicts.map(\.description) == [
        "user.keymap:1 and user.keymap:2: ctrl+q is bound twice where both apply (any context): user.keymap:1 wins (priority)",
        "user.keymap:1 and user.keymap:4: ctrl+q is bound twice where both apply (Editor): user.keymap:1 wins (priority)",
        "user.keymap:5 and user.keymap:7: f2 is bound twice where both apply (Editor): user.keymap:7 wins (priority)",
      ])
    #expect(conflicts.map(\.winner.source) == ["user.keymap:1", "user.keymap:1", "user.keymap:7"])
  }
}
