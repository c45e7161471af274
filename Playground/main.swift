import ViewTree

// A non-interactive tour of propagation: builds a small document editor, triggers a few actions
// and prints their outcomes and traces. The interactive terminal demo comes later.

struct Save: Action {}
struct DeleteRow: Action { var index: Int }
struct Copy: Action {}
enum DocumentError: Error { case readOnly }

final class Document {
  var rows = ["alpha", "beta", "gamma"]
  var saves = 0
}

let document = Document()
let tree = NodeTree("window") {
  Node("menubar")
  Node("sidebar") {
    Node("rows")
      .transformAction(Copy.self) { DeleteRow(index: 0) }
  }
  .handleAction(DeleteRow.self) { delete in
    guard document.rows.indices.contains(delete.index) else { throw DocumentError.readOnly }
    document.rows.remove(at: delete.index)
  }
  Node("editor")
    .handleAction(Save.self) { document.saves += 1 }
}
tree.root.catchError { error in print("  window caught \(error)") }

print("The tree:")
print(tree.debugDescription)
print()

func show(_ title: String, _ body: (ActionTrace) -> ActionOutcome) {
  let trace = ActionTrace()
  let outcome = body(trace)
  print("\(title)\n  outcome: \(outcome)")
  for step in trace.steps { print("    \(step)") }
}

try tree.focus(id: "editor")
show("Save sent to the focused editor:") { tree.send(Save(), tracing: $0) }
try tree.focus(id: "rows")
show("Copy from the rows list, transformed into DeleteRow:") { tree.send(Copy(), tracing: $0) }
show("DeleteRow(index: 9), which throws:") { tree.send(DeleteRow(index: 9), tracing: $0) }
show("Save from the rows list, which nobody there handles:") { tree.send(Save(), tracing: $0) }
print()
print("rows left: \(document.rows), saves: \(document.saves)")
