import Actions
import Foundation
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

// The README's ViewTreeActions example, compiled and run by `readmeExampleRuns`;
// `readmeShowsThisExample` checks that the README shows exactly the code between the markers.

// readme-example:begin
enum ChosenRowsKey: ActionContextKey {
  static let defaultValue: [Int] = []
}

final class RowStore {
  var rows = ["alpha", "beta", "gamma"]
  var chosen = [0]
}

struct RemoveRowsAction: ManagedAction {  // registered as "RemoveRows"
  let store: RowStore

  func validate(context: ActionContext) -> Validation {
    context[ChosenRowsKey.self].isEmpty ? .disabled : .enabled
  }

  func perform(context: ActionContext) throws {
    for index in context[ChosenRowsKey.self].sorted(by: >) { store.rows.remove(at: index) }
  }
}

func runTreeExample() throws -> [String] {
  let store = RowStore()
  let manager = ActionManager()
  try manager.register(RemoveRowsAction(store: store))

  let tree = NodeTree("window") {
    Node("menu") {
      Node("remove").actionItem("menu.RemoveRows")
    }
    Node("list")
      .focusable()
      .provideActionContext { context in context[ChosenRowsKey.self] = store.chosen }
    Node("editor").focusable()
  }
  tree.root.actionManager(manager)
  tree.node(id: "list")?.bindKey("delete", to: "RemoveRows")
  let menu = tree.node(id: "menu")

  var log: [String] = []
  try tree.focus(id: "editor")  // nothing chosen here: the menu item is disabled
  log.append("\(tree.validateItems(in: menu).map(\.validation.isEnabled))")
  try tree.focus(id: "list")  // the list provides its chosen rows: enabled
  log.append("\(tree.validateItems(in: menu).map(\.validation.isEnabled))")
  let delete = try KeyChord(parsing: "delete")
  log.append("\(tree.firstResponder.handleKey(delete))")  // resolved on the list, performed
  log.append(store.rows.joined(separator: ", "))
  return log
}
// readme-example:end

@Suite struct ReadmeExampleTests {
  @Test func readmeExampleRuns() throws {
    #expect(
      try runTreeExample() == [
        "[false]", "[true]",
        "delete -> RemoveRows (on window/list): performed RemoveRows (answered by window)",
        "beta, gamma",
      ])
  }

  @Test func readmeShowsThisExample() throws {
    try expectReadmeShows(
      marker: "readme-example", imports: ["import Actions", "import ViewTree", "import ViewTreeActions"])
  }
}
