import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

@Suite struct PerformThroughTreeTests {
  @Test func performStartsAtTheFocusAndTheNearestProvidersFillTheContext() throws {
    let editor = Editor()
    try editor.tree.focus(id: "editor")
    let result = editor.tree.firstResponder.perform("menu.Save")
    #expect(result.isPerformed)
    #expect(result.handler === editor.tree.root)
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
    guard case .unanswered(.unhandled(let action)) = result else {
      Issue.record("expected unanswered(unhandled), got \(result)")
      return
    }
    #expect((action as? any ManagedActionRequest)?.identifier == "Save")
    #expect(tree.node(id: "leaf")!.validate("Save") == .unavailable)
  }

  @Test func performsTravelAsOrdinaryActionsThatModifiersAndTracesSee() throws {
    let editor = Editor()
    var captured: [String] = []
    editor.node("sidebar").captureAction((any ManagedActionRequest).self) { request in
      captured.append(request.description)
      return request.identifier == "Forbidden" ? .handled : .unhandled
    }
    let trace = ActionTrace()
    #expect(editor.node("list").perform("DeleteRow", tracing: trace).isPerformed)
    #expect(captured == ["perform(DeleteRow)"])
    #expect(trace.steps.contains { $0.node.id == "window" && $0.modifier?.kind == .respond })

    let blocked = editor.node("list").perform("Forbidden")
    guard case .unanswered(.handled(let node, _)) = blocked else {
      Issue.record("expected the capture to stop it, got \(blocked)")
      return
    }
    #expect(node.id == "sidebar")
  }

  @Test func aTransformCanRedirectARequest() throws {
    let editor = Editor()
    editor.node("editor").transformAction((any ManagedActionRequest).self) { request in
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
    guard case .unanswered(.notDispatched(.notInTree)) = editor.tree.firstResponder.perform("Save") else {
      Issue.record("expected notInTree")
      return
    }
    #expect(editor.tree.firstResponder.validate("Save") == .unavailable)
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

/// Appends its node's depth to the "depths" list: nearest first when providers run in order.
struct DepthProvider: ActionContextProvider {
  let depth: Int
  func provide(to context: ActionContext) { context.append(depth, to: "depths") }
}

struct KeepContext: ManagedAction {
  let keep: (ActionContext) -> Void
  func perform(context: ActionContext) throws { keep(context) }
}

struct RecordDepths: ManagedAction {
  let record: ([Int]) -> Void
  func perform(context: ActionContext) throws { record(context.values(in: "depths", as: Int.self)) }
}

/// Performs and validations over paths of providers and managers, and every change to such a
/// path between two performs from the same node.
@Suite struct PerformPathTests {
  /// A chain of `depth` nodes under a manager at the root, each providing its depth; returns the
  /// tree and the nodes, root first.
  func chain(_ depth: Int, record: @escaping ([Int]) -> Void) throws -> (NodeTree, [Node]) {
    let manager = ActionManager()
    try manager.register(RecordDepths(record: record))
    let nodes = (0..<depth).map { Node("n\($0)") }
    for index in 1..<depth {
      try nodes[index - 1].addChild(nodes[index])
      nodes[index].provideActionContext(DepthProvider(depth: index))
    }
    nodes[0].actionManager(manager)
    return (try NodeTree(root: nodes[0]), nodes)
  }

  @Test func providersRunNearestFirstWithFewAndWithManyProviders() throws {
    for depth in [5, 40] {
      var seen: [Int] = []
      let (tree, nodes) = try chain(depth) { seen = $0 }
      #expect(nodes[depth - 1].perform("RecordDepths").isPerformed)
      #expect(seen == Array((1..<depth).reversed()))
      #expect(tree.root.children.count == 1)
    }
  }

  @Test func anObserverOfTheRequestTypeStillSeesEveryPerformAndValidation() throws {
    var seen: [Int] = []
    var observed: [String] = []
    let (tree, nodes) = try chain(4) { seen = $0 }
    nodes[2].onAction((any ManagedActionRequest).self) { request in observed.append("\(request)") }
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    #expect(nodes[3].validate("RecordDepths").isEnabled)
    #expect(observed == ["perform(RecordDepths)", "validate(RecordDepths)"])
    #expect(seen == [3, 2, 1])
    #expect(tree.root.children.count == 1)
  }

  @Test func aStepObserverSeesThePerform() throws {
    let (tree, nodes) = try chain(3) { _ in }
    var steps: [String] = []
    tree.stepObserver = { step in steps.append("\(step.node.id ?? "?") \(step.resultDescription)") }
    #expect(nodes[2].perform("RecordDepths").isPerformed)
    // Providers are what nodes provide, not modifiers: the manager's answer is the one step.
    #expect(steps == ["n0 handled"])
  }

  @Test func aRemovedProviderNoLongerProvides() throws {
    var seen: [Int] = []
    let (tree, nodes) = try chain(4) { seen = $0 }
    nodes[2].removeActionContextProviders()
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    #expect(seen == [3, 1])
    #expect(tree.root.children.count == 1)
  }

  @Test func aProviderDeclaredAfterTheManagerOnItsNodeProvides() throws {
    var seen: [Int] = []
    let (tree, nodes) = try chain(3) { seen = $0 }
    // The manager's node provides too, whichever it declared first.
    nodes[0].provideActionContext(DepthProvider(depth: 0))
    #expect(nodes[2].perform("RecordDepths").isPerformed)
    #expect(seen == [2, 1, 0])
    let window = Node("window") { Node("leaf") }
      .provideActionContext(DepthProvider(depth: 10))
    let manager = ActionManager()
    try manager.register(RecordDepths { seen = $0 })
    window.actionManager(manager).provideActionContext(DepthProvider(depth: 11))
    _ = try NodeTree(root: window)
    #expect(window.children[0].perform("RecordDepths").isPerformed)
    #expect(seen == [10, 11])
    withExtendedLifetime(tree) {}
  }

  @Test func nodesAboveTheManagerDoNotProvide() throws {
    var seen: [Int] = []
    let (tree, nodes) = try chain(4) { seen = $0 }
    let inner = ActionManager()
    try inner.register(RecordDepths { seen = $0 })
    nodes[2].actionManager(inner)
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    #expect(seen == [3, 2])
    #expect(nodes[3].validate("RecordDepths").isEnabled)
    withExtendedLifetime(tree) {}
  }

  @Test func aProviderRemovedByANearerProviderDuringThePerformDoesNotProvide() throws {
    var seen: [Int] = []
    let (tree, nodes) = try chain(5) { seen = $0 }
    nodes[4].provideActionContext { [unowned node = nodes[2]] _ in node.removeActionContextProviders() }
    #expect(nodes[4].perform("RecordDepths").isPerformed)
    #expect(seen == [4, 3, 1])
    #expect(nodes[2].hasAttachments == false)
    withExtendedLifetime(tree) {}
  }

  @Test func aNodeCutFromThePathByANearerProviderDoesNotProvideButThoseAboveTheCutDo() throws {
    var seen: [Int] = []
    let (tree, nodes) = try chain(5) { seen = $0 }
    // The leaf's provider detaches n2 (with n3 and the leaf) while the manager reads providers.
    nodes[4].provideActionContext { [unowned node = nodes[2]] _ in _ = node.removeFromParent() }
    #expect(nodes[4].perform("RecordDepths").isPerformed)
    #expect(seen == [4, 1])
    #expect(nodes[2].parent == nil)
    withExtendedLifetime(tree) {}
  }

  @Test(.stress) func aNodeWithManyProvidersCallsThemInOrderWithoutRecursion() throws {
    var seen: [Int] = []
    let (tree, nodes) = try chain(2) { seen = $0 }
    nodes[1].removeActionContextProviders()
    for depth in 0..<10_000 { nodes[1].provideActionContext(DepthProvider(depth: depth)) }
    #expect(nodes[1].perform("RecordDepths").isPerformed)
    #expect(seen == Array(0..<10_000))
    withExtendedLifetime(tree) {}
  }

  @Test func anUpdateReplacesADeclaredNodesProviders() throws {
    var seen: [Int] = []
    let manager = ActionManager()
    try manager.register(RecordDepths { seen = $0 })
    func declare(_ depths: [Int]) -> NodeDeclaration {
      var leaf = NodeDeclaration("leaf")
      for depth in depths { leaf = leaf.provideActionContext(DepthProvider(depth: depth)) }
      return NodeDeclaration("root") { leaf }.actionManager(manager)
    }
    let tree = NodeTree(declaring: declare([1, 2]))
    let leaf = try #require(tree.node(id: "leaf"))
    #expect(leaf.perform("RecordDepths").isPerformed)
    #expect(seen == [1, 2])
    tree.update(to: declare([3]))
    #expect(leaf.perform("RecordDepths").isPerformed)
    #expect(seen == [3])
    tree.update(to: declare([]))
    #expect(leaf.perform("RecordDepths").isPerformed)
    #expect(seen == [])
  }

  // Every change to the path between two performs from the same node must show.

  @Test func aRepeatedPerformSeesProvidersAddedAndRemovedOnItsPath() throws {
    var seen: [Int] = []
    let (tree, nodes) = try chain(4) { seen = $0 }
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    #expect(seen == [3, 2, 1])
    nodes[2].provideActionContext(DepthProvider(depth: 20))
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    #expect(seen == [3, 2, 20, 1])
    nodes[1].removeActionContextProviders()
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    #expect(seen == [3, 2, 20])
    nodes[2].removeActionContextProviders()
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    #expect(seen == [3])
    #expect(tree.root.children.count == 1)
  }

  @Test func aRepeatedPerformFollowsTheNodeToAnotherTreeAndManager() throws {
    var first: [Int] = []
    var second: [Int] = []
    let (tree, nodes) = try chain(4) { first = $0 }
    let (otherTree, otherNodes) = try chain(2) { second = $0 }
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    try otherNodes[1].addChild(nodes[3])
    #expect(nodes[3].perform("RecordDepths").isPerformed)
    #expect(first == [3, 2, 1])
    #expect(second == [3, 1])
    #expect(nodes[3].removeFromParent())
    #expect(nodes[3].perform("RecordDepths").isNotInTree)
    #expect(tree.root.children.count == 1)
    #expect(otherTree.root.children.count == 1)
  }

  @Test func aRepeatedPerformFromANodeWhoseTreeAndAncestorsAreGoneIsNotInATree() throws {
    var seen: [Int] = []
    let leaf: Node
    do {
      let (tree, nodes) = try chain(4) { seen = $0 }
      withExtendedLifetime(tree) { #expect(nodes[3].perform("RecordDepths").isPerformed) }
      leaf = nodes[3]
    }
    // The tree, the manager and the ancestors are freed; the leaf remembers them unretained.
    #expect(leaf.parent == nil)
    #expect(leaf.perform("RecordDepths").isNotInTree)
    #expect(seen == [3, 2, 1])
  }

  @Test func aTreeWhoseHandleIsReleasedGoesOnPerformingWhileItsRootLives() throws {
    var seen: [Int] = []
    let root: Node
    let leaf: Node
    do {
      let (tree, nodes) = try chain(3) { seen = $0 }
      withExtendedLifetime(tree) { #expect(nodes[2].perform("RecordDepths").isPerformed) }
      root = nodes[0]
      leaf = nodes[2]
    }
    // The handle is released; the tree lives in its root, which is held, with its manager.
    #expect(leaf.perform("RecordDepths").isPerformed)
    #expect(seen == [2, 1])
    #expect(root.children.count == 1)
    #expect(leaf.tree?.root === root)
  }

  @Test func aContextAnActionKeepsKeepsItsSenderNodeAlive() throws {
    // The manager lends the context the node that performs unretained while the perform runs; a
    // context that outlives it must retain the node.
    var kept: [ActionContext] = []
    weak var weakNode: Node?
    do {
      let manager = ActionManager()
      try manager.register(KeepContext { kept.append($0) })
      let tree = NodeTree { Node("sender") }
      tree.root.actionManager(manager)
      let node = try #require(tree.root.children.first)
      weakNode = node
      #expect(node.perform("KeepContext").isPerformed)
      #expect(node.removeFromParent())
    }
    #expect(weakNode != nil)
    #expect((kept.first?.sender as? Node)?.id == "sender")
    kept.removeAll()
    #expect(weakNode == nil)
  }

  @Test func aPerformInsideAPerformHasItsOwnProvidersAndSenderAndTheOuterKeepsItsOwn() throws {
    // The tree recycles one travelling context; a perform that starts while another travels must
    // not share it.
    var seen: [String] = []
    let manager = ActionManager()
    let (tree, nodes) = try chain(4) { _ in }
    let inner = nodes[1]
    try manager.register(
      KeepContext { context in
        seen.append(
          "outer \(context.values(in: "depths", as: Int.self)) \((context.sender as? Node)?.id ?? "-")")
        #expect(inner.perform("Inner", sender: "the inner sender").isPerformed)
        seen.append("outer again \(context.values(in: "depths", as: Int.self))")
      }, as: "Outer")
    try manager.register(
      KeepContext { context in
        seen.append("inner \(context.values(in: "depths", as: Int.self)) \(context.sender as? String ?? "-")")
      }, as: "Inner")
    nodes[0].actionManager(manager)
    #expect(nodes[3].perform("Outer").isPerformed)
    #expect(nodes[3].perform("Outer").isPerformed)
    #expect(
      seen == [
        "outer [3, 2, 1] n3", "inner [1] the inner sender", "outer again [3, 2, 1]",
        "outer [3, 2, 1] n3", "inner [1] the inner sender", "outer again [3, 2, 1]",
      ])
    _ = tree
  }

  @Test func aRequestAModifierKeepsStillDescribesItsPerformAfterwards() throws {
    // A kept request keeps its travelling context; the tree does not clear it for the next one.
    var kept: [any ManagedActionRequest] = []
    let (tree, nodes) = try chain(3) { _ in }
    nodes[1].onAction((any ManagedActionRequest).self) { kept.append($0) }
    #expect(nodes[2].perform("RecordDepths").isPerformed)
    #expect(nodes[2].perform("Unknown", sender: "a button").isPerformed == false)
    #expect(kept.count == 2)
    #expect(kept.map(\.identifier) == ["RecordDepths", "Unknown"])
    #expect((kept[0].sender as? Node)?.id == "n2")
    #expect(kept[1].sender as? String == "a button")
    #expect(kept.map(\.description) == ["perform(RecordDepths)", "perform(Unknown)"])
    _ = tree
  }

  @Test func anActionThatPerformsItselfThroughTheTreeStopsAtTheReentrancyLimit() throws {
    let manager = ActionManager()
    let tree = NodeTree("root") { Node("leaf") }
    let leaf = try #require(tree.node(id: "leaf"))
    var depth = 0
    var innermost: RequestResult<PerformResult>?
    try manager.register(
      Recurse { [unowned leaf] in
        depth += 1
        let result = leaf.perform("Recurse")
        if case .unanswered = result { innermost = result }
      })
    tree.root.actionManager(manager)
    try tree.setReentrancyLimit(5)
    #expect(leaf.perform("Recurse").isPerformed)
    #expect(depth == 5)
    #expect("\(innermost.map { "\($0)" } ?? "none")".contains("reentrancy limit"))
  }

  @Test func itemsValidateTheSameWhenAValidationChangesTheTree() throws {
    let manager = ActionManager()
    let tree = NodeTree("root") {
      Node("menu") {
        Node("a").actionItem("Mutate(n: 1)")
        Node("b").actionItem("Mutate(n: 2)")
        Node("c").actionItem("Mutate(n: 3)")
      }
      Node("editor").focusable()
    }
    var validations = 0
    try manager.register(
      Mutate { [unowned tree] in
        validations += 1
        // The second validation adds a capture that blocks every request from then on.
        if validations == 2 {
          tree.root.captureAction((any ManagedActionRequest).self) { _ in .handled }
        }
      })
    tree.root.actionManager(manager)
    try tree.focus(id: "editor")
    let results = tree.validateItems().map(\.validation.isEnabled)
    #expect(results == [true, true, false])
    #expect(validations == 2)
  }
}

struct Recurse: ManagedAction {
  let body: () -> Void
  func perform(context: ActionContext) throws { body() }
}

struct Mutate: ManagedAction {
  let body: () -> Void
  func validate(context: ActionContext) -> Validation {
    body()
    return .enabled
  }
  func perform(context: ActionContext) throws {}
}

extension RequestResult<PerformResult> {
  var isNotInTree: Bool {
    if case .unanswered(.notDispatched(.notInTree)) = self { return true }
    return false
  }
}
