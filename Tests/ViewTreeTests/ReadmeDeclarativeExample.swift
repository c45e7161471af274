import TestSupport
import Testing
import ViewTree

// The README's declarative example, compiled and run by `readmeDeclarativeExampleRuns`;
// `readmeShowsTheDeclarativeExample` checks that the README shows exactly the code between the
// markers.

// readme-declarative:begin
struct Remove: Action { var row: String }

final class Rows {
  var names = ["alpha", "beta", "gamma"]

  /// The view's `body` for the responder chain: evaluated again after every change.
  var declaration: NodeDeclaration {
    NodeDeclaration("list") {
      for name in names {
        NodeDeclaration(name).focusable().handleAction(Remove.self) { [unowned self] remove in
          names.removeAll { $0 == remove.row }
        }
      }
    }
    .focusable()
  }
}

func runDeclarativeExample() throws -> [String] {
  let rows = Rows()
  let tree = NodeTree(declaring: rows.declaration)
  var log: [String] = []
  tree.onFocusChange = { change in log.append("focus: \(change.new?.path ?? "none")") }
  try tree.focus(id: "beta")
  let gamma = tree.node(id: "gamma")

  tree.firstResponder.trigger(Remove(row: "beta"))  // from the focus: beta handles it
  tree.update(to: rows.declaration)  // re-declared: beta's node goes, focus moves to the list

  log.append(tree.root.children.map { $0.id ?? "?" }.joined(separator: ", "))
  log.append("gamma kept its node: \(tree.node(id: "gamma") === gamma)")
  return log
}
// readme-declarative:end

@Suite struct ReadmeDeclarativeExampleTests {
  @Test func readmeDeclarativeExampleRuns() throws {
    #expect(
      try runDeclarativeExample() == [
        "focus: list/beta", "focus: list", "alpha, gamma", "gamma kept its node: true",
      ])
  }

  @Test func readmeShowsTheDeclarativeExample() throws {
    try expectReadmeShows(marker: "readme-declarative", imports: ["import ViewTree"])
  }
}
