import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

/// Text owners: typed text against bindings, prefix replay, composition, pastes and the caret.
@Suite struct TextInputTests {
  struct Named: ManagedAction {
    let log: Log
    let name: String
    func perform(context: ActionContext) throws { log(name) }
  }

  /// ```
  /// window (ctrl+s Save, j Down, g g Top)
  /// └─ list (d Delete)
  ///    └─ rename, focused, takes text (ctrl+a SelectAll, j k Leave); logs what it inserts
  /// ```
  func makeTree(_ log: Log) throws -> NodeTree {
    let manager = ActionManager()
    for name in ["Save", "Down", "Top", "Delete", "SelectAll", "Leave", "Find"] {
      try manager.register(Named(log: log, name: name), as: name)
    }
    let tree = NodeTree("window") {
      Node("list") {
        Node("rename").focusable().takesText()
          .bindKey("ctrl+a", to: "SelectAll").bindKey("j k", to: "Leave")
          .handleAction(InsertText.self) { insert in
            log("+" + insert.text + (insert.isPaste ? " (paste)" : ""))
          }
      }
      .bindKey("d", to: "Delete")
      Node("other").focusable()
    }
    tree.root.actionManager(manager).bindKey("ctrl+s", to: "Save").bindKey("j", to: "Down")
      .bindKey("g g", to: "Top")
    try tree.focus(id: "rename")
    return tree
  }

  func press(_ tree: NodeTree, _ keys: String) throws {
    for chord in try KeySequence(parsing: keys).chords { tree.firstResponder.handleKey(chord) }
  }

  @Test func lettersBoundElsewhereAreTypedAndTheOwnersAndModifiedBindingsStillWork() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "d g shift+a space ctrl+a ctrl+s")
    #expect(log.entries == ["+d", "+g", "+A", "+ ", "SelectAll", "Save"])
    guard
      case .insertedText(let insert, let outcome) = tree.firstResponder.handleKey(KeyChord(.character("x")))
    else {
      Issue.record("x was not typed")
      return
    }
    #expect(insert == InsertText("x"))
    #expect(outcome.isHandled)
    // Away from the text owner, the same keys are bindings.
    try tree.focus(id: "other")
    try press(tree, "g g")
    #expect(log.entries.last == "Top")
  }

  @Test func theOwnersSequenceCompletesAndABrokenPrefixIsReplayedAsText() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "j k")
    #expect(log.entries == ["Leave"])
    try press(tree, "j")
    #expect(tree.pendingKeys?.typed.description == "j")
    guard
      case .cancelled(_, .broken, then: .replayed(let replayed, then: let then)?) =
        tree.firstResponder.handleKey(KeyChord(.character("x")))
    else {
      Issue.record("j x did not replay j")
      return
    }
    #expect(replayed.count == 1)
    guard case .insertedText? = then else {
      Issue.record("x was not typed after the replay: \(String(describing: then))")
      return
    }
    #expect(log.entries == ["Leave", "+j", "+x"])
    // A key that breaks the prefix and is bound resolves as bound: j then ctrl+s.
    try press(tree, "j ctrl+s")
    #expect(log.entries.suffix(2) == ["+j", "Save"])
  }

  @Test func aTimedOutPrefixIsReplayedAndItsDeadlineIsTheTimeout() throws {
    let log = Log()
    let tree = try makeTree(log)
    #expect(tree.pendingKeysDeadline == nil)
    let before = ContinuousClock.now
    try press(tree, "j")
    let deadline = try #require(tree.pendingKeysDeadline)
    #expect(deadline >= before + .seconds(1) && deadline <= .now + .seconds(1))
    guard case .cancelled(_, .timedOut, then: .replayed?)? = tree.pendingKeysTimedOut() else {
      Issue.record("the timeout did not replay")
      return
    }
    #expect(log.entries == ["+j"])
    #expect(tree.pendingKeys == nil)
    #expect(tree.pendingKeysTimedOut() == nil)
    tree.keySequenceTimeout = nil
    try press(tree, "j")
    #expect(tree.pendingKeysDeadline == nil)
  }

  @Test func aPrefixIsDroppedWhenTheFocusMoved() throws {
    let log = Log()
    let tree = try makeTree(log)
    try press(tree, "j")
    try tree.focus(id: "other")
    guard case .cancelled(_, .focusMoved, then: _) = tree.firstResponder.handleKey(KeyChord(.character("x")))
    else {
      Issue.record("the prefix was not cancelled")
      return
    }
    #expect(!log.entries.contains("+j"))
    // And a timer that fires after the focus moved replays nothing either.
    try tree.focus(id: "rename")
    try press(tree, "j")
    try tree.focus(id: "other")
    guard case .cancelled(_, .timedOut, then: nil)? = tree.pendingKeysTimedOut() else {
      Issue.record("a timeout away from the owner replayed")
      return
    }
    #expect(!log.entries.contains("+j"))
  }

  @Test func whileComposingKeysReachNoBindingAndTheCommitIsInserted() throws {
    let log = Log()
    let tree = try makeTree(log)
    let owner = tree.firstResponder
    try press(tree, "j")
    // A composition that starts ends the pending prefix first: text, so it is typed.
    #expect(owner.updateComposition("n")?.typed.description == "j")
    #expect(log.entries == ["+j"])
    log.entries.removeAll()
    #expect(owner.composition == "n")
    for chord in try KeySequence(parsing: "i ctrl+s k").chords {
      guard case .composing = owner.handleKey(chord) else {
        Issue.record("\(chord) reached a binding while composing")
        return
      }
    }
    owner.updateComposition("ni")
    owner.insertText("你")
    #expect(owner.composition.isEmpty)
    #expect(log.entries == ["+你"])
    try press(tree, "ctrl+s")
    #expect(log.entries == ["+你", "Save"])
  }

  @Test func aCompositionAtANodeThatTakesNoTextGatesNothing() throws {
    let log = Log()
    let tree = try makeTree(log)
    try tree.focus(id: "other")
    let other = tree.firstResponder
    try press(tree, "g")
    #expect(other.updateComposition("n") == nil)
    #expect(other.composition.isEmpty)
    #expect(tree.pendingKeys?.typed.description == "g")
    try press(tree, "g")
    #expect(log.entries == ["Top"])
  }

  @Test func theAwaitedKeyPressTypesAndReplaysAsTheSynchronousOneDoes() async throws {
    let log = Log()
    let tree = try makeTree(log)
    let owner = tree.firstResponder
    for key in ["d", "j", "x", "ctrl+s"] { await owner.handleKey(try KeyChord(parsing: key)) }
    #expect(log.entries == ["+d", "+j", "+x", "Save"])
  }

  @Test func theAwaitedKeyPressFallsThroughAsTheSynchronousOneDoes() async throws {
    for awaited in [false, true] {
      let log = Log()
      let tree = try makeTree(log)
      let owner = tree.firstResponder
      // `Missing` is registered nowhere: the owner's bindings of it are unavailable, so `q`
      // falls to its text and `ctrl+d` to the list's binding of the same key.
      owner.bindKey("q", to: "Missing").bindKey("ctrl+d", to: "Missing")
      tree.node(id: "list")!.bindKey("ctrl+d", to: "Delete")
      // A synchronous closure: in an async test, `handleKey` alone is the awaited one.
      let pressNow: (KeyChord) -> Void = { owner.handleKey($0) }
      for key in ["q", "ctrl+d"] {
        let chord = try KeyChord(parsing: key)
        if awaited { await owner.handleKey(chord) } else { pressNow(chord) }
      }
      #expect(log.entries == ["+q", "Delete"], "awaited: \(awaited)")
    }
  }

  @Test func aPasteIsInsertedAndNeverMatchedAgainstBindings() throws {
    let log = Log()
    let tree = try makeTree(log)
    tree.firstResponder.insertText("g g", isPaste: true)
    #expect(log.entries == ["+g g (paste)"])
    #expect(tree.pendingKeys == nil)
  }

  @Test func priorityBindingsGoBeforeTheOwnersAndText() throws {
    let log = Log()
    let tree = try makeTree(log)
    tree.userKeymap = Keymap(parsing: "priority f = Find\nctrl+a = Find\n")
    try press(tree, "f ctrl+a")
    // The priority `f` before the text; the owner's ctrl+a before the keymap's plain one.
    #expect(log.entries == ["Find", "SelectAll"])
  }

  @Test func typedTextAndBoundKeysInterleavedAtRandomArriveInOrder() throws {
    var generator = SplitMix64(seed: 52)
    for _ in 0..<20 {
      let log = Log()
      let tree = try makeTree(log)
      var expected: [String] = []
      for _ in 0..<200 {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
          tree.firstResponder.handleKey(try KeyChord(parsing: "ctrl+s"))
          expected.append("Save")
        case 1:
          let letter = Character(Unicode.Scalar(UInt8.random(in: 97...122, using: &generator)))
          // `j` waits for `k`: typed after the next key, or now if `k` follows.
          guard letter != "j" else { continue }
          tree.firstResponder.handleKey(KeyChord(.character(letter)))
          expected.append("+\(letter)")
        case 2:
          tree.firstResponder.handleKey(KeyEvent(KeyChord(.character("x")), kind: .release))
        default:
          tree.firstResponder.insertText("pasted", isPaste: true)
          expected.append("+pasted (paste)")
        }
      }
      #expect(log.entries == expected)
    }
  }

  @Test func listsShowTheAncestorsTextKeysAsShadowedByTheOwner() throws {
    let tree = try makeTree(Log())
    let rows = tree.firstResponder.bindingsInEffect().map { row in
      "\(row.keys?.description ?? "") \(row.identifier)"
        + (row.shadowedBy.map { " <- \($0.identifier) on \($0.node?.id ?? "")" } ?? "")
    }
    #expect(
      rows.prefix(6) == [
        "ctrl+a SelectAll", "j k Leave", "d Delete <- InsertText on rename", "ctrl+s Save",
        "j Down <- InsertText on rename", "g g Top <- InsertText on rename",
      ])
    // The footer (bindings in effect only) leaves them out; elsewhere they are in effect.
    let footer = tree.firstResponder.bindingsInEffect(includingShadowed: false).compactMap {
      $0.keys?.description
    }
    #expect(!footer.contains("d") && footer.contains("ctrl+s"))
    try tree.focus(id: "other")
    #expect(
      tree.firstResponder.bindingsInEffect(includingShadowed: false).contains {
        $0.keys?.description == "g g"
      })
  }

  @Test func theTreeAnswersWhereTheFocusedOwnersCaretIs() throws {
    let tree = try makeTree(Log())
    #expect(tree.textCaret == nil)
    tree.firstResponder.textCaret = NodeFrame(x: 4, y: 2, width: 1, height: 1)
    #expect(tree.textCaret == NodeFrame(x: 4, y: 2, width: 1, height: 1))
    try tree.focus(id: "other")
    #expect(tree.textCaret == nil)
  }
}

/// The article "Text input", its Swift blocks as regions (`DocsCompileTests` checks that the
/// article shows them).
@Suite struct TextInputArticleTests {
  @Test func theArticlesRenameBoxTypesLeavesAndComposes() throws {
    var name = ""
    var typedAt: [String] = []
    // text-input-owner:begin
    let tree = NodeTree("window") {
      Node("list") {
        Node("rename").focusable().takesText()
          .bindKey("j k", to: "Leave")  // insert mode's way out, as vim users write it
          .handleAction(InsertText.self) { insert in name += insert.text }
      }
      .bindKey("j", to: "Down").bindKey("d", to: "Delete")
    }
    tree.root.bindKey("ctrl+s", to: "Save")
    // text-input-owner:end
    try tree.focus(id: "rename")
    let rename = tree.firstResponder
    // text-input-keys:begin
    for key in ["d", "shift+a", "j", "x"] {
      print(rename.handleKey(try KeyChord(parsing: key)))
    }
    // insert "d" -> rename
    // insert "A" -> rename
    // j … (1 continuation)
    // j cancelled (broken); replayed insert "j" -> rename; insert "x" -> rename
    // text-input-keys:end
    func print(_ value: Any) { typedAt.append("\(value)") }
    #expect(name == "dAjx")
    #expect(
      typedAt == [
        "insert \"d\" -> rename", "insert \"A\" -> rename", "j … (1 continuation)",
        "j cancelled (broken); replayed insert \"j\" -> rename; insert \"x\" -> rename",
      ])
    // text-input-composition:begin
    rename.updateComposition("n")  // the input method shows a preedit: keys are its
    rename.updateComposition("ni")
    rename.insertText("你")  // the commit: typed as InsertText, the composition ends
    rename.insertText("pasted text", isPaste: true)  // a paste: never matched against bindings
    // text-input-composition:end
    #expect(name == "dAjx你pasted text")
  }
}

// text-input-gtk:begin
/// A GTK-based toolkit's input method context, as its engine wraps `GtkIMContext`.
protocol InputMethodContext {
  /// `gtk_im_context_set_cursor_location`, in the window's coordinates.
  func setCursorLocation(x: Int, y: Int, width: Int, height: Int)
}

/// After each layout and each key: the input method's window goes beside the focused text
/// owner's caret, which the owner reported with `textCaret` when it drew.
func placeInputMethod(_ context: some InputMethodContext, for tree: NodeTree) {
  guard let caret = tree.textCaret else { return }
  context.setCursorLocation(
    x: Int(caret.x), y: Int(caret.y), width: Int(caret.width), height: Int(caret.height))
}
// text-input-gtk:end

/// An input method context that records where it was told the cursor is.
final class RecordingInputMethod: InputMethodContext {
  var locations: [[Int]] = []
  func setCursorLocation(x: Int, y: Int, width: Int, height: Int) { locations.append([x, y, width, height]) }
}

extension TextInputArticleTests {
  @Test func theArticlesToolkitPlacesItsInputMethodAtTheCaret() throws {
    let tree = NodeTree("window") { Node("name").focusable().takesText() }
    let context = RecordingInputMethod()
    placeInputMethod(context, for: tree)
    #expect(context.locations.isEmpty)
    try tree.focus(id: "name")
    tree.firstResponder.textCaret = NodeFrame(x: 120, y: 40, width: 2, height: 18)
    placeInputMethod(context, for: tree)
    #expect(context.locations == [[120, 40, 2, 18]])
  }
}
