import TestSupport
import Testing
@_spi(Invariants) import ViewTree

/// The article "Propagation rules" (`ViewTree.docc/PropagationRules.md`), rule 1: the path and each node's modifiers are snapshotted before any handler runs;
/// modifiers removed and nodes detached during the dispatch are not run afterwards.
@Suite struct MutationDuringDispatchTests {
  @Test func aModifierAddedDuringADispatchDoesNotSeeThatAction() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target")
    }
    let root = tree.root
    let target = try #require(tree.node(id: "target"))
    // Handlers hold their nodes unowned: a node owns its handlers.
    target.onAction { [unowned root, unowned target] _ in
      root.onAction { _ in log("added during the dispatch") }
      target.onAction { _ in log("added to the target during the dispatch") }
    }
    target.trigger(Save())
    #expect(log.entries.isEmpty)
    target.removeAllModifiers()
    target.trigger(Save())
    #expect(log.entries == ["added during the dispatch"])
  }

  @Test func aModifierRemovedDuringADispatchDoesNotRunAfterwards() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target")
    }
    let target = try #require(tree.node(id: "target"))
    tree.root.handleAction { _ in log("root handler") }
    let rootHandler = try #require(tree.root.modifiers.first).id
    let root = tree.root
    target
      .onAction { [unowned root] _ in try? root.removeModifier(rootHandler) }
    #expect(target.trigger(Save()).isHandled == false)
    #expect(log.entries.isEmpty)
  }

  @Test func removingALaterModifierOnTheSameNodeSkipsIt() throws {
    let log = Log()
    let tree = NodeTree("root") {}
    let root = tree.root
    root.onAction { [unowned root] _ in
      log("first")
      if let second = root.modifiers.dropFirst().first { try? root.removeModifier(second.id) }
    }
    root.onAction { _ in log("second") }
    root.onAction { _ in log("third") }
    tree.firstResponder.trigger(Save())
    #expect(log.entries == ["first", "third"])
  }

  @Test func removingEarlierModifiersDoesNotRepeatOrSkipLaterOnes() throws {
    let log = Log()
    let tree = NodeTree("root") {}
    let root = tree.root
    root.onAction { _ in log("first") }
    root.onAction { [unowned root] _ in
      log("second")
      for info in root.modifiers.prefix(2) { try? root.removeModifier(info.id) }
    }
    root.onAction { _ in log("third") }
    tree.firstResponder.trigger(Save())
    #expect(log.entries == ["first", "second", "third"])
  }

  @Test func aNodeDetachedDuringADispatchIsSkippedAndNodesAboveTheCutStillRun() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("a") {
        Node("b") {
          Node("target")
        }
        .onAction { _ in log("b") }
      }
      .onAction { _ in log("a") }
    }
    tree.root.onAction { _ in log("root") }
    let target = try #require(tree.node(id: "target"))
    let b = try #require(tree.node(id: "b"))
    target.onAction { [unowned b] _ in b.removeFromParent() }
    let trace = ActionTrace()
    let outcome = target.trigger(Save(), tracing: trace)
    #expect(outcome.isHandled == false)
    #expect(log.entries == ["a", "root"])
    let skipped = trace.steps.filter {
      if case .skippedDetachedNode = $0.result { return true }
      return false
    }
    #expect(skipped.map(\.node.id) == ["b"])
  }

  @Test func aNodeThatDetachesItselfRunsNoFurtherModifiers() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target")
    }
    let target = try #require(tree.node(id: "target"))
    target
      .onAction { [unowned target] _ in target.removeFromParent() }
      .onAction { _ in log("after detaching") }
    tree.root.onAction { _ in log("root") }
    target.trigger(Save())
    #expect(log.entries == ["root"])
  }

  @Test func aNodeMovedWithinTheTreeDuringADispatchStillRunsOnTheOriginalPath() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("left") {
        Node("middle") {
          Node("target")
        }
        .onAction { _ in log("middle") }
      }
      .onAction { _ in log("left") }
      Node("right").onAction { _ in log("right") }
    }
    let target = try #require(tree.node(id: "target"))
    let middle = try #require(tree.node(id: "middle"))
    let right = try #require(tree.node(id: "right"))
    target.onAction { [unowned right, unowned middle] _ in try? right.addChild(middle) }
    target.trigger(Save())
    #expect(log.entries == ["middle", "left"])
    log.entries = []
    target.trigger(Save())
    #expect(log.entries == ["middle", "right"])
  }

  @Test func aHandlerThatDropsTheOnlyHandleOfItsTreeSeesTheDispatchThrough() throws {
    // The dispatch does not retain a root that a live handle holds; a handle released during the
    // dispatch leaves the root to it until it ends.
    let log = Log()
    weak var weakRoot: Node?
    var outcome: ActionOutcome?
    do {
      var tree: NodeTree? = NodeTree("root") { Node("mid") { Node("leaf") } }
      weakRoot = tree?.root
      let leaf = try #require(tree?.node(id: "leaf"))
      leaf.onAction { _ in
        tree = nil
        log("dropped")
      }
      try #require(tree?.node(id: "mid")).onAction { _ in log("mid") }
      tree?.root.handleAction(Save.self) { _ in log("root") }
      outcome = leaf.trigger(Save())
      #expect(log.entries == ["dropped", "mid", "root"])
    }
    // The outcome names the root, which it keeps; nothing else does.
    #expect(outcome?.handler?.id == "root")
    #expect(weakRoot != nil)
    outcome = nil
    #expect(weakRoot == nil)
  }

  @Test func aHandleDroppedAndMadeAgainDuringNestedDispatchesKeepsTheTree() throws {
    let log = Log()
    weak var weakRoot: Node?
    var tree: NodeTree? = NodeTree("root") { Node("leaf") }
    weakRoot = tree?.root
    let leaf = try #require(tree?.node(id: "leaf"))
    var again: NodeTree?
    leaf.handleAction(Open.self) { [unowned leaf] open in
      // Nested: drop the handle, make another, drop that one too.
      tree = nil
      again = leaf.tree
      log("inner \(open.path) \(again?.isRooted == true)")
      again = nil
    }
    leaf.onAction(Save.self) { [unowned leaf] _ in
      log("outer")
      log("nested \(leaf.trigger(Open(path: "x")).isHandled)")
    }
    tree?.root.handleAction(Save.self) { _ in log("root") }
    #expect(leaf.trigger(Save()).isHandled)
    #expect(log.entries == ["outer", "inner x true", "nested true", "root"])
    // The dispatch ended and no handle is left: the root is gone, and the leaf with it.
    #expect(weakRoot == nil)
    #expect(leaf.parent == nil)
  }

  @Test func aDetachedNodeReleasedByItsHandlerStaysValidUntilTheDispatchEnds() throws {
    let log = Log()
    var tree: NodeTree? = NodeTree("root") {
      Node("a") {
        Node("b") {
          Node("target")
        }
      }
    }
    weak let weakB = tree?.node(id: "b")
    weak let weakTarget = tree?.node(id: "target")
    let a = try #require(tree?.node(id: "a"))
    let trigger = try #require(weakTarget).triggerAction
    try #require(weakTarget).onAction { [unowned a] _ in
      // Drop every reference the tree holds to `b` and its subtree, twice over.
      a.removeAllChildren()
      if let b = weakB { b.removeAllChildren() }
      log("removed")
    }
    a.onAction { _ in log("a still runs") }
    let outcome = trigger(Save())
    #expect(outcome.isHandled == false)
    #expect(log.entries == ["removed", "a still runs"])
    // Pinned nodes are released once the dispatch ends.
    #expect(weakB == nil)
    #expect(weakTarget == nil)
    tree = nil
  }

  @Test func childrenAddedDuringADispatchDoNotChangeThePath() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target")
    }
    let target = try #require(tree.node(id: "target"))
    target.onAction { [unowned tree, unowned target] _ in
      let wrapper = Node("wrapper").onAction { _ in log("wrapper") }
      try? tree.root.addChild(wrapper)
      try? wrapper.addChild(target)
    }
    tree.root.onAction { _ in log("root") }
    target.trigger(Save())
    #expect(log.entries == ["root"])
    log.entries = []
    target.trigger(Save())
    #expect(log.entries == ["wrapper", "root"])
  }

  /// Releases a closure's captures and runs `body` when they go: what a captured object's
  /// deinit may do.
  final class OnRelease {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    deinit { body() }
  }

  @Test func aClosureTheLibraryReleasesMayChangeTheNodeThatHeldIt() throws {
    let log = Log()
    let tree = NodeTree("root") { Node("target") }
    let target = try #require(tree.node(id: "target"))
    // A closure whose release adds a modifier to its own node and triggers there.
    func observer(_ label: String) -> (any Action) -> Void {
      let onRelease = OnRelease { [unowned target] in
        target.onAction { _ in log("\(label): added by a release") }
        target.trigger(Save())
      }
      return { _ in withExtendedLifetime(onRelease) {} }
    }
    // One modifier removed.
    target.onAction(observer("removed"))
    try target.removeModifier(try #require(target.modifiers.first).id)
    #expect(log.entries == ["removed: added by a release"])
    #expect(target.modifiers.count == 1)
    #expect(tree.checkInvariants().isEmpty)
    // Every modifier removed.
    log.entries = []
    target.onAction(observer("cleared"))
    target.removeAllModifiers()
    #expect(log.entries == ["cleared: added by a release"])
    #expect(target.modifiers.count == 1)
    #expect(tree.checkInvariants().isEmpty)
    // Closures replaced by an update: released after it, with the declared ones in place.
    log.entries = []
    tree.update(to: NodeDeclaration("root") { NodeDeclaration("target").onAction(observer("replaced")) })
    tree.update(to: NodeDeclaration("root") { NodeDeclaration("target").onAction { _ in log("declared") } })
    #expect(log.entries == ["declared", "replaced: added by a release"])
    #expect(target.modifiers.count == 2)
    #expect(tree.checkInvariants().isEmpty)
  }

  enum ReleasingKey: NodeAttachmentKey { static var defaultValue: OnRelease? { nil } }
  enum CountKey: NodeAttachmentKey { static var defaultValue: Int { 0 } }

  @Test func anAttachmentReleasedByItsRemovalMayChangeTheAttachments() {
    let node = Node("node")
    node[attachment: CountKey.self] = 1
    node[attachment: ReleasingKey.self] = OnRelease { [unowned node] in
      node.removeAttachment(CountKey.self)
      node[attachment: CountKey.self] = 2
    }
    node.removeAttachment(ReleasingKey.self)
    #expect(node[attachment: CountKey.self] == 2)
    #expect(!node.hasAttachment(ReleasingKey.self))
  }
}
