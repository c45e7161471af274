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
  var node = Node().handleAction(Miss.self) { _ in }
  let leaf = node
  for level in 1..<depth {
    let child = node
    node = Node { child }.handleAction(Miss.self) { _ in }
    if let captureEvery, level % captureEvery == 0 {
      node.captureAction { _ in .unhandled }
    }
  }
  node.handleAction(Hit.self) { _ in }
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
      node = Node { child }.handleAction(Miss.self) { _ in }
    }
    node.respond(to: Lookup.self) { lookup in lookup.key * 2 }
    if observed { node.onAction { sink($0) } }
    tree = try! NodeTree(root: node)
  }
}

/// The work of `Request8Up` in plain safe Swift, with no library code: the reference a request
/// through the tree is compared against. The chain is arrays indexed by node (a parent index, and
/// the node's typed handlers, each with the type it takes); a request walks from the leaf up and
/// the first responder for its type answers, passing the handlers of other types. A responder
/// is an object of a generic class, so that finding it takes a class cast, not an existential's.
package final class MinimalRequestChain {
  /// A responder to requests of type `Q`.
  final class Responder<Q: Request> {
    let respond: (Q) -> Q.Result
    init(_ respond: @escaping (Q) -> Q.Result) { self.respond = respond }
  }

  /// A handler of actions of type `A` (here, never called).
  final class Handler<A: Action> {
    let handle: (A) -> Void
    init(_ handle: @escaping (A) -> Void) { self.handle = handle }
  }

  /// Node 0 is the leaf, node `depth - 1` the root.
  let parent: [Int]
  /// Each node's handlers and responders, with the type each takes.
  let entries: [[(type: ObjectIdentifier, object: AnyObject)]]

  /// A chain as `RequestState(depth:)` builds it: a handler of `Miss` on every node above the
  /// leaf, and a responder to `Lookup` at the root.
  package init(depth: Int) {
    parent = (0..<depth).map { $0 == depth - 1 ? -1 : $0 + 1 }
    entries = (0..<depth).map { level in
      var entries: [(type: ObjectIdentifier, object: AnyObject)] = []
      if level > 0 { entries.append((ObjectIdentifier(Miss.self), Handler<Miss> { sink($0) })) }
      if level == depth - 1 {
        entries.append((ObjectIdentifier(Lookup.self), Responder<Lookup> { $0.key * 2 }))
      }
      return entries
    }
  }

  /// Sends `request` from the leaf; the answer, or `nil` when nobody answered. For `Lookup` only:
  /// the library's `request` is specialized for the request type where it is called, and so is
  /// this.
  package func request(_ request: Lookup) -> Int? {
    let type = ObjectIdentifier(Lookup.self)
    var node = 0
    while node >= 0 {
      // By index: iterating `entries[node]` itself would retain and release each node's list.
      for index in entries[node].indices where entries[node][index].type == type {
        if let responder = entries[node][index].object as? Responder<Lookup> {
          return responder.respond(request)
        }
      }
      node = parent[node]
    }
    return nil
  }
}

/// The declaration `Redeclare1000Unchanged` applies: 10 groups of 99 rows under a root (1,000
/// nodes), each node with a typed handler and an observer.
package func declareThousand() -> NodeDeclaration {
  NodeDeclaration("root") {
    for group in 0..<10 {
      NodeDeclaration("group\(group)") {
        for _ in 0..<99 {
          NodeDeclaration("row").handleAction(Miss.self) { _ in }.onAction { _ in }
        }
      }
      .handleAction(Miss.self) { _ in }.onAction { _ in }
    }
  }
  .handleAction(Hit.self) { _ in }.onAction { _ in }
}
