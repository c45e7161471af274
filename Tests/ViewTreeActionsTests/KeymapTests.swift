import Actions
import Foundation
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

/// Key contexts, predicates, keymap layers, removal, the file format and explain.
@Suite struct KeymapTests {
  struct Named: ManagedAction {
    let log: Log
    let name: String
    func perform(context: ActionContext) throws { log(name) }
  }

  static let names = [
    "Save", "SaveAll", "Quit", "Delete", "ListDelete", "Bold", "Top", "Find", "Close", "Insert",
  ]

  /// ```
  /// window (Workspace)
  /// ├─ list (List)
  /// │  └─ row
  /// └─ panel
  ///    └─ editor (Editor mode=insert)
  /// ```
  func makeTree(_ log: Log) throws -> NodeTree {
    let manager = ActionManager()
    for name in Self.names { try manager.register(Named(log: log, name: name), as: name) }
    let tree = NodeTree("window") {
      Node("list") { Node("row").focusable() }.keyContext("List")
      Node("panel") {
        Node("editor").focusable().keyContext("Editor mode=insert").bindKey("ctrl+s", to: "Save")
      }
    }
    tree.root.actionManager(manager).keyContext("Workspace")
    return tree
  }

  func chord(_ text: String) throws -> KeyChord { try KeyChord(parsing: text) }

  // MARK: Contexts

  @Test func contextsParseNamesAndPairs() throws {
    let context = try KeyContext(parsing: "  Editor mode=insert   read-only ")
    #expect(context.contains("Editor"))
    #expect(context.contains("mode"))
    #expect(context["mode"] == "insert")
    #expect(context["Editor"] == nil)
    #expect(!context.contains("insert"))
    #expect(context.description == "Editor mode=insert read-only")
    #expect(try KeyContext(parsing: "").description == "")
  }

  @Test(arguments: [
    ("=x", 0, InvalidKeyContext.expectedName),
    ("mode=", 5, .expectedValue(key: "mode")),
    ("a b a", 4, .duplicateName("a")),
    ("a=b=c", 3, .invalidCharacter("=")),
    ("Edit(or)", 4, .invalidCharacter("(")),
    ("a !b", 2, .invalidCharacter("!")),
  ])
  func malformedContextsAreErrorsWithACaret(text: String, offset: Int, reason: InvalidKeyContext) {
    #expect(throws: ParseError<InvalidKeyContext>(text: text, offset: offset, reason: reason)) {
      try KeyContext(parsing: text)
    }
  }

  @Test func aMalformedContextIsReportedAndNotDeclared() throws {
    let tree = NodeTree("window") { Node("editor").keyContext("Editor") }
    var reported: [String] = []
    tree.onProblem = { problem, node in reported.append("\(node.path): \(problem)") }
    let editor = tree.node(id: "editor")!
    editor.keyContext("mode=")
    // The context declared before stays.
    #expect(editor.keyContext?.description == "Editor")
    #expect(
      editor.problems.map { $0 as? ViewTreeActionsError } == [
        .invalidKeyContext(ParseError(text: "mode=", offset: 5, reason: .expectedValue(key: "mode")))
      ])
    #expect(reported.count == 1)
    tree.root.keyContext("Workspace")
    #expect(editor.keyContextStack.map(\.description) == ["Workspace", "Editor"])
  }

  // MARK: Predicates

  func level(_ predicate: String, _ stack: [String]) throws -> Int? {
    try KeyPredicate(parsing: predicate).matchLevel(in: stack.map { try KeyContext(parsing: $0) })
  }

  @Test func predicatesMatchAtTheDeepestLevelWhereTheyHold() throws {
    let stack = ["Workspace", "Pane", "Editor mode=insert", "Picker"]
    #expect(try level("Editor", stack) == 2)
    #expect(try level("Workspace", stack) == 0)
    #expect(try level("Missing", stack) == nil)
    #expect(try level("mode == insert", stack) == 2)
    #expect(try level("mode == normal", stack) == nil)
    #expect(try level("mode != normal", stack) == 2)
    // `!=` holds only where the key has another value.
    #expect(try level("mode != insert", stack) == nil)
    #expect(try level("Editor && mode == insert", stack) == 2)
    // `&&` holds at one level: no level is both.
    #expect(try level("Editor && Pane", stack) == nil)
    #expect(try level("Editor || Pane", stack) == 2)
    // `!p`: no level matches p, then every level.
    #expect(try level("!Terminal", stack) == 3)
    #expect(try level("!Editor", stack) == nil)
    #expect(try level("Pane && !Terminal", stack) == 1)
    // `p > q`: q at the level, p above it.
    #expect(try level("Workspace > Editor", stack) == 2)
    #expect(try level("Editor > Workspace", stack) == nil)
    #expect(try level("Editor > Picker", stack) == 3)
    #expect(try level("Picker > Picker", stack) == nil)
    #expect(try level("Workspace > Pane > Editor", stack) == 2)
    #expect(try level("(Pane || Editor) && !Missing", stack) == 2)
    #expect(try level("Editor", []) == nil)
  }

  @Test func predicatesPrintWithTheParenthesesTheirStructureNeeds() throws {
    for (text, printed) in [
      ("a && b || c", "a && b || c"), ("a && (b || c)", "a && (b || c)"), ("(a && b) || c", "a && b || c"),
      ("!(a || b)", "!(a || b)"), ("!!a", "!!a"), ("a > b > c", "a > b > c"), ("a > (b > c)", "a > (b > c)"),
      ("x==1&&y!=2", "x == 1 && y != 2"),
      ("Workspace > Editor && mode == insert", "Workspace > Editor && mode == insert"),
    ] {
      let predicate = try KeyPredicate(parsing: text)
      #expect(predicate.description == printed)
      // What it prints reads back to the same predicate.
      #expect(try KeyPredicate(parsing: predicate.description) == predicate)
    }
  }

  @Test(arguments: [
    ("", 0, InvalidKeyPredicate.expectedOperand),
    ("a &&", 4, .expectedOperand),
    ("a & b", 2, .expectedOperator),
    ("a b", 2, .expectedOperator),
    ("(a", 0, .unclosedParenthesis),
    ("a)", 1, .unbalancedParenthesis),
    ("a == ", 5, .expectedValue),
    ("a = b", 2, .expectedOperator),
    ("a @ b", 2, .expectedOperator),
    ("@a", 0, .invalidCharacter("@")),
    ("&& a", 0, .expectedOperand),
    ("a == (b)", 5, .expectedValue),
  ])
  func malformedPredicatesAreErrorsWithACaret(text: String, offset: Int, reason: InvalidKeyPredicate) {
    #expect(throws: ParseError<InvalidKeyPredicate>(text: text, offset: offset, reason: reason)) {
      try KeyPredicate(parsing: text)
    }
  }

  @Test func aPredicateNestedTenThousandDeepIsRefusedWithoutRecursion() throws {
    for text in [
      String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000),
      String(repeating: "!", count: 10_000) + "a",
    ] {
      #expect(throws: ParseError<InvalidKeyPredicate>.self) { try KeyPredicate(parsing: text) }
      do throws(ParseError<InvalidKeyPredicate>) {
        _ = try KeyPredicate(parsing: text)
      } catch {
        #expect(error.reason == .nestedTooDeep)
        #expect(error.offset == KeyPredicate.maximumNesting)
      }
    }
    // Long flat predicates are not nesting: 10,000 terms read, match and print.
    let flat = (0..<10_000).map { "a\($0)" }.joined(separator: " || ")
    let predicate = try KeyPredicate(parsing: flat)
    #expect(predicate.matchLevel(in: [try KeyContext(parsing: "a9999")]) == 0)
    #expect(predicate.description == flat)
  }

  @Test func aMillionLevelsMatchInOnePass() throws {
    let stack =
      Array(repeating: try KeyContext(parsing: "Pane"), count: 1_000_000) + [
        try KeyContext(parsing: "Editor")
      ]
    #expect(try KeyPredicate(parsing: "Pane > Editor && !Missing").matchLevel(in: stack) == 1_000_000)
    #expect(try KeyPredicate(parsing: "Editor > Pane").matchLevel(in: stack) == nil)
  }

  // MARK: Layers and precedence

  @Test func aContextualUserBindingOverridesANodesBindingAtItsDepth() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "editor")
    // No context: matches at the root, below the editor's own binding.
    tree.userKeymap = Keymap(parsing: "ctrl+s = SaveAll")
    tree.firstResponder.handleKey(try chord("ctrl+s"))
    #expect(log.entries == ["Save"])
    // In the editor's context: the same depth, a higher layer.
    tree.userKeymap = Keymap(parsing: "[Editor]\nctrl+s = SaveAll")
    tree.firstResponder.handleKey(try chord("ctrl+s"))
    #expect(log.entries == ["Save", "SaveAll"])
    // The explanation says so.
    let explanation = tree.explainKey(try chord("ctrl+s"), at: tree.firstResponder)
    #expect(explanation.candidates.count == 2)
    #expect(explanation.winner?.binding.identifier.text == "SaveAll")
    #expect(explanation.winner?.binding.layer == .user)
    #expect(explanation.winner?.source == "keymap:2")
    #expect(explanation.candidates[1].verdict == .shadowed(by: 0, because: .higherLayer))
    #expect(explanation.candidates[1].binding.layer == .nodes)
  }

  @Test func theSameKeyDoesDifferentThingsByContext() throws {
    let log = Log()
    let tree = try makeTree(log)
    tree.toolkitKeymap = Keymap(
      parsing: """
        d = Delete
        [List]
        d = ListDelete
        [Editor && mode == insert]
        d = Insert
        """)
    try tree.focus(id: "row")
    tree.firstResponder.handleKey(try chord("d"))
    try tree.focus(id: "editor")
    tree.firstResponder.handleKey(try chord("d"))
    tree.root.keyContext("Other")
    try tree.focus(id: "editor")
    tree.node(id: "editor")!.keyContext("Editor mode=normal")
    tree.firstResponder.handleKey(try chord("d"))
    #expect(log.entries == ["ListDelete", "Insert", "Delete"])
  }

  @Test func laterDeclarationsWinTiesWithinALayer() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "row")
    tree.userKeymap = Keymap(parsing: "f2 = Find\nf2 = Close")
    tree.firstResponder.handleKey(try chord("f2"))
    #expect(log.entries == ["Close"])
    let explanation = tree.explainKey(try chord("f2"), at: tree.firstResponder)
    #expect(explanation.candidates.map(\.verdict) == [.wins, .shadowed(by: 0, because: .declaration)])
  }

  @Test func aPriorityBindingResolvesBeforeTheFocusAndInsideAModal() throws {
    let log = Log()
    let tree = try makeTree(log)
    tree.node(id: "list")!.focusScope(.trap)
    try tree.focus(id: "row")
    tree.node(id: "row")!.bindKey("ctrl+q", to: "Delete")
    tree.userKeymap = Keymap(parsing: "priority ctrl+q = Quit\nf3 = Find")
    tree.firstResponder.handleKey(try chord("ctrl+q"))
    // Not a priority binding: matched at the root, outside the modal list.
    tree.firstResponder.handleKey(try chord("f3"))
    #expect(log.entries == ["Quit"])
    #expect(tree.explainKey(try chord("f3"), at: tree.firstResponder).candidates.map(\.verdict) == [.inert])
  }

  @Test func anEntryMatchedOnTheModalScopeTakesTheKeyAndOneAboveItIsInert() throws {
    let log = Log()
    let tree = try makeTree(log)
    tree.node(id: "list")!.focusScope(.trap)
    try tree.focus(id: "row")
    // `List` is the trap's own context: inside the modal scope. `Workspace` is the root's.
    tree.userKeymap = Keymap(parsing: "[List]\nf4 = Find\n[Workspace]\nf4 = Close\nf5 = Close")
    tree.firstResponder.handleKey(try chord("f4"))
    tree.firstResponder.handleKey(try chord("f5"))
    #expect(log.entries == ["Find"])
    #expect(
      tree.explainKey(try chord("f4"), at: tree.firstResponder).candidates.map(\.verdict) == [.wins, .inert])
  }

  // MARK: Removal

  @Test func aBlockMakesAKeyDoNothingAtItsContextAndBelowSequencesIncluded() throws {
    let log = Log()
    let tree = try makeTree(log)
    tree.root.bindKey("ctrl+k ctrl+s", to: "SaveAll").bindKey("alt+b", to: "Bold")
    tree.userKeymap = Keymap(parsing: "[Editor]\nctrl+k = null\nalt+b = null\nctrl+s = null")
    try tree.focus(id: "editor")
    #expect(tree.firstResponder.resolveKey(try chord("alt+b")).isUnbound)
    #expect(tree.firstResponder.resolveKey(try chord("ctrl+k")).isUnbound)
    // The block is at the editor's depth: it also hides the editor's own ctrl+s (a higher layer).
    #expect(tree.firstResponder.resolveKey(try chord("ctrl+s")).isUnbound)
    let explanation = tree.explainKey(try chord("ctrl+k"), at: tree.firstResponder)
    #expect(explanation.winner?.isBlock == true)
    #expect(explanation.candidates[1].verdict == .blocked(by: 0))
    // Outside the context the bindings work.
    try tree.focus(id: "row")
    tree.firstResponder.handleKey(try chord("alt+b"))
    #expect(log.entries == ["Bold"])
    // Nothing offers a blocked key.
    try tree.focus(id: "editor")
    let offered = tree.firstResponder.bindingsInEffect(includingShadowed: false).map {
      $0.keys?.description ?? ""
    }
    #expect(!offered.contains("alt+b"))
  }

  @Test func anUnbindFiltersOnePairAndResolutionGoesOnPastIt() throws {
    let log = Log()
    let tree = try makeTree(log)
    tree.root.bindKey("ctrl+s", to: "SaveAll")
    try tree.focus(id: "editor")
    tree.userKeymap = Keymap(parsing: "unbind ctrl+s = Save")
    tree.firstResponder.handleKey(try chord("ctrl+s"))
    #expect(log.entries == ["SaveAll"])
    let explanation = tree.explainKey(try chord("ctrl+s"), at: tree.firstResponder)
    #expect(explanation.candidates.map(\.verdict) == [.filtered(by: "keymap:1"), .wins])
    // Another identifier on the same keys is not filtered; nor is the pair outside the context.
    tree.userKeymap = Keymap(parsing: "unbind ctrl+s = Close\n[List]\nunbind ctrl+s = Save")
    tree.firstResponder.handleKey(try chord("ctrl+s"))
    #expect(log.entries == ["SaveAll", "Save"])
  }

  // MARK: Fall-through

  struct Gated: ManagedAction {
    let log: Log
    let validation: Validation
    func validate(context: ActionContext) -> Validation { validation }
    func perform(context: ActionContext) throws { log("Gated") }
  }

  @Test func anUnavailableBindingPassesTheKeyOnADisabledOneStops() throws {
    let log = Log()
    let tree = try makeTree(log)
    let manager = try #require(tree.root.attachedActionManager)
    try manager.register(Gated(log: log, validation: .unavailable), as: "Hidden")
    try manager.register(Gated(log: log, validation: .disabled), as: "Shown")
    try tree.focus(id: "editor")
    // Unknown to the manager, then hidden by its validation: the key goes on to the editor's Save.
    for identifier in ["NotRegistered", "Hidden"] {
      tree.userKeymap = Keymap(parsing: "[Editor]\nctrl+s = \(identifier)")
      guard case .resolved(let binding, let result) = tree.firstResponder.handleKey(try chord("ctrl+s"))
      else {
        Issue.record("ctrl+s did not resolve")
        return
      }
      #expect(binding.layer == .nodes)
      #expect(result.answer?.isPerformed == true)
    }
    #expect(log.entries == ["Save", "Save"])
    // Disabled but shown: the key stops there.
    tree.userKeymap = Keymap(parsing: "[Editor]\nctrl+s = Shown")
    guard case .resolved(let binding, let result) = tree.firstResponder.handleKey(try chord("ctrl+s")) else {
      Issue.record("ctrl+s did not resolve")
      return
    }
    #expect(binding.identifier.text == "Shown")
    #expect(result.answer?.isPerformed == false)
    // A block of the same keys between them stops the fall-through.
    tree.userKeymap = Keymap(parsing: "[Editor]\nctrl+s = NotRegistered")
    tree.toolkitKeymap = Keymap(parsing: "[Editor]\nctrl+s = null")
    guard case .resolved(let stopped, _) = tree.firstResponder.handleKey(try chord("ctrl+s")) else {
      Issue.record("ctrl+s did not resolve")
      return
    }
    #expect(stopped.identifier.text == "NotRegistered")
    #expect(log.entries == ["Save", "Save"])
    // Without the block, it falls through to the editor's Save, as the explanation says.
    tree.toolkitKeymap = nil
    tree.firstResponder.handleKey(try chord("ctrl+s"))
    #expect(log.entries == ["Save", "Save", "Save"])
    let explanation = tree.explainKey(try chord("ctrl+s"), at: tree.firstResponder)
    #expect(explanation.candidates.map(\.verdict) == [.unavailable, .wins])
    #expect(explanation.winner?.binding.layer == .nodes)
    tree.userKeymap = Keymap(parsing: "[Editor]\nctrl+s = Shown")
    #expect(
      tree.explainKey(try chord("ctrl+s"), at: tree.firstResponder).candidates.map(\.verdict) == [
        .disabled, .shadowed(by: 0, because: .higherLayer),
      ])
    #expect(log.entries == ["Save", "Save", "Save"])
  }

  @Test func aTreeWithAKeymapIsFreedAfterItsKeyPresses() throws {
    var tree: NodeTree? = try makeTree(Log())
    tree!.userKeymap = Keymap(parsing: "[Editor]\nctrl+s = SaveAll\n[List]\ng g = Top")
    try tree!.focus(id: "editor")
    tree!.firstResponder.handleKey(try chord("ctrl+s"))
    tree!.firstResponder.handleKey(try chord("g"))
    _ = tree!.explainKey(try chord("ctrl+s"), at: tree!.firstResponder)
    weak let root = tree!.root
    weak let editor = tree!.node(id: "editor")
    tree = nil
    #expect(root == nil)
    #expect(editor == nil)
  }

  // MARK: Sequences from keymaps

  @Test func aKeymapSequenceWaitsAndCompletes() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "row")
    tree.toolkitKeymap = Keymap(parsing: "g g = Top\n[List]\ng d = ListDelete")
    guard case .pending(let pending) = tree.firstResponder.handleKey(try chord("g")) else {
      Issue.record("g did not wait")
      return
    }
    #expect(Set(pending.continuations.map(\.keys.description)) == ["g g", "g d"])
    tree.firstResponder.handleKey(try chord("d"))
    tree.firstResponder.handleKey(try chord("g"))
    tree.firstResponder.handleKey(try chord("g"))
    #expect(log.entries == ["ListDelete", "Top"])
  }

  // MARK: The file format

  @Test func aKeymapFileKeepsItsGoodLinesAndReportsEachBadOne() throws {
    let text = """
      # a comment
      ctrl+s = Save
      [Editor && mode == insert]
      ctrl+= = Find
      ctrl+xyz = Save
      alt+b = null
      unbind ctrl+w = Close
      priority ctrl+q = Quit
      f2 = Save(
      f3
      [Editor &&]
      f4 = Save
      []
      f5 = Top
      unbind f6 = null
      """
    let keymap = Keymap(parsing: text, source: "user.keymap")
    #expect(
      keymap.entries.map(\.description) == [
        "ctrl+s = Save", "ctrl+= = Find", "alt+b = null", "unbind ctrl+w = Close", "priority ctrl+q = Quit",
        "f5 = Top",
      ])
    #expect(keymap.entries[1].predicate?.description == "Editor && mode == insert")
    #expect(keymap.entries[0].predicate == nil)
    #expect(keymap.entries[5].predicate == nil)
    #expect(keymap.entries[1].source == "user.keymap:4")
    #expect(keymap.issues.map(\.line) == [5, 9, 10, 11, 12, 15])
    #expect(keymap.issues.map(\.column) == [6, 11, 3, 11, 1, 13])
    #expect(
      keymap.issues[0].description == """
        user.keymap:5:6: invalid key chord: 'xyz' is not a key
          ctrl+xyz = Save
               ^
        """)
    #expect(keymap.issues[3].reason.contains("invalid key predicate"))
    #expect(keymap.issues[4].reason.contains("line 11"))
    // What a keymap prints reads back to the same entries.
    let reread = Keymap(parsing: keymap.description, source: "user.keymap")
    #expect(reread.issues.isEmpty)
    #expect(reread.entries.map(\.description) == keymap.entries.map(\.description))
    #expect(reread.entries.map(\.predicate) == keymap.entries.map(\.predicate))
  }

  @Test func keysThatHoldTheEqualsKeySplitWhereBothSidesRead() throws {
    let keymap = Keymap(
      parsing: """
        ctrl+k = = Find
        = = Top
        = = = Close
        a = Insert(text: " = ")
        ctrl+= = = Save
        """)
    #expect(keymap.issues.isEmpty)
    #expect(keymap.entries.map(\.keys.description) == ["ctrl+k =", "=", "= =", "a", "ctrl+= ="])
    #expect(
      keymap.entries.map(\.description) == [
        "ctrl+k = = Find", "= = Top", "= = = Close", #"a = Insert(text: " = ")"#, "ctrl+= = = Save",
      ])
    let reread = Keymap(parsing: keymap.description)
    #expect(
      reread.entries
        == keymap.entries.map { entry in
          var entry = entry
          entry.source = "keymap:\(keymap.entries.firstIndex(of: entry)! + 1)"
          return entry
        })
  }

  @Test func unknownActionsAreReportedWhereTheyAreWritten() throws {
    let log = Log()
    let tree = try makeTree(log)
    let manager = try #require(tree.root.attachedActionManager)
    let keymap = Keymap(
      parsing:
        "ctrl+s = Save\n[Editor]\nf2 = menu.Publish(draft: true)\ntab = focus.Next\nf3 = null\nunbind f4 = Gone",
      source: "user.keymap")
    #expect(
      keymap.unknownActions(in: manager).map(\.description) == [
        """
        user.keymap:3:6: unknown action 'Publish': the manager registers no action by that name
          f2 = menu.Publish(draft: true)
               ^
        """,
        """
        user.keymap:6:13: unknown action 'Gone': the manager registers no action by that name
          unbind f4 = Gone
                      ^
        """,
      ])
    // The entries stay: bound to an unknown action, a key falls through.
    #expect(keymap.entries.count == 5)
    let built = Keymap(keymap.entries)
    #expect(built.unknownActions(in: manager).map(\.source) == ["user.keymap:3", "user.keymap:6"])
  }

  @Test func aPressEntryTakesThePressAndNotItsRepeats() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "row")
    let keymap = Keymap(
      parsing: "press f6 = Find\npriority press f7 = Close\nf8 = Close", source: "user.keymap")
    #expect(keymap.issues.isEmpty)
    #expect(
      keymap.entries.map(\.description) == ["press f6 = Find", "priority press f7 = Close", "f8 = Close"])
    #expect(keymap.entries.map(\.repeats) == [false, false, true])
    tree.userKeymap = keymap
    let row = tree.firstResponder
    for text in ["f6", "f7", "f8"] {
      let chord = try chord(text)
      row.handleKey(KeyEvent(chord))
      let repeated = row.handleKey(KeyEvent(chord, kind: .repeat))
      let didNothing = if case .unbound = repeated { true } else { false }
      #expect(didNothing == (text != "f8"), "the repeat of \(text): \(repeated)")
    }
    // The press of each, then the repeat of f8 alone.
    #expect(log.entries == ["Find", "Close", "Close", "Close"])
  }

  @Test func aRepeatDoesNotFallThroughToABindingOfThePressAlone() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "row")
    // No manager performs `Unknown`: ctrl+d falls through to the toolkit's binding, which takes
    // the press alone.
    tree.toolkitKeymap = Keymap(parsing: "press ctrl+d = Find", source: "toolkit.keymap")
    tree.userKeymap = Keymap(parsing: "ctrl+d = Unknown", source: "user.keymap")
    let chord = try chord("ctrl+d")
    tree.firstResponder.handleKey(KeyEvent(chord))
    tree.firstResponder.handleKey(KeyEvent(chord, kind: .repeat))
    tree.firstResponder.handleKey(KeyEvent(chord, kind: .repeat))
    #expect(log.entries == ["Find"])
  }

  @Test func pressIsForABindingThatPerforms() {
    let keymap = Keymap(parsing: "press f6 = null\npress unbind f7 = Close\nunbind press f8 = Close")
    #expect(keymap.entries.isEmpty)
    #expect(keymap.issues.map(\.line) == [1, 2, 3])
    #expect(keymap.issues[0].reason.contains("'press' is for a binding that performs an action"))
  }

  @Test func entriesAreCodable() throws {
    let keymap = Keymap(
      parsing:
        "ctrl+s = Save\n[Editor]\nalt+b = null\nunbind ctrl+w = Close\npriority f1 = Quit\npress j = Down")
    #expect(keymap.entries.last?.repeats == false)
    let data = try JSONEncoder().encode(keymap.entries)
    let decoded = try JSONDecoder().decode([KeymapEntry].self, from: data)
    #expect(decoded == keymap.entries)
    let written = #"[{"keys": "ctrl+k ctrl+s", "context": "Editor > Picker", "action": "SaveAll"}]"#
    let entries = try JSONDecoder().decode([KeymapEntry].self, from: Data(written.utf8))
    #expect(entries.map(\.description) == ["ctrl+k ctrl+s = SaveAll"])
    #expect(entries[0].predicate?.description == "Editor > Picker")
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([KeymapEntry].self, from: Data(#"[{"keys": "ctrl+", "action": "X"}]"#.utf8))
    }
    // The press alone is for an entry that performs an action.
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        [KeymapEntry].self, from: Data(#"[{"keys": "x", "action": null, "repeats": false}]"#.utf8))
    }
  }

  @Test func overridesSayWhichLinesTakeKeysFromLowerLayers() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "editor")
    tree.toolkitKeymap = Keymap(parsing: "f2 = Find\nctrl+w = Close", source: "toolkit.keymap")
    tree.userKeymap = Keymap(
      parsing: "[Editor]\nctrl+s = SaveAll\nf2 = Close\nunbind ctrl+w = Close\n[List]\nalt+x = null",
      source: "user.keymap")
    let overrides = tree.keymapOverrides()
    // By chord: the editor's own ctrl+s, the toolkit's ctrl+w (unbound) and f2. The block matches
    // only in the list, and takes nothing at the editor.
    #expect(overrides.map(\.source) == ["user.keymap:2", "user.keymap:4", "user.keymap:3"])
    #expect(overrides.map(\.layer) == [.user, .user, .user])
    #expect(overrides.map(\.binding.binding.layer) == [.nodes, .toolkit, .toolkit])
    #expect(
      overrides.map(\.binding.verdict) == [
        .shadowed(by: 0, because: .higherLayer), .filtered(by: "user.keymap:4"),
        .shadowed(by: 0, because: .deeper),
      ])
    #expect(overrides[0].description == "user.keymap:2 takes \(overrides[0].binding)")
    // In the list, the block matches but takes nothing (nothing lower binds alt+x), and the
    // Editor section, the unbind included, does not match.
    try tree.focus(id: "row")
    #expect(tree.keymapOverrides().isEmpty)
    tree.node(id: "list")!.bindKey("alt+x", to: "Bold")
    #expect(
      tree.keymapOverrides().map(\.description) == [
        "user.keymap:6 takes alt+x -> Bold [nodes on window/list, depth 1]: blocked by 0"
      ])
  }

  // MARK: Conflicts

  @Test func conflictsAreFoundByMeaningNotByText() throws {
    let keymap = Keymap(
      parsing: """
        ctrl+s = Save
        ctrl+s = SaveAll
        [Editor]
        ctrl+k = Find
        [mode == insert && Editor]
        ctrl+k ctrl+s = Save
        [mode == normal]
        ctrl+k ctrl+s = Close
        [List || Tree]
        f2 = Top
        [List && !Editor]
        f2 = Close
        [List > Row]
        f3 = Top
        [Row]
        f3 = Close
        [a == 1]
        f4 = Top
        [a == 2]
        f4 = Close
        """, source: "user.keymap")
    #expect(keymap.issues.isEmpty)
    let found = keymap.conflicts().map { ($0.first.source, $0.second.source, $0.kind, $0.certainty) }
    #expect(found.count == 5)
    #expect(found.contains { $0 == ("user.keymap:1", "user.keymap:2", .sameKeys, .certain) })
    #expect(found.contains { $0 == ("user.keymap:4", "user.keymap:6", .prefix, .certain) })
    #expect(found.contains { $0 == ("user.keymap:4", "user.keymap:8", .prefix, .certain) })
    #expect(found.contains { $0 == ("user.keymap:10", "user.keymap:12", .sameKeys, .certain) })
    #expect(found.contains { $0 == ("user.keymap:14", "user.keymap:16", .sameKeys, .possible) })
    // Not a conflict: insert and normal never hold at once, nor a == 1 and a == 2, and a binding
    // without a predicate is meant to be overridden.
    #expect(!found.contains { $0.0 == "user.keymap:6" && $0.1 == "user.keymap:8" })
    #expect(!found.contains { $0.0 == "user.keymap:18" })
    let certain = try #require(
      keymap.conflicts().first { $0.first.source == "user.keymap:4" && $0.second.source == "user.keymap:6" })
    #expect(certain.example?.description == "Editor mode=insert")
    #expect(
      certain.description
        == "user.keymap:4 and user.keymap:6: ctrl+k and ctrl+k ctrl+s overlap where both apply (Editor mode=insert): the later wins"
    )
    // Copies are each reported once, against the first.
    let copies = Keymap(parsing: String(repeating: "[Editor]\nf5 = Top\n", count: 1_000))
    #expect(copies.conflicts().count == 999)
  }

  // MARK: Display

  @Test func rebindingMovesTheShownKey() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "editor")
    tree.userKeymap = Keymap(parsing: "unbind ctrl+s = Save\n[Editor]\nf2 = Save")
    let shown = tree.firstResponder.bindingsInEffect(includingShadowed: false)
      .filter { $0.identifier == "Save" }.map { $0.keys?.description ?? "" }
    #expect(shown == ["f2"])
  }

  // MARK: Hostile input

  @Test func aMegabyteOfGarbageIsReportedLineByLine() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<1_000_000).map { _ in UInt8.random(in: 0...127, using: &generator) }
    let keymap = Keymap(parsing: String(decoding: bytes, as: UTF8.self))
    // Lines end at LF, CR or CRLF.
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
      .count
    #expect(keymap.issues.count + keymap.entries.count <= lines)
  }

  /// A chain `depth` nodes deep, each with a context, the leaf an editor, with a user keymap whose
  /// bindings match at the leaf, at every level, and nowhere.
  func resolvesThroughContexts(depth: Int) throws {
    let log = Log()
    let manager = ActionManager()
    for name in Self.names { try manager.register(Named(log: log, name: name), as: name) }
    var top = Node("leaf").focusable().keyContext("Editor mode=insert")
    for level in 1..<depth {
      let child = top
      top = Node { child }.keyContext(level % 2 == 0 ? "Pane" : "Pane mode=normal")
    }
    let tree = try NodeTree(root: top.actionManager(manager))
    try tree.focus(id: "leaf")
    tree.userKeymap = Keymap(
      parsing:
        "[Pane > Editor && mode == insert]\nctrl+s = Save\n[Pane && !Missing]\nctrl+s = Close\n[Missing]\nctrl+s = Quit"
    )
    tree.firstResponder.handleKey(try chord("ctrl+s"))
    #expect(log.entries == ["Save"])
    let explanation = tree.explainKey(try chord("ctrl+s"), at: tree.firstResponder)
    #expect(explanation.candidates.map(\.binding.identifier.text) == ["Save", "Close"])
    #expect(explanation.candidates.map(\.depth) == [depth - 1, depth - 2])
  }

  @Test func tenThousandContextsOnAPathResolve() throws { try resolvesThroughContexts(depth: 10_000) }

  @Test(.stress) func aMillionContextsOnAPathResolve() throws {
    try resolvesThroughContexts(depth: 1_000_000)
  }

  @Test func everyKeyBlockedLeavesNothingBound() throws {
    let log = Log()
    let tree = try makeTree(log)
    let keys =
      (UInt8(ascii: "a")...UInt8(ascii: "z")).map { "\(Character(UnicodeScalar($0))) = null" }
      + ["ctrl+s = null", "tab = null", "shift+tab = null", "enter = null"]
    tree.userKeymap = Keymap(parsing: "[Workspace]\n" + keys.joined(separator: "\n"))
    try tree.focus(id: "editor")
    // The editor's own ctrl+s is deeper than the root's context: it still wins.
    #expect(!tree.firstResponder.resolveKey(try chord("ctrl+s")).isUnbound)
    #expect(tree.firstResponder.resolveKey(try chord("tab")).isUnbound)
    #expect(tree.firstResponder.resolveKey(try chord("q")).isUnbound)
    #expect(
      tree.firstResponder.bindingsInEffect(includingShadowed: false).map { $0.keys?.description ?? "" } == [
        "ctrl+s"
      ])
  }

  @Test func aHundredThousandBindingsInOneLayerResolveByTheirChord() throws {
    let log = Log()
    let tree = try makeTree(log)
    let entries = (0..<100_000).map { index in
      KeymapEntry(
        KeySequence([
          KeyChord(.function(index % 24 + 1)), KeyChord(.character(Character(String(index % 10)))),
        ]),
        .perform(try! ActionIdentifier(parsing: "Find")), when: try! KeyPredicate(parsing: "Editor"))
    }
    tree.toolkitKeymap = Keymap(
      entries + [KeymapEntry([KeyChord(.character("z"))], .perform(try ActionIdentifier(parsing: "Close")))])
    try tree.focus(id: "editor")
    tree.firstResponder.handleKey(try chord("z"))
    #expect(log.entries == ["Close"])
  }

  @Test func aReloadFromInsideAKeysOwnActionTakesEffectOnTheNextKey() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.root.attachedActionManager!.register(
      RunAction { [unowned tree] in
        log("Reload")
        tree.userKeymap = Keymap(parsing: "f5 = Quit")
      }, as: "Reload")
    tree.userKeymap = Keymap(parsing: "f5 = Reload")
    try tree.focus(id: "row")
    tree.firstResponder.handleKey(try chord("f5"))
    tree.firstResponder.handleKey(try chord("f5"))
    #expect(log.entries == ["Reload", "Quit"])
  }
}

extension KeyResolution {
  var isUnbound: Bool {
    guard case .unbound = self else { return false }
    return true
  }
}
