import ViewTree
import ViewTreeActions

/// The steps the scripted tour plays: selection, a confirmation dialog that traps Tab and gives
/// focus back when it closes, a transform, undo and redo, a focus change, a disabled item, an
/// argument, a capture, key sequences (`g g` in the list, `ctrl+k ctrl+s` anywhere), arrow keys
/// through a grid, the mouse (a row, a swatch, a menu item, the wheel), and a save through the
/// command palette, then why `ctrl+s` does what it does.
public let defaultTour =
  "down, g, g, x, tab, tab, escape, del, ctrl+z, ctrl+y, tab, del, r, l, g, l, ctrl+k, ctrl+s, w, ctrl+k, 2, tab, right, "
  + "down, click:Results, wheel:-6, click:undo, click:blue, wheel:2, ctrl+p, s, v, enter, ?, ctrl+s, q"

/// Plays steps without a terminal, on a screen of 80 by 24 laid out after each (where the mouse
/// clicks), and reports each frame's log lines and the menus' state.
///
/// - Parameters:
///   - steps: The steps to play.
///   - keymap: The user keymap to play them with, if any.
///   - output: Receives each line.
public func runScript(_ steps: [ScriptStep], keymap: Keymap? = nil, output: (String) -> Void) {
  let demo = EditorDemo(keymap: keymap)
  for line in demo.log { output(line) }
  let screen = Screen(width: 80, height: 24)
  screen.layOut(demo)
  output("ActionHierarchy Playground (scripted). The tree:")
  for line in demo.tree.root.treeDescription(focused: demo.tree.focusedNode).split(separator: "\n") {
    output("  " + line)
  }
  output("menus: " + demo.menuLines().joined(separator: " | "))
  output("footer: " + demo.footerLine())
  var footer = demo.footerLine()
  for step in steps {
    output("> \(step)")
    for line in play(step, on: demo) { output("  " + line) }
    screen.layOut(demo)
    output("  menus: " + demo.menuLines().joined(separator: " | "))
    // The footer follows the focus: printed when it changed.
    if demo.footerLine() != footer {
      footer = demo.footerLine()
      output("  footer: " + footer)
    }
    if demo.wantsToQuit { break }
  }
  output("inspector: " + demo.inspectorLines().joined(separator: " "))
  output(
    "done: focus \(demo.focusLabel), rows \(demo.model.rows.count), color \(demo.model.color), "
      + "saved \(demo.model.saves)x")
}

/// Plays one step on the demo; returns its log lines.
private func play(_ step: ScriptStep, on demo: EditorDemo) -> [String] {
  switch step {
  case .key(let chord): return demo.press(chord)
  case .click(let id):
    guard let node = demo.tree.node(id: id), let location = demo.location(of: node) else {
      return ["nothing drawn with the id \(id)"]
    }
    return demo.pointer(PointerInput(.move, at: location))
      + demo.pointer(PointerInput(.press(.primary), at: location))
      + demo.pointer(PointerInput(.release(.primary), at: location))
  case .paste(let text): return demo.paste(text)
  case .compose(let text): return demo.compose(text)
  case .wait:
    let start = demo.log.count
    demo.keysTimedOut()
    return Array(demo.log[start...])
  case .wheel(let lines):
    // Over the tree's second line, on the left.
    return demo.pointer(
      PointerInput(.wheel(deltaX: 0, deltaY: Double(lines)), at: PointerLocation(x: 2, y: 2)))
  }
}

/// What `Playground --help` prints.
public let usage = """
  Playground: an interactive tour of ActionHierarchy.

  usage: swift run Playground [--keymap FILE] [--script STEPS] [--help]

  In a terminal it opens a small document editor drawn as a tree: Tab and Shift-Tab move the
  focus, the arrow keys move it through the swatches, x in the list asks "Delete rows?" in a
  dialog that keeps the focus until it closes, keys trigger actions through key bindings, the
  menus show live validation (the lock and wrap check items, a zoom radio set: w and ctrl+k 1/2),
  and a log shows each action's path (visited nodes, transforms, who handled it). The mouse works
  too: a click focuses what it lands on, selects a row, sets a swatch's color, activates a menu
  item or chooses a dialog button (behind the open dialog, nothing takes a click); the node under
  the mouse is underlined, and the wheel scrolls the tree. A footer lists the key bindings in
  effect at the focus with each toggle's state, ctrl+p opens a command palette of described
  commands (type to filter, Enter performs), and f2 shows an inspector of the focused node.
  q quits. ? then a key explains what the key does at the focus, and why: every binding of it,
  from the nodes, the tree's defaults and the user keymap, and what became of each. n in the list
  opens a rename box that takes text: letters bound elsewhere (d, r, l, w) are typed into it, its
  own j k (or Enter) renames the row, Escape cancels, and a j left waiting is typed after a
  second; a paste goes in as text, and an input method's composition holds the keys until it
  commits.

  --keymap FILE loads FILE as the user keymap (Playground/sample.keymap rebinds, blocks and
  unbinds keys, and binds j and k in the list and the editor differently), and shows the lines it
  could not read.

  When standard input is not a terminal, or with --script, it plays steps without a terminal and
  prints each frame's log lines, then exits. STEPS are key chords, click:ID (a click on the node
  with that id, where an 80 by 24 screen draws it), wheel:N (N lines over the tree), paste:TEXT,
  compose:TEXT (an input method composing TEXT, then committing it) and wait (the key sequence
  timer running out), separated by commas or spaces, such as "tab, del, click:blue, ctrl+z" or
  "n, d, j, x, paste:ok, compose:你好, j, k". Without --script it
  plays this tour:
    \(defaultTour)
  """
