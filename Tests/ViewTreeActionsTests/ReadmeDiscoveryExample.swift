import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

// The README's "what can I do here" example, compiled and run by `readmeDiscoveryExampleRuns`;
// `readmeShowsTheDiscoveryExample` checks that the README shows exactly the code between the
// markers.

// readme-discovery:begin
struct Reload: ManagedAction {
  func perform(context: ActionContext) throws {}
}

func runDiscoveryExample() throws -> [String] {
  let manager = ActionManager()
  try manager.register(Reload())
  let tree = NodeTree("window") { Node("list").focusable().bindKey("ctrl+r", to: "Reload") }
  tree.root.actionManager(manager).bindKey("ctrl+z", to: "Undo")
  try tree.focus(id: "list")

  // A footer: the bindings in effect at the focus, nearest first, validated there; the tree's
  // defaults (Tab, Shift-Tab) last.
  let footer = tree.firstResponder.bindingsInEffect(includingShadowed: false).map(\.description)

  // A palette: every command the nearest manager offers here, filtered as the user types.
  let palette = CommandPalette(from: tree.focusedNode!)
  let best = palette.matches("rl").first!.entry
  tree.firstResponder.perform(best.identifier)

  // Who would answer, without running anything.
  let answerer = tree.focusedNode!.handlerPrediction(for: PerformRequest.self)
  return footer + [best.description, "\(answerer)"]
}
// readme-discovery:end

@Suite struct ReadmeDiscoveryExampleTests {
  @Test func readmeDiscoveryExampleRuns() throws {
    #expect(
      try runDiscoveryExample() == [
        "ctrl+r  Reload", "ctrl+z  Undo (disabled)", "tab  Focus next", "shift+tab  Focus previous",
        "ctrl+r  Reload",
        "handled by window (respond(PerformRequest))",
      ])
  }

  @Test func readmeShowsTheDiscoveryExample() throws {
    try expectReadmeShows(
      marker: "readme-discovery", imports: ["import Actions", "import ViewTree", "import ViewTreeActions"])
  }
}
