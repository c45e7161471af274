import Actions
import Fixtures
import Foundation
import ViewTree
import ViewTreeActions

// Runs one benchmark's loop body a given number of times on the benchmark's own fixture, outside
// the benchmark harness: for instruction counts (`valgrind --tool=callgrind`, which the
// harness's threads and sampling would blur) and for timing experiments with other compiler
// flags. `probe.sh` drives it.
//
//   Probe <benchmark> <operations>          runs the loop (0 operations: only the setup)
//   Probe --time <benchmark> <operations>   also prints the best of 7 rounds, in ns per operation
//   Probe --list                            prints the benchmarks it knows, one per line

/// A benchmark's loop on its fixture, built once: runs the loop body the given number of times.
/// The loop is inside the closure and the results go to a function in another module, as in the
/// benchmark harness.
typealias Loop = (Int) -> Void

let probes: [String: () -> Loop] = [
  "TriggerOnTarget": {
    let state = ChainState(depth: 1)
    return { count in for _ in 0..<count { sink(state.leaf.trigger(Hit())) } }
  },
  "Trigger9Up": {
    let state = ChainState(depth: 9)
    return { count in for _ in 0..<count { sink(state.leaf.trigger(Hit())) } }
  },
  "Bubble64": {
    let state = ChainState(depth: 64)
    return { count in for _ in 0..<count { sink(state.leaf.trigger(Hit())) } }
  },
  "Request8Up": {
    let state = RequestState(depth: 9)
    return { count in for _ in 0..<count { sink(try? state.leaf.request(Lookup(key: 7))) } }
  },
  "Request8UpObserved": {
    let state = RequestState(depth: 9, observed: true)
    return { count in for _ in 0..<count { sink(try? state.leaf.request(Lookup(key: 7))) } }
  },
  "TreePerform16Deep4Providers": {
    let (tree, leaf) = makeChain(depth: 16, providers: 4)
    return { count in withExtendedLifetime(tree) { for _ in 0..<count { sink(leaf.perform("menu.Save")) } } }
  },
  "TreePerform16DeepNoProviders": {
    let (tree, leaf) = makeChain(depth: 16, providers: 0)
    return { count in withExtendedLifetime(tree) { for _ in 0..<count { sink(leaf.perform("menu.Save")) } } }
  },
  "TreePerform16Deep4ProvidersObserved": {
    let (tree, leaf) = makeChain(depth: 16, providers: 4, rootExtra: .observer)
    return { count in withExtendedLifetime(tree) { for _ in 0..<count { sink(leaf.perform("menu.Save")) } } }
  },
  "TreePerform16Deep4ProvidersCaptured": {
    let (tree, leaf) = makeChain(depth: 16, providers: 4, rootExtra: .capture)
    return { count in withExtendedLifetime(tree) { for _ in 0..<count { sink(leaf.perform("menu.Save")) } } }
  },
  "Redeclare1000Unchanged": {
    let tree = NodeTree(declaring: declareThousand())
    return { count in for _ in 0..<count { tree.update(to: declareThousand()) } }
  },
  "PerformRegistered": {
    let box = ActionManagerBox()
    return { count in for _ in 0..<count { sink(box.manager.perform("menu.Save")) } }
  },
]

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--list"] {
  for name in probes.keys.sorted() { print(name) }
  exit(0)
}
let timed = arguments.first == "--time"
if timed { arguments.removeFirst() }
guard arguments.count == 2, let make = probes[arguments[0]], let count = Int(arguments[1]), count >= 0 else {
  print("usage: Probe [--time] <benchmark> <operations>")
  print("benchmarks: \(probes.keys.sorted().joined(separator: ", "))")
  exit(2)
}
let loop = make()
if timed {
  var best = Duration.seconds(1_000)
  for _ in 0..<7 {
    let start = ContinuousClock.now
    loop(count)
    best = min(best, ContinuousClock.now - start)
  }
  let nanoseconds = Double(best.components.attoseconds) / 1e9 + Double(best.components.seconds) * 1e9
  print("\(arguments[0]): \(Int((nanoseconds / Double(max(count, 1))).rounded())) ns")
} else {
  loop(count)
}
