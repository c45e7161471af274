import ViewTree
import ViewTreeActions

/// The keys the scripted tour plays: selection, a confirmation dialog that traps Tab and gives
/// focus back when it closes, a transform, undo and redo, a focus change, a disabled item, an
/// argument, a capture, key sequences (`g g` in the list, `ctrl+k ctrl+s` anywhere), arrow keys
/// through a grid, and a save through the command palette.
public let defaultTour =
  "down, g, g, x, tab, tab, escape, del, ctrl+z, ctrl+y, tab, del, r, l, g, l, ctrl+k, ctrl+s, tab, right, "
  + "down, ctrl+p, s, v, enter, q"

/// Plays keys without a terminal and reports each frame's log lines and the menus' state.
///
/// - Parameters:
///   - chords: The keys to play.
///   - output: Receives each line.
public func runScript(_ chords: [KeyChord], output: (String) -> Void) {
  let demo = EditorDemo()
  output("ActionHierarchy Playground (scripted). The tree:")
  for line in demo.tree.root.treeDescription(focused: demo.tree.focusedNode).split(separator: "\n") {
    output("  " + line)
  }
  output("menus: " + demo.menuLines().joined(separator: " | "))
  output("footer: " + demo.footerLine())
  var footer = demo.footerLine()
  for chord in chords {
    output("> \(chord)")
    for line in demo.press(chord) { output("  " + line) }
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

/// What `Playground --help` prints.
public let usage = """
  Playground: an interactive tour of ActionHierarchy.

  usage: swift run Playground [--script KEYS] [--help]

  In a terminal it opens a small document editor drawn as a tree: Tab and Shift-Tab move the
  focus, the arrow keys move it through the swatches, x in the list asks "Delete rows?" in a
  dialog that keeps the focus until it closes, keys trigger actions through key bindings, the menus show live validation, and a log
  shows each action's path (visited nodes, transforms, who handled it). A footer lists the key
  bindings in effect at the focus, ctrl+p opens a command palette (type to filter, Enter
  performs), and an inspector shows the focused node. q quits.

  When standard input is not a terminal, or with --script, it plays keys without a terminal and
  prints each frame's log lines, then exits. KEYS are key chords separated by commas or spaces,
  such as "tab, del, ctrl+z". Without --script it plays this tour:
    \(defaultTour)
  """
