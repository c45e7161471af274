import Foundation
import TestSupport
import Testing
import ViewTree
import ViewTreeTesting

// The README's testing example is the test between the markers; `readmeShowsTheTestingExample`
// checks that the README shows exactly this code.

// readme-testing:begin
struct Delete: Action {}
struct DeleteRow: Action { var row: Int }

@Test func deleteInTheListBecomesDeleteRowForTheWindow() throws {
  let tree = try makeTree("window(sidebar(list), editor)")
  tree["list"]?.transformAction(Delete.self) { _ in DeleteRow(row: 2) }
  tree["window"]?.handleAction(DeleteRow.self) { _ in }

  // Exhaustive: every visited node and every transform must be listed.
  expectDispatch(
    try tree.record(Delete(), from: "list"),
    path: "list -> window [handled]",
    transforms: ["list: Delete() -> DeleteRow(row: 2)"])

  // From the editor, the list's transform is not on the path.
  expectDispatch(try tree.record(Delete(), from: "editor"), path: "(no visit) [unhandled]")
}
// readme-testing:end

@Test func readmeShowsTheTestingExample() throws {
  try expectReadmeShows(
    marker: "readme-testing", imports: ["import Testing", "import ViewTree", "import ViewTreeTesting"])
}
