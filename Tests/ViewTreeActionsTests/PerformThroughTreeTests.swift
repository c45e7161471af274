import Actions
import Testing
import ViewTree
import ViewTreeActions

@Suite struct PerformThroughTreeTests {
  @Test func performStartsAtTheFocusAndTheNearestProvidersFillTheContext() throws {
    let editor = Editor()
    try editor.tree.focus(id: "editor")
    let result = editor.tree.perform("menu.Save")
    #expect(result.isPerformed)
    #expect(result.manager === editor.tree.root)
    #expect(editor.model.saves == ["report.txt"])
    #expect(editor.model.senders.first == "window/editor")
  }

  @Test func theNearestProviderWinsAndListsCollectNearestFirst() throws {
    var seen: (value: String?, list: [String]) = (nil, [])
    let manager = ActionManager()
    try manager.register(
      InspectAction { context in
        seen = (context.value(forKey: "who", as: String.self), context.values(in: "chain", as: String.self))
      })
    let tree = NodeTree("root") {
      Node("outer") {
        Node("inner") {
          Node("leaf")
        }
        .provideActionContext { context in
          context.set("inner", forKey: "who")
          context.append("inner", to: "chain")
        }
      }
      .provideActionContext { context in
        context.set("outer", forKey: "who")
        context.append("outer", to: "chain")
      }
    }
    tree.root.actionManager(manager)
    let leaf = try #require(tree.node(id: "leaf"))
    #expect(leaf.perform("Inspect").isPerformed)
    #expect(seen.value == "inner")
    #expect(seen.list == ["inner", "outer"])
  }

  @Test func theNearestManagerPerformsEvenWhenItDoesNotKnowTheIdentifier() throws {
    let editor = Editor()
    let inner = ActionManager()
    editor.node("sidebar").actionManager(inner)
    let result = editor.node("list").perform("DeleteRow")
    guard case .answered(.unknown(let identifier), let manager) = result else {
      Issue.record("expected the inner manager to answer unknown, got \(result)")
      return
    }
    #expect(identifier.name == "DeleteRow")
    #expect(manager.id == "sidebar")
    #expect(editor.node("sidebar").attachedActionManager === inner)
  }

  @Test func withoutAManagerTheResultSaysWhy() {
    let tree = NodeTree("root") { Node("leaf") }
    let result = tree.node(id: "leaf")!.perform("Save")
    guard case .notPerformed(.unhandled(let action)) = result else {
      Issue.record("expected notPerformed(unhandled), got \(result)")
      return
    }
    #expect((action as? ManagedActionRequest)?.identifier == "Save")
    #expect(tree.node(id: "leaf")!.validate("Save") == .unavailable)
  }

  @Test func performsTravelAsOrdinaryActionsThatModifiersAndTracesSee() throws {
    let editor = Editor()
    var captured: [String] = []
    editor.node("sidebar").captureAction(ManagedActionRequest.self) { request in
      captured.append(request.description)
      return request.identifier == "Forbidden" ? .handled : .unhandled
    }
    let trace = ActionTrace()
    #expect(editor.node("list").perform("DeleteRow", tracing: trace).isPerformed)
    #expect(captured == ["perform(DeleteRow)"])
    #expect(trace.steps.contains { $0.node.id == "window" && $0.modifier?.kind == .respond })

    let blocked = editor.node("list").perform("Forbidden")
    guard case .notPerformed(.handled(let node, _)) = blocked else {
      Issue.record("expected the capture to stop it, got \(blocked)")
      return
    }
    #expect(node.id == "sidebar")
  }

  @Test func aTransformCanRedirectARequest() throws {
    let editor = Editor()
    editor.node("editor").transformAction(ManagedActionRequest.self) { request in
      request.identifier == "Store" ? request.redirected(to: "Save") : request
    }
    let result = editor.node("editor").perform("Store")
    #expect(result.isPerformed)
    #expect(editor.model.saves == ["report.txt"])
  }

  @Test func validationUsesTheSameContextAndPerformsNothing() throws {
    let editor = Editor()
    var events = 0
    editor.manager.addObserver { _ in events += 1 }
    #expect(editor.node("editor").validate("Save") == Validation(title: "Save report.txt"))
    #expect(editor.node("list").validate("Save") == .disabled)
    #expect(editor.model.saves.isEmpty)
    #expect(events == 0)
  }

  @Test func anOwnerProvidesWhileItLivesAndTheNodeDoesNotKeepItAlive() throws {
    final class Controller: ActionContextProvider {
      func provide(to context: ActionContext) { context[DocumentKey.self] = "owned.txt" }
    }
    let editor = Editor()
    let node = Node("panel")
    try editor.tree.root.addChild(node)
    var controller: Controller? = Controller()
    weak let weakController = controller
    node.provideActionContext(weak: controller!)
    #expect(node.validate("Save") == Validation(title: "Save owned.txt"))
    controller = nil
    #expect(weakController == nil)
    #expect(node.validate("Save") == .disabled)
  }

  @Test func aTreeWhoseRootWasAdoptedPerformsNothing() throws {
    let editor = Editor()
    let elsewhere = Node("elsewhere")
    try elsewhere.addChild(editor.tree.root)
    guard case .notPerformed(.notDispatched(.notInTree)) = editor.tree.perform("Save") else {
      Issue.record("expected notInTree")
      return
    }
    #expect(editor.tree.validate("Save") == .unavailable)
    #expect(editor.tree.validateItems().allSatisfy { $0.validation == .unavailable })
    // Releasing the adopting node frees the root from it, and the tree works again.
    _ = consume elsewhere
    #expect(editor.tree.isRooted)
  }
}

/// Hands its context to a closure.
struct InspectAction: ManagedAction {
  let inspect: (ActionContext) -> Void
  func perform(context: ActionContext) throws { inspect(context) }
}
