import TestSupport
import Testing
import ViewTree

// Paths longer than the dispatch's inline buffer continue in a spare buffer shared by every tree,
// grown during the walk: these check that every node is on the path, in order, at the depths
// around the buffer's edges, when dispatches nest in one tree or in two, when they run on two
// threads at once, when the tree goes away during one, and when the path is in no tree.
@Suite struct DeepPathTests {
  /// A chain `depth` nodes deep whose nodes each log their position when `Ping` passes; returns
  /// the tree and its nodes, root first.
  static func loggingChain(_ depth: Int, into log: Log) -> (NodeTree, [Node]) {
    let (tree, nodes) = makeChain(depth)
    for (position, node) in nodes.enumerated() {
      node.receiveAction(Ping.self) { _ in
        log("\(position)")
        return .unhandled
      }
    }
    return (tree, nodes)
  }

  @Test(arguments: [1, 63, 64, 65, 127, 128, 129, 300, 5_000])
  func everyNodeOfAPathOfThisDepthIsVisitedLeafFirst(depth: Int) {
    let log = Log()
    let (tree, nodes) = Self.loggingChain(depth, into: log)
    let leaf = nodes[depth - 1]
    for _ in 0..<2 {
      log.entries.removeAll()
      _ = leaf.trigger(Ping(count: 0))
      #expect(log.entries == (0..<depth).reversed().map { "\($0)" })
    }
    _ = tree
  }

  @Test func deepDispatchesNestedInDeepDispatchesEachKeepTheirOwnPath() {
    let outerLog = Log()
    let innerLog = Log()
    let (outerTree, outer) = Self.loggingChain(200, into: outerLog)
    let (innerTree, inner) = Self.loggingChain(700, into: innerLog)
    let innerLeaf = inner[699]
    // Halfway up the outer path, a dispatch up the deeper inner path, which needs a larger buffer
    // than the one the outer dispatch holds.
    outer[98].receiveAction(Ping.self) { ping in
      if ping.count == 0 { _ = innerLeaf.trigger(Ping(count: 1)) }
      return .unhandled
    }
    _ = outer[199].trigger(Ping(count: 0))
    #expect(outerLog.entries == (0..<200).reversed().map { "\($0)" })
    #expect(innerLog.entries == (0..<700).reversed().map { "\($0)" })
    _ = (outerTree, innerTree)
  }

  @Test func deepDispatchesOnTwoThreadsAtOnceEachSeeTheirOwnPath() async {
    // Each task builds and dispatches in a tree of its own; only the spare buffer is shared.
    let counts = await withTaskGroup(of: Bool.self) { group in
      for depth in [150, 400] {
        group.addTask {
          let log = Log()
          let (tree, nodes) = Self.loggingChain(depth, into: log)
          let leaf = nodes[depth - 1]
          let expected = (0..<depth).reversed().map { "\($0)" }
          var allRight = true
          for _ in 0..<500 {
            log.entries.removeAll(keepingCapacity: true)
            _ = leaf.trigger(Ping(count: 0))
            allRight = allRight && log.entries == expected
          }
          _ = tree
          return allRight
        }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(counts == [true, true])
  }

  @Test func deepDispatchesNestedInTheSameTreeEachKeepTheirOwnPath() {
    let log = Log()
    let (tree, nodes) = Self.loggingChain(300, into: log)
    // Near the top of the path, a deeper dispatch in the same tree, while the outer one holds
    // the tree's spare buffer.
    nodes[10].receiveAction(Ping.self) { [unowned leaf = nodes[299]] ping in
      if ping.count == 0 { _ = leaf.trigger(Ping(count: 1)) }
      return .unhandled
    }
    _ = nodes[150].trigger(Ping(count: 0))
    let outer = (0..<151).reversed().map { "\($0)" }
    let inner = (0..<300).reversed().map { "\($0)" }
    // The outer dispatch logs 150 ... 10 (node 10's logger comes before its nesting handler),
    // then the inner one all 300, then the outer 9 ... 0.
    #expect(log.entries == Array(outer[..<141]) + inner + Array(outer[141...]))
    log.entries.removeAll()
    _ = nodes[299].trigger(Ping(count: 2))
    #expect(log.entries == inner)
    _ = tree
  }

  @Test func aTreeReleasedDuringADeepDispatchLivesUntilItEnds() {
    let log = Log()
    weak var weakRoot: Node?
    var leaf: Node?
    do {
      var (tree, nodes): (NodeTree?, [Node]) = Self.loggingChain(200, into: log)
      weakRoot = nodes[0]
      leaf = nodes[199]
      // Halfway up, the handler lets go of the tree's only handle and of its nodes.
      let release = { tree = nil }
      nodes[100].receiveAction(Ping.self) { _ in
        release()
        return .unhandled
      }
      nodes = []
      _ = leaf?.trigger(Ping(count: 0))
      #expect(tree == nil)
    }
    #expect(log.entries == (0..<200).reversed().map { "\($0)" })
    // The dispatch ended: nothing keeps the root any more, nor the chain above the leaf, which
    // the test still holds, on its own.
    #expect(weakRoot == nil)
    #expect(leaf?.parent == nil)
    leaf = nil
  }

  @Test func aDeepPathInNoTreeIsNotDispatched() {
    var node = Node("leaf")
    let leaf = node
    for _ in 1..<200 {
      let child = node
      node = Node { child }
    }
    guard case .notDispatched(.notInTree) = leaf.trigger(Ping(count: 0)) else {
      Issue.record("expected notInTree")
      return
    }
    withExtendedLifetime(node) {}
  }
}
