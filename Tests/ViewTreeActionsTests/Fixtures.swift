import Actions
import TestSupport
import ViewTree
import ViewTreeActions

enum DocumentKey: ActionContextKey {
  static let defaultValue: String? = nil
}

final class Model {
  var rows = ["alpha", "beta", "gamma"]
  var selection: [Int] = [1]
  var saves: [String] = []
  var colors: [String] = []
  /// Who asked, described (the model must not hold senders: a sender can be a node of the tree
  /// whose providers hold this model).
  var senders: [String] = []
}

struct SaveAction: ManagedAction {
  let model: Model
  func validate(context: ActionContext) -> Validation {
    context[DocumentKey.self] == nil ? .disabled : Validation(title: "Save \(context[DocumentKey.self]!)")
  }
  func perform(context: ActionContext) throws {
    model.saves.append(context[DocumentKey.self] ?? "?")
    model.senders.append("\(context.sender)")
  }
}

struct DeleteRowAction: ManagedAction {
  let model: Model
  func validate(context: ActionContext) -> Validation {
    context[SelectionKey.self].isEmpty ? .disabled : .enabled
  }
  func perform(context: ActionContext) throws {
    let model = model
    let removed = context[SelectionKey.self].sorted(by: >).map { ($0, model.rows.remove(at: $0)) }
    context.undoHistory.register(named: "Delete Row") {
      for (index, row) in removed.reversed() { model.rows.insert(row, at: index) }
    } redo: {
      for (index, _) in removed { model.rows.remove(at: index) }
    }
  }
}

struct SetColorAction: ManagedAction {
  let model: Model
  func perform(context: ActionContext) throws {
    model.colors.append(context.value(forKey: "color", as: String.self) ?? "none")
    model.senders.append("\(context.sender)")
  }
}

/// A small document editor:
///
/// ```
/// window (manager)
/// ├─ menubar
/// │  ├─ file: save
/// │  └─ edit: undo, redo, delete, red
/// ├─ sidebar
/// │  └─ list (selection provider)
/// └─ editor (document provider)
/// ```
struct Editor {
  let model = Model()
  let manager = ActionManager()
  let tree: NodeTree

  init() {
    let model = model
    tree = NodeTree("window") {
      Node("menubar") {
        Node("file") {
          Node("save").actionItem("menu.Save")
        }
        Node("edit") {
          Node("undo").actionItem("menu.Undo")
          Node("redo").actionItem("menu.Redo")
          Node("delete").actionItem("menu.DeleteRow")
          Node("red").actionItem(#"color.SetColor("color": "red")"#)
        }
      }
      Node("sidebar") {
        Node("list")
          .focusable()
          .provideActionContext { context in context[SelectionKey.self] = model.selection }
      }
      Node("editor")
        .focusable()
        .provideActionContext { context in context[DocumentKey.self] = "report.txt" }
    }
    try! manager.register([
      SaveAction(model: model), DeleteRowAction(model: model), SetColorAction(model: model),
    ])
    tree.root.actionManager(manager)
  }

  func node(_ id: String) -> Node { tree.node(id: id)! }
}
