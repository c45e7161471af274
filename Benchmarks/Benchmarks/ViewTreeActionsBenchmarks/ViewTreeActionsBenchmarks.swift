import Actions
import Benchmark
import ViewTree
import ViewTreeActions

/// Does nothing: the benchmarks measure the adapter, not the action.
struct SaveAction: ManagedAction {
  func perform(context: ActionContext) throws {}
}

enum LevelKey: ActionContextKey {
  static let defaultValue = 0
}

/// A chain of `depth` nodes under a root with a manager; every `providerEvery`-th node provides
/// one context value. Returns the tree and the bottom node.
func makeChain(depth: Int, providers: Int) -> (NodeTree, Node) {
  let manager = ActionManager()
  try! manager.register(SaveAction())
  var node = Node("leaf")
  let leaf = node
  let every = depth / providers
  for level in 1..<depth {
    let child = node
    node = Node { child }
    if level % every == 0 { node.provideActionContext { $0[LevelKey.self] = level } }
  }
  node.actionManager(manager)
  return (try! NodeTree(root: node), leaf)
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    warmupIterations: 3,
    scalingFactor: .kilo,
    maxDuration: .seconds(3),
    maxIterations: 10_000
  )

  // perform("menu.Save") from 16 levels deep with 4 providers on the path.
  Benchmark("TreePerform16Deep4Providers") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.1.perform("menu.Save"))
    }
  } setup: {
    makeChain(depth: 16, providers: 4)
  }

  // Validating 1,000 items against a focus 8 levels deep.
  Benchmark(
    "ValidateItems1000",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 3, scalingFactor: .one)
  ) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.validateItems(in: state.menu))
    }
  } setup: {
    ItemsState()
  }

  // Resolving a key chord bound at the root from a focus 16 levels deep.
  Benchmark("ResolveKeyChord16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.resolveKey(state.chord))
    }
  } setup: {
    KeyState()
  }
}

/// A tree whose root carries a manager, a menu of 1,000 items and a focused chain 8 levels deep.
final class ItemsState {
  let tree: NodeTree
  let menu: Node

  init() {
    let (chainTree, leaf) = makeChain(depth: 8, providers: 4)
    let menu = Node("menu") {
      for index in 0..<1_000 { Node().actionItem(index % 2 == 0 ? "menu.Save" : "menu.Missing") }
    }
    try! chainTree.root.addChild(menu)
    try! chainTree.focus(leaf)
    tree = chainTree
    self.menu = menu
  }
}

/// A chain 16 deep, focused at the bottom, with `ctrl+s` bound at the root and other bindings on
/// the way.
final class KeyState {
  let tree: NodeTree
  let chord = try! KeyChord(parsing: "ctrl+s")

  init() {
    let (chainTree, leaf) = makeChain(depth: 16, providers: 4)
    try! chainTree.root.bindKey("ctrl+s", to: "Save")
    try! leaf.parent!.bindKey("ctrl+o", to: "Open")
    try! chainTree.focus(leaf)
    tree = chainTree
  }
}
