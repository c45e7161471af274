import Actions
import TerminalKeys
import ViewTree
import ViewTreeActions

// The flows a reader of the package traces (see `probe.sh flows`): a key press from the
// terminal's bytes to a performed action (on a tree without keymaps, then with a user keymap), a
// click that activates an item, `perform("menu.Save")` from a view, and a self-placing view's
// update. `trace.py` logs the package's functions each
// calls, between `begin` and `end`. Each flow returns the check of its result, which runs after
// `end`: reading a result (its description, say) is not part of the flow.

struct Save: ManagedAction {
  static var defaultIdentifier: String { "Save" }
  func perform(context: ActionContext) throws {}
}

/// Where a flow starts in the trace.
@inline(never) func begin(_ name: String) { print("begin", name) }
/// Where a flow ends in the trace.
@inline(never) func end(_ name: String) { print("end", name) }

@MainActor func run() throws {
  let manager = ActionManager()
  try manager.register(Save())
  let window = NodeHandle()
  let tree = NodeTree(declaring: NodeDeclaration("window").actionManager(manager).bound(to: window))
  let editor = NodeHandle()
  editor.update(to: NodeDeclaration("editor").focusable().bindKey("ctrl+s", to: "menu.Save"))
  editor.place(in: window)
  let item = NodeHandle()
  var width = 10.0
  func declareItem() {
    width += 1
    item.update(
      to: NodeDeclaration("save").actionItem("menu.Save").frame(
        NodeFrame(x: 0, y: 0, width: width, height: 1)))
    item.place(in: window)
  }
  declareItem()
  try editor.focus()
  // The key press again on a tree with a user keymap, whose entry for the editor's context
  // takes `ctrl+s` from the editor's own binding.
  let keyed = NodeTree("window") {
    Node("editor").focusable().keyContext("Editor").bindKey("ctrl+s", to: "Close")
  }
  keyed.root.actionManager(manager)
  keyed.userKeymap = Keymap(parsing: "[Editor]\nctrl+s = menu.Save", source: "user.keymap")
  try keyed.focus(id: "editor")

  /// `ctrl+s` from the terminal's byte to the focus of `tree`; the check that it performed.
  func pressCtrlS(in tree: NodeTree) -> () -> Bool {
    var decoder = TerminalKeyDecoder()
    var results: [KeyPressResult] = []
    for case .key(let chord) in decoder.feed([0x13]) {  // ctrl+s
      results.append(tree.firstResponder.handleKey(chord))
    }
    return { results.count == 1 && results[0].description.contains("performed") }
  }

  let flows: [(String, () -> () -> Bool)] = [
    (
      "key press", { pressCtrlS(in: tree) }
    ),
    (
      "key press under a keymap", { pressCtrlS(in: keyed) }
    ),
    (
      "click",
      {
        tree.handlePointer(PointerInput(.press(.primary), at: PointerLocation(x: 4, y: 0)))
        tree.handlePointer(PointerInput(.release(.primary), at: PointerLocation(x: 4, y: 0)))
        return { true }
      }
    ),
    (
      "perform",
      {
        let result = tree.firstResponder.perform("menu.Save")
        return { result.isPerformed }
      }
    ),
    (
      "placed update",
      {
        declareItem()
        return { true }
      }
    ),
  ]
  // Each flow once untraced (caches, lazy tables), then traced.
  for (name, flow) in flows {
    precondition(flow()(), "\(name) did not do what it does")
    begin(name)
    let check = flow()
    end(name)
    precondition(check(), "\(name) did not do what it does")
  }
}

try MainActor.assumeIsolated { try run() }
