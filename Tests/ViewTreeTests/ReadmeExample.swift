import Foundation
import TestSupport
import Testing
import ViewTree

// The README's example, compiled and run by `readmeExampleRuns`. `readmeShowsThisExample` checks
// that the README shows exactly the code between the markers.

// readme-example:begin
struct SaveDocument: Action {}
struct DeleteRow: Action { var index: Int }

final class Document {
  var rows = ["alpha", "beta", "gamma"]
  var saves = 0
  func save() { saves += 1 }
}

func makeEditorTree(document: Document) -> NodeTree {
  let tree = NodeTree("window") {
    Node("sidebar") {
      Node("rows")
    }
    .handleAction(DeleteRow.self) { delete in
      document.rows.remove(at: delete.index)
    }
    Node("editor")
      .focusable()
      .handleAction(SaveDocument.self) { _ in document.save() }
  }
  tree.root.catchError { error in print("window caught \(error)") }
  return tree
}

func runExample() throws -> [String] {
  let document = Document()
  let tree = makeEditorTree(document: document)

  try tree.focus(id: "editor")
  let saved = tree.firstResponder.trigger(SaveDocument())  // handled by window/editor

  let rows = tree.node(id: "rows")!
  let deleted = rows.trigger(DeleteRow(index: 0))  // handled by window/sidebar
  let ignored = rows.trigger(SaveDocument())  // unhandled: the editor is not an ancestor

  print(tree.debugDescription)
  return [saved, deleted, ignored].map(\.description)
}
// readme-example:end

@Suite struct ReadmeExampleTests {
  @Test func readmeExampleRuns() throws {
    let outcomes = try runExample()
    #expect(
      outcomes == [
        "handled by window/editor: SaveDocument()",
        "handled by window/sidebar: DeleteRow(index: 0)",
        "unhandled: SaveDocument()",
      ])
  }

  @Test func readmeShowsThisExample() throws {
    try expectReadmeShows(marker: "readme-example", imports: ["import ViewTree"])
  }

}
