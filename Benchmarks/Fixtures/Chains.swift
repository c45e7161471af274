import ViewTree

// The trees the dispatch benchmarks measure, shared with the probe (`Tools/Probe/main.swift`) so that
// an instruction count is taken on exactly the fixture its benchmark times.

/// The action the benchmarks trigger: a small struct, handled at the root.
package struct Hit: Action {
  package init() {}
}

/// A request with a small result.
package struct Lookup: Request {
  package typealias Result = Int
  package var key: Int
  package init(key: Int) { self.key = key }
}

/// The type every typed handler on the path waits for; it never arrives.
package struct Miss: Action {
  package init() {}
}

/// Takes a value and does nothing with it, out of the optimizer's sight: what an observer that
/// logs does, at the least.
@inline(never)
package func sink(_ value: some Any) {}

/// A chain of `depth` nodes, each with one typed `handleAction` for `Miss`; the root (the only
/// node when `depth` is 1) also handles `Hit`. Every `captureEvery`-th node (if any) carries an
/// untyped capture modifier that lets the action go on. Returns the tree and the bottom node.
package func makeChain(depth: Int, captureEvery: Int? = nil) -> (NodeTree, Node) {
  var node = Node().handleAction(Miss.self) {}
  let leaf = node
  for level in 1..<depth {
    let child = node
    node = Node { child }.handleAction(Miss.self) {}
    if let captureEvery, level % captureEvery == 0 {
      node.captureAction { _ in .unhandled }
    }
  }
  node.handleAction(Hit.self) {}
  return (try! NodeTree(root: node), leaf)
}

/// A chain and its bottom node, built once per benchmark.
package final class ChainState {
  package let tree: NodeTree
  package let leaf: Node

  package init(depth: Int, captureEvery: Int? = nil) {
    (tree, leaf) = makeChain(depth: depth, captureEvery: captureEvery)
  }
}

/// A chain whose root answers `Lookup`; the request starts `depth - 1` levels below it.
package final class RequestState {
  package let tree: NodeTree
  package let leaf: Node

  package init(depth: Int, observed: Bool = false) {
    var node = Node()
    leaf = node
    for _ in 1..<depth {
      let child = node
      node = Node { child }.handleAction(Miss.self) {}
    }
    node.respond(to: Lookup.self) { lookup in lookup.key * 2 }
    if observed { node.onAction { sink($0) } }
    tree = try! NodeTree(root: node)
  }
}

/// The declaration `Redeclare1000Unchanged` applies: 10 groups of 99 rows under a root (1,000
/// nodes), each node with a typed handler and an observer.
package func declareThousand() -> NodeDeclaration {
  NodeDeclaration("root") {
    for group in 0..<10 {
      NodeDeclaration("group\(group)") {
        for _ in 0..<99 {
          NodeDeclaration("row").handleAction(Miss.self) {}.onAction { _ in }
        }
      }
      .handleAction(Miss.self) {}.onAction { _ in }
    }
  }
  .handleAction(Hit.self) {}.onAction { _ in }
}
