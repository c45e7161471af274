import TestSupport
import Testing
import ViewTree
import ViewTreeTesting

// The Swift blocks of ViewTreeTesting's articles, between markers, compiled and run here
// (`DocsCompileTests` checks that the articles show exactly these regions).

// view-tree-testing-overview:begin
@Test func copyBecomesPasteOnTheWayUp() throws {
  let tree = try makeTree("window(sidebar(list), editor)")
  tree["editor"]?.transformAction(Copy.self) { _ in Paste() }
  tree["window"]?.handleAction(Paste.self) { _ in }

  expectDispatch(
    try tree.record(Copy(), from: "editor"),
    path: "editor -> window [handled]",
    transforms: ["editor: Copy() -> Paste()"])
}
// view-tree-testing-overview:end

@Suite struct ViewTreeTestingArticleExamples {
  @Test func theArticleDeclaresRecordsAndChecksATree() throws {
    // testing-declare:begin
    let tree = try makeTree("window(menubar, sidebar(list), editor)")
    tree["editor"]?.focusable().transformAction(Copy.self) { _ in Paste() }
    // testing-declare:end
    tree["window"]?.handleAction(Paste.self) { _ in }
    let record = try tree.record(Copy(), from: "editor")
    // testing-exhaustive:begin
    expectDispatch(record, path: "editor -> window [handled]", transforms: ["editor: Copy() -> Paste()"])
    // testing-exhaustive:end
    // testing-partial:begin
    expectDispatch(record, path: "editor -> window [handled]", exhaustivity: .partial)
    // testing-partial:end
  }
}
