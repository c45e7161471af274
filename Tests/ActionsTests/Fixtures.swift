import Actions
import TestSupport

struct SaveDocumentAction: ManagedAction {
  let recorder: Log
  func perform(context: ActionContext) throws { recorder("save") }
}

struct DoActionStuff: ManagedAction {
  func perform(context: ActionContext) throws {}
}

enum DocumentNameKey: ActionContextKey {
  static let defaultValue = "Untitled"
}

/// Enabled only when something is selected.
struct DeleteRowAction: ManagedAction {
  let recorder: Log
  func validate(context: ActionContext) -> Validation {
    context[SelectionKey.self].isEmpty
      ? .disabled : Validation(title: "Delete \(context[SelectionKey.self].count) Rows")
  }
  func perform(context: ActionContext) throws { recorder("delete \(context[SelectionKey.self])") }
}

struct FailingAction: ManagedAction {
  struct Failure: Error, Equatable {}
  func perform(context: ActionContext) throws { throw Failure() }
}

struct SetColorAction: ManagedAction {
  let recorder: Log
  func perform(context: ActionContext) throws {
    let color = context.value(forKey: "color", as: String.self) ?? "none"
    let size = context.value(forKey: "size", as: Int.self) ?? 0
    recorder("color \(color) size \(size)")
  }
}

struct DownloadAction: AsyncManagedAction {
  let recorder: Log
  func perform(context: ActionContext) async throws {
    await Task.yield()
    recorder("downloaded")
  }
}

/// A provider that sets a single value and appends itself to a list.
final class Provider: ActionContextProvider {
  let name: String
  let selection: [Int]?
  init(_ name: String, selection: [Int]? = nil) {
    self.name = name
    self.selection = selection
  }
  func provide(to context: ActionContext) {
    if let selection { context[SelectionKey.self] = selection }
    context.set(name, forKey: "provider")
    context.append(self, to: "observers")
    context.append(name, to: "names")
  }
}
