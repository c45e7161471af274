import Actions
import TerminalKeys
import ViewTree
import ViewTreeActions

// The four flows a reader of the package traces (see `probe.sh flows`): a key press from the
// terminal's bytes to a performed action, a click that activates an item, `perform("menu.Save")`
// from a view, and a self-placing view's update. `trace.py` logs the package's functions each
// calls, between `begin` and `end`.

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

  let flows: [(String, () -> Void)] = [
    (
      "key press",
      {
        var decoder = TerminalKeyDecoder()
        for case .key(let chord) in decoder.feed([0x13]) {  // ctrl+s
          precondition(tree.firstResponder.handleKey(chord).description.contains("performed"))
        }
      }
    ),
    (
      "click",
      {
        tree.handlePointer(PointerInput(.press(.primary), at: PointerLocation(x: 4, y: 0)))
        tree.handlePointer(PointerInput(.release(.primary), at: PointerLocation(x: 4, y: 0)))
      }
    ),
    ("perform", { precondition(tree.firstResponder.perform("menu.Save").isPerformed) }),
    ("placed update", declareItem),
  ]
  // Each flow once untraced (caches, lazy tables), then traced.
  for (name, flow) in flows {
    flow()
    begin(name)
    flow()
    end(name)
  }
}

try MainActor.assumeIsolated { try run() }
