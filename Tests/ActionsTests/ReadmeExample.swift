import Actions
import Foundation
import TestSupport
import Testing

// The README's Actions example, compiled and run by `readmeExampleRuns`; `readmeShowsThisExample`
// checks that the README shows exactly the code between the markers.

// readme-example:begin
enum SelectedRowsKey: ActionContextKey {
  static let defaultValue: [Int] = []
}

final class Table: ActionContextProvider {
  var rows = ["alpha", "beta", "gamma"]
  var selection: [Int] = []
  func provide(to context: ActionContext) { context[SelectedRowsKey.self] = selection }
}

struct DeleteRowsAction: ManagedAction {  // registered as "DeleteRows"
  let table: Table

  func validate(context: ActionContext) -> Validation {
    context[SelectedRowsKey.self].isEmpty ? .disabled : .enabled
  }

  func perform(context: ActionContext) throws {
    let table = table
    let removed = context[SelectedRowsKey.self].sorted(by: >).map { ($0, table.rows.remove(at: $0)) }
    context.undoHistory.register(named: "Delete Rows") {
      for (index, row) in removed.reversed() { table.rows.insert(row, at: index) }
    } redo: {
      for (index, _) in removed { table.rows.remove(at: index) }
    }
  }
}

func runManagerExample() throws -> [String] {
  let table = Table()
  let manager = ActionManager()
  try manager.register(DeleteRowsAction(table: table))

  var log = ["\(manager.validate("menu.DeleteRows", providers: [table]))"]  // disabled: no selection
  table.selection = [1]
  log.append("\(manager.perform("menu.DeleteRows", providers: [table]))")  // performed
  log.append(table.rows.joined(separator: ", "))  // alpha, gamma
  log.append(manager.validate("Edit.Undo").title ?? "")  // Undo Delete Rows
  manager.perform("Edit.Undo")
  log.append(table.rows.joined(separator: ", "))  // alpha, beta, gamma
  return log
}
// readme-example:end

@Suite struct ReadmeExampleTests {
  @Test func readmeExampleRuns() throws {
    #expect(
      try runManagerExample() == [
        "disabled, visible", "performed menu.DeleteRows", "alpha, gamma", "Undo Delete Rows",
        "alpha, beta, gamma",
      ])
  }

  @Test func readmeShowsThisExample() throws {
    try expectReadmeShows(marker: "readme-example", imports: ["import Actions"])
  }
}
