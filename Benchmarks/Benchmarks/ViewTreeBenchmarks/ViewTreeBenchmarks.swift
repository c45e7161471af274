import Benchmark
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

  // 2. The reference loop: the same shape as arrays, walked with no library code.
  Benchmark("ReferenceLoop64") { benchmark, chain in
    let type = ObjectIdentifier(Hit.self)
    for _ in benchmark.scaledIterations {
      blackHole(chain.dispatch(type))
    }
  } setup: {
    ReferenceChain(depth: 64)
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
}

/// A chain and its bottom node, built once per benchmark.
final class ChainState {
  let tree: NodeTree
  let leaf: Node
  init(depth: Int, captureEvery: Int? = nil) {
    (tree, leaf) = makeChain(depth: depth, captureEvery: captureEvery)
  }
}

/// A chain whose root answers `Lookup`; the request starts `depth - 1` levels below it.
final class RequestState {
  let tree: NodeTree
  let leaf: Node
  init(depth: Int) {
    var node = Node()
    leaf = node
    for _ in 1..<depth {
      let child = node
      node = Node { child }.handleAction(Miss.self) {}
    }
    try! node.respond(to: Lookup.self) { lookup in lookup.key * 2 }
    tree = try! NodeTree(root: node)
  }
}

/// A root with many children, each with a non-matching typed handler.
final class WideState {
  let tree: NodeTree
  let leaf: Node
  init(children: Int) {
    let root = Node {
      for _ in 0..<children { Node().handleAction(Miss.self) {} }
    }
    root.handleAction(Hit.self) {}
    tree = try! NodeTree(root: root)
    leaf = root.children[children / 2]
  }
}
