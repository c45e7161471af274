import Benchmark
import Fixtures
import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    warmupIterations: 3,
    scalingFactor: .kilo,
    maxDuration: .seconds(3),
    maxIterations: 10_000
  )

  // 1. Bubble: 64 nodes, one non-matching typed handler each, handled at the root.
  Benchmark("Bubble64") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.leaf.trigger(Hit()))
    }
  } setup: {
    ChainState(depth: 64)
  }

  // The same, 16 nodes deep: the reference for a click 16 deep.
  Benchmark("Bubble16") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.leaf.trigger(Hit()))
    }
  } setup: {
    ChainState(depth: 16)
  }

  // The same, 256 nodes deep: past the stack buffer for paths, the walk goes on in the spare heap buffer.
  Benchmark("Bubble256") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.leaf.trigger(Hit()))
    }
  } setup: {
    ChainState(depth: 256)
  }

  // 2. The reference loop: the same shape as arrays, walked with no library code.
  Benchmark("ReferenceLoop64") { benchmark, chain in
    let type = ObjectIdentifier(Hit.self)
    for _ in benchmark.scaledIterations {
      blackHole(chain.dispatch(type))
    }
  } setup: {
    ReferenceChain(depth: 64)
  }

  // The filter walk: a bare loop over the same 64 nodes testing one filter word per node, the
  // least a dispatch that skips non-matching nodes by a filter can do.
  Benchmark("FilterWalk64") { benchmark, chain in
    let bit = FilterChain.bit(for: ObjectIdentifier(Hit.self))
    for _ in benchmark.scaledIterations {
      blackHole(chain.dispatch(bit))
    }
  } setup: {
    FilterChain(depth: 64)
  }

  // One closure called through an existential: what handling an action on its own node cannot
  // do with less.
  Benchmark("DirectCall") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.call(Hit()))
    }
  } setup: {
    DirectCallState()
  }

  // A typed handler on the node that triggers.
  Benchmark("TriggerOnTarget") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.leaf.trigger(Hit()))
    }
  } setup: {
    ChainState(depth: 1)
  }

  // A typed handler 8 levels up (a 9-node chain of non-matching typed handlers).
  Benchmark("Trigger9Up") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.leaf.trigger(Hit()))
    }
  } setup: {
    ChainState(depth: 9)
  }

  // 3. Capture and bubble, tracing off and on.
  Benchmark("CaptureBubble64") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.leaf.trigger(Hit()))
    }
  } setup: {
    ChainState(depth: 64, captureEvery: 8)
  }

  Benchmark("CaptureBubble64Traced") { benchmark, state in
    let trace = ActionTrace()
    for _ in benchmark.scaledIterations {
      blackHole(state.leaf.trigger(Hit(), tracing: trace))
      trace.removeAll()
    }
  } setup: {
    ChainState(depth: 64, captureEvery: 8)
  }

  // 4. Wide tree: a root with 10,000 children; trigger from one of them.
  Benchmark("WideTree10k") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.leaf.trigger(Hit()))
    }
  } setup: {
    WideState(children: 10_000)
  }

  // A synchronous request answered 8 levels up (a small request and result).
  Benchmark("Request8Up") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(try? state.leaf.request(Lookup(key: 7)))
    }
  } setup: {
    RequestState(depth: 9)
  }

  // The same work in plain safe Swift over arrays and indexes, no library code: the reference.
  Benchmark("MinimalRequest8Up") { benchmark, chain in
    for _ in benchmark.scaledIterations {
      blackHole(chain.request(Lookup(key: 7)))
    }
  } setup: {
    MinimalRequestChain(depth: 9)
  }

  // The same with the rules the library keeps and that one skips (a capture phase, no modifier
  // added during the dispatch runs, a limit on nesting, the answering node): the reference with
  // rules.
  Benchmark("RuledRequest8Up") { benchmark, chain in
    for _ in benchmark.scaledIterations {
      blackHole(chain.request(Lookup(key: 7)))
    }
  } setup: {
    RuledRequestChain(depth: 9)
  }

  // The same with an untyped `onAction` observer at the root, as a logger would be.
  Benchmark("Request8UpObserved") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(try? state.leaf.request(Lookup(key: 7)))
    }
  } setup: {
    RequestState(depth: 9, observed: true)
  }

  // Memory of nodes with one typed handler each: 100,000 of them under one root, bytes per node
  // of resident memory grown by building them.
  let rssPerHandlerNode = BenchmarkMetric.custom("RSS bytes per node", useScalingFactor: false)
  Benchmark(
    "Build100kTypedHandlerNodes",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, rssPerHandlerNode], warmupIterations: 1, scalingFactor: .one,
      maxDuration: .seconds(10), maxIterations: 7)
  ) { benchmark in
    let before = MemorySnapshot()
    benchmark.startMeasurement()
    let root = Node {
      for _ in 0..<100_000 { Node().handleAction(Miss.self) { _ in } }
    }
    benchmark.stopMeasurement()
    let after = MemorySnapshot()
    benchmark.measurement(rssPerHandlerNode, (after.resident - before.resident) / 100_000)
    blackHole(root)
  }

  // 5. Build a 1,000,001-node tree with the result builder. Bytes per node: the resident set
  // grown by the build, after returning memory freed by earlier iterations to the system.
  let rssPerNode = BenchmarkMetric.custom("RSS bytes per node", useScalingFactor: false)
  Benchmark(
    "Build1M",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, rssPerNode],
      warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(20), maxIterations: 7)
  ) { benchmark in
    let before = MemorySnapshot()
    benchmark.startMeasurement()
    let root = declareWideTree(groups: 1_000, perGroup: 999)
    benchmark.stopMeasurement()
    let after = MemorySnapshot()
    benchmark.measurement(rssPerNode, (after.resident - before.resident) / 1_000_001)
    blackHole(root)
  }

  // The same process with no tree: the baseline for Build1M's peak resident memory.
  Benchmark(
    "Baseline",
    configuration: .init(
      metrics: [.peakMemoryResident], warmupIterations: 1, scalingFactor: .one, maxIterations: 7)
  ) { benchmark in
    blackHole(benchmark)
  }

  // Drawing a root with 10,000 and 100,000 unnamed children: linear in the number of nodes.
  for count in [10_000, 100_000] {
    Benchmark(
      "Describe\(count / 1_000)kSiblings",
      configuration: .init(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1, scalingFactor: .one, maxIterations: 20)
    ) { benchmark, root in
      for _ in benchmark.scaledIterations {
        blackHole(root.treeDescription())
      }
    } setup: {
      Node("root") { for _ in 0..<count { Node() } }
    }
  }

  // 6. Tear down that tree.
  Benchmark(
    "Teardown1M",
    configuration: .init(
      metrics: [.wallClock], warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(20),
      maxIterations: 7)
  ) { benchmark in
    var root: Node? = declareWideTree(groups: 1_000, perGroup: 999)
    benchmark.startMeasurement()
    root = nil
    benchmark.stopMeasurement()
    blackHole(root)
  }

  // 7. Declarative updates. A 1,000-node tree (10 groups of 99 rows), two modifiers per node,
  // declared again unchanged: the declaration is built and applied in each iteration, as a
  // toolkit's render does.
  Benchmark(
    "Redeclare1000Unchanged",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one, maxIterations: 2_000)
  ) { benchmark, tree in
    for _ in benchmark.scaledIterations {
      tree.update(to: declareThousand())
    }
  } setup: {
    NodeTree(declaring: declareThousand())
  }

  // One leaf of that tree re-declared with a new handler.
  Benchmark("RedeclareOneLeaf") { benchmark, state in
    let leaf = state.leaf
    for round in benchmark.scaledIterations {
      leaf.update(
        to: NodeDeclaration("row").handleAction(Hit.self) { _ in blackHole(round) }.onAction { _ in })
    }
  } setup: {
    LeafState()
  }

  // Per-view updates: one section view of a tree of views (two modifiers, 10 row views in
  // slots) updated to its declaration, built once and applied as a copy in each iteration, at two
  // tree sizes; and the same with the declaration built in each iteration, as a `body` does.
  for nodes in [10_000, 100_000] {
    Benchmark("UpdateOneViewOf\(nodes / 1_000)k") { benchmark, state in
      for _ in benchmark.scaledIterations {
        state.section.update(to: state.declaration)
      }
    } setup: {
      PerViewState(nodes: nodes)
    }
  }
  Benchmark("DeclareAndUpdateOneViewOf10k") { benchmark, state in
    for _ in benchmark.scaledIterations {
      state.section.update(to: declareSection(state.rows))
    }
  } setup: {
    PerViewState(nodes: 10_000)
  }

  // The root view updated with one frozen child view of 10,000 nodes, placed by a slot.
  Benchmark("UpdateFrozenSubtree10k") { benchmark, state in
    for _ in benchmark.scaledIterations {
      state.root.update(to: state.declaration)
    }
  } setup: {
    FrozenSubtreeState(nodes: 10_000)
  }

  // Focus: Tab in a tree of 100,101 nodes, to the next row, a sibling.
  Benchmark("FocusNext100k") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.moveFocus(.next))
    }
  } setup: {
    FocusNextState()
  }

  // Tab to a node 10,000 nodes on in tree order, past 9,999 that cannot take focus.
  Benchmark("FocusNextSparse100k", configuration: .init(scalingFactor: .one)) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.moveFocus(.next))
    }
  } setup: {
    FocusSparseState()
  }

  // The plain-Swift reference for it: the next set flag 10,000 elements on in an array.
  Benchmark("ReferenceFlagWalk10k", configuration: .init(scalingFactor: .one)) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.next())
    }
  } setup: {
    FlagWalkState()
  }

  // Right, then left, among 1,000 cells with frames in one scope.
  Benchmark("FocusDirection1k", configuration: .init(scalingFactor: .one)) { benchmark, state in
    for iteration in benchmark.scaledIterations {
      blackHole(state.tree.moveFocus(iteration % 2 == 0 ? .right : .left))
    }
  } setup: {
    FocusGridState()
  }

  // 1,000,000 siblings removed from the front, one by one.
  Benchmark(
    "RemoveFirstChild1M",
    configuration: .init(metrics: [.wallClock], warmupIterations: 0, scalingFactor: .one, maxIterations: 3)
  ) { benchmark in
    let root = Node { for _ in 0..<1_000_000 { Node() } }
    benchmark.startMeasurement()
    while (try? root.removeChild(at: 0)) != nil {}
    benchmark.stopMeasurement()
    blackHole(root)
  }

  // The pointer. Hit testing a point on a leaf of a 10-ary grid of frames 4 levels deep (11,111
  // nodes), and the reference: the same frames in plain structs, the same descent.
  Benchmark("HitTest10k") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.node(at: state.location))
    }
  } setup: {
    HitGridState()
  }
  Benchmark("MinimalHitTest10k") { benchmark, grid in
    for _ in benchmark.scaledIterations {
      blackHole(grid.hit(grid.location))
    }
  } setup: {
    MinimalHitGrid()
  }

  // A move between two leaves 64 deep whose paths part at depth 32: out and over, a leave and an
  // enter at the two branches' top nodes (the only ones that listen; 32 nodes change hover on
  // each side), and the move, handled at the root.
  Benchmark("PointerMoveHover64") { benchmark, state in
    for index in benchmark.scaledIterations {
      blackHole(state.tree.handlePointer(state.move(index)))
    }
  } setup: {
    HoverState()
  }

  // The same move in plain arrays, with the same descent, flags and sends (see
  // `MinimalHoverTree`).
  Benchmark("MinimalPointerMove64") { benchmark, tree in
    for index in benchmark.scaledIterations {
      blackHole(tree.move(to: index % 2 == 0 ? tree.left : tree.right))
    }
  } setup: {
    MinimalHoverTree()
  }

  // 1,000 views, made and declared beforehand, each placing itself in the middle of a section of
  // 100 placed rows (10 to a section in the tree of 10,000 nodes, one in the tree of 100,000);
  // only the placements are measured, the views are taken out again after.
  for (name, sections) in [("PlaceOneViewOf10k", 100), ("PlaceOneViewOf100k", 1_000)] {
    Benchmark(name) { benchmark, state in
      benchmark.startMeasurement()
      for index in benchmark.scaledIterations { state.place(index) }
      benchmark.stopMeasurement()
      for index in benchmark.scaledIterations { state.unplace(index) }
    } setup: {
      PlacementState(sections: sections, rows: 100, newRows: 1_000)
    }
  }

  // The same placements over plain classes and arrays: the reference.
  for (name, sections) in [("MinimalPlaceOneViewOf10k", 100), ("MinimalPlaceOneViewOf100k", 1_000)] {
    Benchmark(name) { benchmark, state in
      benchmark.startMeasurement()
      for index in benchmark.scaledIterations { state.place(index) }
      benchmark.stopMeasurement()
      for index in benchmark.scaledIterations { state.unplace(index) }
    } setup: {
      MinimalPlacementState(sections: sections, rows: 100, newRows: 1_000)
    }
  }

  // A row that places itself at index 500 of 1,000 placed rows (and at 5,000 of 10,000), and is
  // taken out again in the same iteration (the probe counts the insertion alone).
  for (name, rows) in [
    ("InsertAndRemoveRowInMiddle1000", 1_000), ("InsertAndRemoveRowInMiddle10000", 10_000),
  ] {
    Benchmark(name) { benchmark, state in
      for _ in benchmark.scaledIterations {
        state.place()
        state.unplace()
      }
    } setup: {
      PlacementState(sections: 1, rows: rows)
    }
  }

  // A branch of 10,000 and of 100,000 nodes made inactive and active again.
  for (name, size) in [
    ("DeactivateAndActivateBranch10k", 10_000), ("DeactivateAndActivateBranch100k", 100_000),
  ] {
    Benchmark(name) { benchmark, state in
      for _ in benchmark.scaledIterations {
        state.branch.isActive = false
        state.branch.isActive = true
      }
    } setup: {
      BranchState(size: size)
    }
  }

  // A press and a release on a leaf 16 deep that focus its eighth node and click the leaf.
  Benchmark("ClickToFocus16") { benchmark, state in
    for _ in benchmark.scaledIterations {
      state.click()
    }
  } setup: {
    ClickToFocusState()
  }

  // The same click in plain arrays (see `MinimalClickChain`).
  Benchmark("MinimalClickToFocus16") { benchmark, chain in
    for _ in benchmark.scaledIterations {
      blackHole(chain.click())
    }
  } setup: {
    MinimalClickChain()
  }

  // A chain with a trap in its middle removed from its tree (and so freed), with nothing focused
  // and with the focus at its bottom: the same growth at 10k, 100k and 1M deep.
  for depth in [10_000, 100_000, 1_000_000] {
    for focused in [false, true] {
      let name = "Remove\(focused ? "Focused" : "")Chain\(depth >= 1_000_000 ? "1M" : "\(depth / 1_000)k")"
      Benchmark(
        name,
        configuration: .init(
          metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1, scalingFactor: .one,
          maxDuration: .seconds(5), maxIterations: depth >= 1_000_000 ? 5 : 30)
      ) { benchmark, state in
        for _ in benchmark.scaledIterations {
          state.build()
          benchmark.startMeasurement()
          state.remove()
          benchmark.stopMeasurement()
        }
      } setup: {
        ChainRemovalState(depth: depth, focused: focused)
      }
    }
  }

  // A lookup by id that matches the first of 1,000,000 siblings.
  Benchmark("FirstChildLookup1M", configuration: .init(scalingFactor: .kilo)) { benchmark, root in
    for _ in benchmark.scaledIterations {
      blackHole(root.firstNode(withID: "first"))
    }
  } setup: {
    Node { for index in 0..<1_000_000 { Node(index == 0 ? "first" : nil) } }
  }
}

/// The tree of `declareThousand()` and one of its rows.
final class LeafState {
  let tree = NodeTree(declaring: declareThousand())
  var leaf: Node { tree.root.children[5].children[50] }
}

/// One closure behind an existential, called with an action.
final class DirectCallState {
  let call: (any Action) -> Bool
  init() {
    let handled: (any Action) -> Bool = { action in action is Hit }
    call = handled
  }
}

/// A root with many children, each with a non-matching typed handler.
final class WideState {
  let tree: NodeTree
  let leaf: Node
  init(children: Int) {
    let root = Node {
      for _ in 0..<children { Node().handleAction(Miss.self) { _ in } }
    }
    root.handleAction(Hit.self) { _ in }
    tree = try! NodeTree(root: root)
    leaf = root.children[children / 2]
  }
}
