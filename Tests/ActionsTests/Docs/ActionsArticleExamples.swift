import Actions
import TestSupport
import Testing

// The Swift block of the Actions module's overview, between markers, compiled and run here
// (`DocsCompileTests` checks that the article shows exactly this region).

/// What the block takes from its surroundings: a document, the key that carries it, and the
/// controller that provides it.
enum ActionsOverviewContext {
  final class Document {
    var isDirty = true
    var saves = 0
    func save() throws { saves += 1 }
  }

  enum DocumentKey: ActionContextKey {
    static var defaultValue: Document? { nil }
  }

  final class DocumentController: ActionContextProvider {
    let document = Document()
    func provide(to context: ActionContext) { context[DocumentKey.self] = document }
  }
}

@Suite struct ActionsArticleExamples {
  typealias DocumentKey = ActionsOverviewContext.DocumentKey

  @Test func theOverviewValidatesAndPerformsWithAProvider() throws {
    let documentController = ActionsOverviewContext.DocumentController()
    let menuItem = "File > Save"
    // actions-overview:begin
    struct SaveAction: ManagedAction {
      func validate(context: ActionContext) -> Validation {
        context[DocumentKey.self]?.isDirty == true ? .enabled : .disabled
      }
      func perform(context: ActionContext) throws {
        try context[DocumentKey.self]?.save()
      }
    }

    let manager = ActionManager()
    try manager.register(SaveAction())  // as "Save"
    let isEnabled = manager.validate("menu.Save").isEnabled  // for the menu item: no document, disabled
    let result = manager.perform("menu.Save", sender: menuItem, providers: [documentController])
    // actions-overview:end
    #expect(!isEnabled)
    #expect(result.isPerformed)
    #expect(documentController.document.saves == 1)
  }
}
