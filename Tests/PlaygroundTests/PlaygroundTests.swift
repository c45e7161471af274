import Actions
import Foundation
import PlaygroundKit
import TerminalKeys
import Testing
import ViewTree
import ViewTreeActions

@Suite struct PlaygroundTests {
  @Test func theSampleKeymapRebindsBlocksAndUnbindsByContext() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let keymap = try readKeymap(at: root.appendingPathComponent("Playground/sample.keymap").path)
    #expect(keymap.issues.map(\.line) == [22])
    var lines: [String] = []
    runScript(try parseScript("j, tab, j, ?, l, ctrl+k, ctrl+z, f3, q"), keymap: keymap) { lines.append($0) }
    let text = lines.joined(separator: "\n")
    #expect(text.contains("sample.keymap:22:6: invalid key chord: 'xyz' is not a key"))
    #expect(text.contains("sample.keymap:23:6: unknown action 'Publish'"))
    // The same key by context: the list moves the selection, the editor wraps lines.
    #expect(text.contains("> j\n  j -> SelectNext: window(capture) -> sidebar -> window => performed"))
    #expect(text.contains("> j\n  j -> ToggleWrap: window(capture) -> window => performed"))
    // Why l does nothing in the editor: the keymap's block takes it from the window's binding.
    #expect(text.contains("1: l -> ToggleLock [nodes on window, depth 0]: blocked by 0"))
    // The unbind takes ctrl+k ctrl+z out of the sequence; f3 saves.
    #expect(text.contains("ctrl+k … (3 continuations)"))
    #expect(text.contains("f3 -> Save: window(capture) -> window => performed"))
    #expect(throws: KeymapFileError.self) { try readKeymap(at: "/nonexistent/keymap") }
  }

  @Test func theRenameBoxTakesTextReplaysAPrefixAndComposes() throws {
    var lines: [String] = []
    runScript(try parseScript("n, d, shift+w, j, x, paste:ok, compose:你好, j, wait, j, k")) {
      lines.append($0)
    }
    let log = lines.joined(separator: "\n")
    for expected in [
      "rename 'Methods': type a name", "insert \"d\" -> rename", "insert \"W\" -> rename",
      "j cancelled (broken); replayed insert \"j\" -> rename; insert \"x\" -> rename",
      "paste \"ok\"", "composing '你': j: composing", "insert \"你好\"",
      "j cancelled (timedOut); replayed insert \"j\" -> rename", "j k -> FinishRename",
      "renamed 'Methods' to 'dWjxok你好j'", "done: focus list",
    ] {
      #expect(log.contains(expected), "the rename script did not print \(expected)")
    }
    // The list's and the window's letters did nothing while the box had the focus.
    #expect(!log.contains("w -> ToggleWrap") && log.contains("done: focus list, rows 5, color default"))
    #expect(throws: ScriptError.self) { try parseScript("paste:") }
    #expect(try parseScript("paste:a compose:b wait") == [.paste("a"), .compose("b"), .wait])
  }

  @Test func theScriptedTourExercisesEveryFeature() throws {
    var lines: [String] = []
    runScript(try parseScript(defaultTour)) { lines.append($0) }
    let text = lines.joined(separator: "\n")
    // A transform: the list's Delete becomes the sidebar's DeleteRow, and undo names it.
    #expect(
      text.contains(
        "delete -> Delete: window(capture) -> sidebar -> window "
          + "[transformed perform(Delete) -> perform(DeleteRow)] => performed"))
    #expect(text.contains("Undo Delete Row"))
    #expect(text.contains("ctrl+z -> Undo: window(capture) -> sidebar -> window => performed"))
    #expect(text.contains("ctrl+y -> Redo: window(capture) -> sidebar -> window => performed"))
    // A dialog traps Tab (two presses come back to Cancel) and gives focus back to the list.
    let trapped = try #require(text.range(of: "focus -> delete-all (traversal)"))
    #expect(text[trapped.upperBound...].hasPrefix("\n  tab -> focus.Next"))
    #expect(text[trapped.upperBound...].contains("> tab\n  focus -> cancel (traversal)"))
    #expect(text.contains("cancelled\n  focus -> list (restore)"))
    // Focus, and a disabled item: from the editor nothing is selected.
    #expect(text.contains("focus -> editor (traversal)"))
    #expect(text.contains("delete -> DeleteRow: window(capture) -> window => disabled (Delete Row)"))
    #expect(text.contains("Delete Row  delete (disabled)"))
    // An argument, then a capture that blocks edits while locked.
    #expect(text.contains(#"r -> SetColor("color": "red"): window(capture) -> window => performed"#))
    #expect(text.contains(#"g -> SetColor("color": "green"): window(capture) => blocked by window"#))
    // Check items and a radio set: the lock and wrap toggles, one zoom of three on.
    #expect(
      text.contains(
        "| [x] Lock  l | [ ] Wrap Lines  w | [x] Zoom 100%  ctrl+k 1 | [ ] Zoom 150% | [ ] Zoom 200%  ctrl+k 2"
      ))
    #expect(text.contains("w -> ToggleWrap: window(capture) -> window => performed"))
    #expect(text.contains("· w Wrap Lines [on] ·"))
    #expect(
      text.contains("| [x] Wrap Lines  w | [ ] Zoom 100%  ctrl+k 1 | [ ] Zoom 150% | [x] Zoom 200%  ctrl+k 2")
    )
    // The footer follows the focus and the lock; the palette filters and performs.
    #expect(text.contains("footer: ctrl+s Save · ctrl+z Undo"))
    #expect(
      text.contains("delete Delete Row (off) · l Lock [on] · w Wrap Lines [off] · ctrl+k 1 Zoom 100% [on]"))
    #expect(
      text.contains(
        "palette 'sv': ctrl+s  Save: Writes the document to disk. | SelectPrevious: Moves the selection in the list."
      ))
    #expect(text.contains("palette 'sv' -> Save: performed Save (answered by window)"))
    // The arrow keys move through the swatches by their frames.
    #expect(text.contains("focus -> red (traversal)"))
    #expect(text.contains("focus -> green (direction)"))
    #expect(text.contains("focus -> magenta (direction)"))
    #expect(text.contains("focus -> magenta (direction)\n"))
    // The mouse: a click on a row selects it (its handler) and focuses the list; a click on a menu
    // item activates it; a click on a swatch focuses it and sets the color; the wheel scrolls.
    #expect(
      text.contains(
        "> click:Results\n  focus -> list (pointer)\n  click Results: Results -> list -> sidebar -> window => handled by list"
      ))
    #expect(text.contains("activate undo: performed menu.Undo"))
    #expect(text.contains("> click:blue\n  focus -> blue (pointer)"))
    #expect(text.contains("activate blue: performed swatch.SetColor(color: blue)"))
    #expect(text.contains("> wheel:2\n  wheel: scrolled by window"))
    #expect(text.contains("inspector: window/swatches/blue"))
    // Key sequences: `g g` in the list (hiding the window's `g` there), `ctrl+k ctrl+s` anywhere;
    // the footer lists what can follow while one is pending.
    #expect(text.contains("> g\n  g … (1 continuation)"))
    #expect(text.contains("footer: g … g SelectFirst"))
    #expect(text.contains("g g -> SelectFirst: window(capture) -> sidebar -> window => performed"))
    #expect(
      text.contains(
        "footer: ctrl+k … 1 Zoom 100% [on] · 2 Zoom 200% [off] · ctrl+s Save · ctrl+z Undo Set Color"))
    #expect(text.contains("ctrl+k ctrl+s -> Save: window(capture) -> window => performed"))
    #expect(text.hasSuffix("done: focus blue, rows 4, color blue, saved 2x"))
  }

  @Test func theDemoReDeclaresItsTreeFromTheDocumentAfterEveryKey() throws {
    let demo = EditorDemo()
    let list = try #require(demo.tree.node(id: "list"))
    let window = demo.tree.root
    #expect(list.children.map(\.id) == demo.model.rows)
    demo.press(try KeyChord(parsing: "del"))
    // The row left the document, so its node left the tree; every other node stayed.
    #expect(demo.model.rows.count == 4)
    #expect(list.children.map(\.id) == demo.model.rows)
    #expect(demo.tree.node(id: "list") === list)
    #expect(demo.tree.root === window)
    #expect(demo.tree.focusedNode === list)
    // The capture, the manager's two responders (perform, validate) and the wheel's handler,
    // once each.
    #expect(window.modifiers.count == 4)
    #expect(window.keyBindings.count == 13)
    demo.press(try KeyChord(parsing: "ctrl+z"))
    #expect(list.children.map(\.id) == demo.model.rows)
    #expect(demo.model.rows.count == 5)
  }

  @Test func theDemoTreeIsInspectableAsJSONAndDOT() throws {
    let demo = EditorDemo()
    let snapshot = demo.tree.inspection()
    let decoded = try JSONDecoder().decode(TreeSnapshot.self, from: JSONEncoder().encode(snapshot))
    #expect(decoded == snapshot)
    #expect(snapshot.nodes.count == demo.tree.root.subtreeCount)
    let window = snapshot.nodes[0]
    #expect(window.parent == nil)
    #expect(window.modifiers.first == "captureAction(PerformRequest)")
    #expect(window.annotations["keys"]?.contains("ctrl+s -> Save") == true)
    #expect(window.annotations["manager"] == ["\(demo.manager.registeredIdentifiers.count) actions"])
    let focused = try #require(snapshot.focused)
    #expect(snapshot.nodes[focused].id == "list")
    #expect(snapshot.nodes.contains { $0.annotations["item"] == ["menu.Save"] })
    let dot = snapshot.dot
    #expect(dot.hasPrefix("digraph tree {"))
    #expect(dot.contains("style=filled"))
    #expect(dot.contains(#"item: menu.SetColor(\"color\": \"red\")"#))
    #expect(dot.components(separatedBy: " -> n").count - 1 == snapshot.nodes.count - 1)
  }

  @Test func terminalBytesDriveTheDemo() throws {
    // What the interactive session does with a read: Backspace (0x7F, as xterm sends it) deletes
    // the selected row from the list, ctrl+p (0x10) opens the palette and a paste types into it.
    let demo = EditorDemo()
    var decoder = TerminalKeyDecoder()
    for input in decoder.feed(
      [0x7F, 0x10, 0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E] + Array("sav".utf8) + [0x1B, 0x5B])
    {
      switch input {
      case .key(let event): demo.press(event)
      case .paste(let text): demo.paste(text)
      case .pointer(let event): demo.pointer(event)
      case .focusIn, .focusOut, .keyboardEnhancements, .resize: Issue.record("unexpected \(input)")
      }
    }
    #expect(demo.model.rows.count == 4)
    #expect(demo.paletteQuery == "")  // open; the paste has not ended yet
    for input in decoder.feed([0x32, 0x30, 0x31, 0x7E]) {
      if case .paste(let text) = input { demo.paste(text) }
    }
    #expect(demo.paletteQuery == "sav")
    #expect(demo.paletteLines(limit: 1) == ["ctrl+s  Save: Writes the document to disk."])
  }

  @Test func framesFitTheTerminal() throws {
    let demo = EditorDemo()
    demo.press(KeyChord(.tab))
    for (columns, rows) in [(80, 24), (120, 40), (40, 10)] {
      let lines = Screen(width: columns, height: rows).render(demo, styled: false)
      #expect(lines.count <= rows)
      #expect(lines.allSatisfy { $0.count == max(20, columns) })
    }
    let frame = Screen(width: 80, height: 24).render(demo, styled: false)
    #expect(frame.contains { $0.contains("editor [focused]") })
    #expect(frame.contains { $0.contains("focus -> editor") })
    // The log and both footer lines are on screen at 80x24, with the dialog open too.
    #expect(frame[frame.count - 1].contains("q quit"))
    #expect(frame[frame.count - 2].contains("ctrl+s Save"))
    demo.press(KeyChord(.tab, modifiers: .shift))
    demo.press(try KeyChord(parsing: "x"))
    let dialog = Screen(width: 80, height: 24).render(demo, styled: false)
    #expect(dialog.count == 24)
    #expect(dialog.contains { $0.contains("cancel [focused]") })
    #expect(dialog.contains { $0.contains("Delete rows?") })
    #expect(dialog.contains { $0.contains("[cancel]   delete-all") })
    #expect(dialog.contains { $0.contains("Delete rows? (Tab cycles inside") })
    #expect(dialog[23].contains("q quit"))
  }

  @Test func malformedScriptsAreErrors() throws {
    #expect(throws: ScriptError.self) { try parseScript("tab, ctrl+") }
    #expect(throws: ScriptError.self) { try parseScript("click:") }
    #expect(throws: ScriptError.self) { try parseScript("wheel:down") }
    #expect(
      try parseScript("tab, click:blue wheel:-2") == [.key(KeyChord(.tab)), .click("blue"), .wheel(-2)])
  }

  @Test func theMouseDrivesTheDemoThroughTerminalReports() throws {
    // SGR mouse reports, as a terminal in mode 1006 sends them: a press and a release on a
    // swatch (1-based cells), then the wheel over the tree.
    let demo = EditorDemo()
    let screen = Screen(width: 80, height: 24)
    screen.layOut(demo)
    let blue = try #require(demo.tree.node(id: "blue"))
    let at = try #require(demo.location(of: blue))
    let cell = "\(Int(at.x) + 1);\(Int(at.y) + 1)"
    // The wheel scrolls the tree by a line from where it is after the click.
    var firstLine = 0
    var decoder = TerminalKeyDecoder()
    var lines: [String] = []
    for input in decoder.feed(Array("\u{1B}[<0;\(cell)M\u{1B}[<0;\(cell)m\u{1B}[<65;3;3M".utf8)) {
      guard case .pointer(let event) = input else {
        Issue.record("expected pointer events, got \(input)")
        continue
      }
      if case .wheel = event.kind { firstLine = demo.treeScroll }
      lines += demo.pointer(event)
      screen.layOut(demo)
    }
    #expect(demo.tree.focusedNode === blue)
    #expect(demo.model.color == "blue")
    #expect(lines.contains("focus -> blue (pointer)"))
    #expect(lines.contains("wheel: scrolled by window"))
    #expect(demo.treeScroll == firstLine + 1)
    // The node under the mouse is drawn underlined.
    let red = try #require(demo.tree.node(id: "red"))
    demo.pointer(PointerInput(.move, at: try #require(demo.location(of: red))))
    #expect(Screen(width: 80, height: 24).render(demo, styled: true).contains { $0.contains("\u{1B}[4m") })
  }
}

/// The Playground at 80 by 24: everything reachable, no line cut, every drawn control clickable.
@Suite struct PlaygroundScreenTests {
  let screen = Screen(width: 80, height: 24)

  /// Clicks `node` where the screen draws it, after laying the screen out.
  func click(_ node: Node?, in demo: EditorDemo) throws -> [String] {
    screen.layOut(demo)
    let node = try #require(node)
    let location = try #require(demo.location(of: node))
    return demo.pointer(PointerInput(.press(.primary), at: location))
      + demo.pointer(PointerInput(.release(.primary), at: location))
  }

  @Test func nothingIsCutInAnyState() throws {
    let demo = EditorDemo()
    #expect(screen.cutTexts(demo).isEmpty)
    demo.press(KeyChord(.tab))
    #expect(screen.cutTexts(demo).isEmpty)
    demo.press(KeyChord(.tab, modifiers: .shift))
    demo.press(try KeyChord(parsing: "l"))  // locked: disabled items
    #expect(screen.cutTexts(demo).isEmpty)
    demo.press(try KeyChord(parsing: "l"))
    demo.press(try KeyChord(parsing: "ctrl+p"))
    for key in "sav" { demo.press(KeyChord(.character(key))) }
    #expect(screen.cutTexts(demo).isEmpty)
    demo.press(KeyChord(.escape))
    demo.press(KeyChord(.function(2)))
    #expect(screen.cutTexts(demo).isEmpty)
    demo.press(KeyChord(.function(2)))
    demo.press(try KeyChord(parsing: "x"))
    #expect(screen.cutTexts(demo).isEmpty)
    #expect(screen.render(demo, styled: false).count == 24)
  }

  @Test func theSwatchesMenusAndDialogButtonsAreClickableWhereTheyAreDrawn() throws {
    let demo = EditorDemo()
    screen.layOut(demo)
    for color in ["red", "green", "blue", "cyan", "magenta", "yellow"] {
      let frame = try #require(demo.tree.node(id: color)?.frame)
      #expect(frame.y >= 1 && frame.y < 24 - 6)
    }
    // A swatch sets the color, a menu item performs its action.
    _ = try click(demo.tree.node(id: "blue"), in: demo)
    #expect(demo.model.color == "blue")
    _ = try click(demo.tree.node(id: "wrap"), in: demo)
    #expect(demo.model.wraps)
    // Disabled items show their titles.
    try demo.tree.focus(id: "list")
    demo.press(try KeyChord(parsing: "l"))
    #expect(demo.menuLines().contains("Delete Row (disabled)"))
    #expect(demo.menuLines().contains("Set Color  r (disabled)"))
    demo.press(try KeyChord(parsing: "l"))
  }

  @Test func theFirstClickOnARowSelectsIt() throws {
    let demo = EditorDemo()
    demo.press(KeyChord(.tab))  // the editor: the drawing follows it
    #expect(demo.focusLabel == "editor")
    let results = try #require(demo.tree.node(id: "Results"))
    _ = try click(results, in: demo)
    #expect(demo.focusLabel == "list")
    #expect(demo.model.selection == demo.model.rows.firstIndex(of: "Results"))
  }

  @Test func nothingBehindTheDialogTakesAClickAndItsButtonsChoose() throws {
    let demo = EditorDemo()
    demo.press(try KeyChord(parsing: "x"))
    #expect(demo.isConfirming)
    let blue = try #require(demo.tree.node(id: "blue"))
    let behind = try click(blue, in: demo)
    #expect(behind.contains { $0.hasPrefix("click outside the dialog") })
    #expect(demo.model.color == "default")
    #expect(demo.focusLabel == "cancel")
    _ = try click(demo.tree.node(id: "delete-all"), in: demo)
    #expect(!demo.isConfirming)
    #expect(demo.model.rows.isEmpty)
    #expect(demo.focusLabel == "list")
  }
}
