import Actions
import Testing
import ViewTree
import ViewTreeActions

// Any closure the engine calls (a provider, a managed action, a modifier) may add or remove
// modifiers, nodes, managers, or drop the tree; nothing it does may free memory the dispatch
// still uses. The first two cases free what a perform's path holds while it runs; CI runs this
// suite under AddressSanitizer, which reports a use after free.

/// An action that runs a closure, so a test can do anything from inside a perform.
struct RunAction: ManagedAction {
  let body: () -> Void
  func perform(context: ActionContext) throws { body() }
}

@Suite struct UserCodeMutationTests {
  /// `root(mid(leaf))` with a manager on the root that registers `Noop`, a provider on `mid`, and
  /// on `leaf` a provider that removes the providers of `mid` while the manager reads them.
  func treeWhoseLeafRemovesTheMiddleProvider() throws -> (NodeTree, Node, Node) {
    let tree = NodeTree("root") { Node("mid") { Node("leaf").focusable() } }
    let manager = ActionManager()
    try manager.register(RunAction {}, as: "Noop")
    tree.root.actionManager(manager)
    let mid = try #require(tree.node(id: "mid"))
    let leaf = try #require(tree.node(id: "leaf"))
    mid.provideActionContext { $0.set(1, forKey: "mid") }
    leaf.provideActionContext { [unowned mid] _ in mid.removeActionContextProviders() }
    leaf.bindKey("ctrl+n", to: "Noop")
    return (tree, mid, leaf)
  }

  @Test func aProviderThatRemovesAnotherProviderDuringAPerform() throws {
    let (tree, mid, leaf) = try treeWhoseLeafRemovesTheMiddleProvider()
    defer { withExtendedLifetime(tree) {} }
    let result = leaf.perform("Noop")
    #expect(result.isPerformed)
    #expect(!mid.hasAttachments)
    // Again, now that the middle provider is gone.
    #expect(leaf.perform("Noop").isPerformed)
  }

  @Test func aProviderThatRemovesAnotherProviderDuringKeyHandling() throws {
    let (tree, _, leaf) = try treeWhoseLeafRemovesTheMiddleProvider()
    try tree.focus(leaf)
    #expect(
      try tree.firstResponder.handleKey(KeyChord(parsing: "ctrl+n")).description.contains("performed Noop"))
  }

  @Test func aProviderThatRemovesAnotherProviderDuringItemValidation() throws {
    let (tree, _, leaf) = try treeWhoseLeafRemovesTheMiddleProvider()
    try tree.root.addChild(
      Node("menu") {
        Node("a").actionItem("Noop")
        Node("b").actionItem("Noop")
      })
    try tree.focus(leaf)
    #expect(tree.validateItems(in: tree.node(id: "menu")).map(\.validation.isEnabled) == [true, true])
  }

  @Test func anActionThatReplacesTheManagerPerformingIt() throws {
    let tree = NodeTree("root") { Node("leaf") }
    weak var firstManager: ActionManager?
    var replaced = false
    do {
      let manager = ActionManager()
      firstManager = manager
      try manager.register(
        RunAction { [unowned tree] in
          // The node is the manager's only owner: replacing it drops the manager mid-perform.
          tree.root.actionManager(ActionManager())
          replaced = true
        }, as: "Replace")
      tree.root.actionManager(manager)
    }
    let leaf = try #require(tree.node(id: "leaf"))
    let result = leaf.perform("Replace")
    #expect(replaced)
    #expect(result.isPerformed)
    #expect(firstManager == nil)
    // The new manager answers now, and does not know the identifier.
    guard case .answered(.unknown, _) = leaf.perform("Replace") else {
      Issue.record("expected the new manager to answer unknown")
      return
    }
  }

  @Test func anActionThatDropsTheTreeAndItsNodes() throws {
    weak var weakTree: NodeTree?
    weak var weakLeaf: Node?
    var result: RequestResult<PerformResult>?
    do {
      var tree: NodeTree? = NodeTree("root") { Node("mid") { Node("leaf") } }
      weakTree = tree
      let manager = ActionManager()
      let leaf = try #require(tree?.node(id: "leaf"))
      weakLeaf = leaf
      try manager.register(
        RunAction {
          // Detach everything below the root and drop the last strong reference to the tree.
          tree?.root.removeAllChildren()
          tree = nil
        }, as: "Drop")
      tree?.root.actionManager(manager)
      leaf.provideActionContext { $0.set(true, forKey: "seen") }
      result = leaf.perform("Drop")
    }
    #expect(result?.isPerformed == true)
    #expect(weakTree == nil)
    #expect(weakLeaf == nil)
  }

  @Test func aProviderThatRemovesItsOwnNodeAndTheManagersNode() throws {
    let tree = NodeTree("root") { Node("window") { Node("panel") { Node("leaf") } } }
    let manager = ActionManager()
    try manager.register(RunAction {}, as: "Noop")
    let window = try #require(tree.node(id: "window"))
    window.actionManager(manager)
    let leaf = try #require(tree.node(id: "leaf"))
    leaf.provideActionContext { [unowned window] _ in
      // Providers run while the manager builds the context: the manager's node (and this one)
      // leave the tree in the middle of the perform.
      window.removeFromParent()
    }
    #expect(leaf.perform("Noop").isPerformed)
    #expect(window.parent == nil)
    // Now the leaf is outside the tree.
    guard case .unanswered(.notDispatched(.notInTree)) = leaf.perform("Noop") else {
      Issue.record("expected notInTree once the leaf left the tree")
      return
    }
  }

  @Test func anAwaitedPerformRunsAsyncActionsWithTheTreesProviders() async throws {
    struct Fetch: AsyncManagedAction {
      let log: (String) -> Void
      nonisolated(nonsending) func perform(context: ActionContext) async throws {
        await Task.yield()
        log(context.value(forKey: "document", as: String.self) ?? "none")
      }
    }
    var seen: [String] = []
    let tree = NodeTree("root") { Node("editor").focusable() }
    let manager = ActionManager()
    try manager.register(Fetch { seen.append($0) })
    tree.root.actionManager(manager)
    var provided = 0
    tree.node(id: "editor")?.provideActionContext {
      provided += 1
      $0.set("draft.txt", forKey: "document")
    }
    try tree.focus(id: "editor")
    // Synchronously, an asynchronous action cannot run and says so, before any provider runs.
    let synchronous = { tree.firstResponder.perform("Fetch") }
    guard case .answered(.failed(_, ActionsError.requiresAwait("Fetch")), _) = synchronous() else {
      Issue.record("expected requiresAwait")
      return
    }
    #expect(provided == 0)
    #expect(await tree.firstResponder.perform("menu.Fetch").isPerformed)
    #expect(provided == 1)
    #expect(seen == ["draft.txt"])
    // Async key handling takes the same route.
    tree.root.bindKey("ctrl+f", to: "Fetch")
    #expect(
      await tree.firstResponder.handleKey(try KeyChord(parsing: "ctrl+f")).description.contains(
        "performed Fetch"))
    #expect(seen == ["draft.txt", "draft.txt"])
  }
}
