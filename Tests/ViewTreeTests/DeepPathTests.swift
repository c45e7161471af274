import TestSupport
import Testing
import ViewTree

// Paths longer than the dispatch's inline buffer continue in a spare buffer shared by every tree,
// grown during the walk: these check that every node is on the path, in order, at the depths
// around the buffer's edges, and when dispatches nest or run on two threads at once.
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
}
