import Testing
import ViewTree

@Suite struct StrictHandlingTests {
  @Test func aStrictTreeTurnsUnhandledActionsIntoErrors() throws {
    let tree = NodeTree("root") { Node("leaf") }
    tree.requiresHandling = true
    var unhandled = 0
    tree.onUnhandled = { _, _ in unhandled += 1 }
    let outcome = tree.node(id: "leaf")!.trigger(Save())
    guard case .failed(let error, let thrower) = outcome else {
      Issue.record("expected failed, got \(outcome)")
      return
    }
    #expect(error as? ViewTreeError == .unhandledAction(action: "Save()", path: "root/leaf"))
    #expect(thrower.id == "leaf")
    #expect(unhandled == 1)
    tree.root.handleAction(Save.self) { _ in }
    #expect(tree.node(id: "leaf")!.trigger(Save()).isHandled)
  }

  @Test func aStrictSubtreeOnlyAffectsActionsFromWithinIt() throws {
    let tree = NodeTree("root") {
      Node("strict") { Node("inside") }
        .requiresHandling()
      Node("lenient")
    }
    guard case .failed = tree.node(id: "inside")!.trigger(Save()) else {
      Issue.record("an action from inside the strict subtree must fail")
      return
    }
    guard case .unhandled = tree.node(id: "lenient")!.trigger(Save()) else {
      Issue.record("an action from outside stays unhandled")
      return
    }
    #expect(tree.node(id: "strict")!.requiresHandling)
  }
}
