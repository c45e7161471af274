import ViewTree

// The references with the rules the library keeps and the minimal ones skip, in plain safe Swift:
// a capture phase from the top before the bubble, no modifier added during a dispatch runs (the
// entries are read as they were when it began), a limit on nested dispatches, and a result that
// says which node answered. The minimal references (`MinimalRequestChain`,
// `MinimalPerformChain`) walk up once and stop at the first match.

/// One entry of a node in a ruled reference: what it is, the type it takes, and its closure.
package struct RuledEntry {
  package enum Kind {
    /// Sees a dispatch of its type on the way down, and may stop it.
    case capture
    /// Handles an action of its type on the way up.
    case handle
    /// Answers a request of its type on the way up.
    case respond
  }

  let kind: Kind
  let type: ObjectIdentifier
  let object: AnyObject
}

/// The walk both ruled references take: a chain of nodes (node 0 the leaf, node `depth - 1` the
/// root), each with its entries.
final class RuledWalk {
  let parent: [Int]
  var entries: [[RuledEntry]]
  /// The path's buffer, reused: the nodes from the leaf up.
  private var path: [Int] = []
  /// Dispatches in progress, for the limit on nested ones.
  private var nesting = 0
  static let nestingLimit = 64

  init(depth: Int) {
    parent = (0..<depth).map { $0 == depth - 1 ? -1 : $0 + 1 }
    entries = Array(repeating: [], count: depth)
  }

  /// Dispatches a request of `type` from the leaf: the capture entries for it from the top down
  /// (one that `stops` stops it), then the first responder entry for it from the leaf up, whose
  /// object and node `answer` turns into the answer. `nil` when nobody answered, a capture
  /// stopped it, or too many dispatches are nested.
  ///
  /// The entries are read from a local copy taken when the dispatch begins (the array's
  /// reference, not its elements), so an entry added meanwhile (to `entries`, which then copies
  /// itself) does not run, and reading them needs no check; the path is built in the buffer taken
  /// out of `path` for the dispatch (a nested dispatch finds it empty and makes its own).
  @inline(__always)
  func dispatch<Answer>(
    _ type: ObjectIdentifier, stops: (AnyObject) -> Bool, answer: (AnyObject, Int) -> Answer?
  ) -> Answer? {
    guard nesting < Self.nestingLimit else { return nil }
    nesting += 1
    defer { nesting -= 1 }
    let entries = self.entries
    var path: [Int] = []
    swap(&path, &self.path)
    defer { swap(&path, &self.path) }
    // A path is never longer than the chain: written by index, it needs no capacity check.
    if path.count < parent.count { path = Array(repeating: 0, count: parent.count) }
    var length = 0
    var node = 0
    while node >= 0 {
      path[length] = node
      length += 1
      node = parent[node]
    }
    // Read in place: an entry copied out would retain its object.
    for node in path[..<length].reversed() {
      for index in entries[node].indices
      where entries[node][index].kind == .capture && entries[node][index].type == type {
        if stops(entries[node][index].object) { return nil }
      }
    }
    for node in path[..<length] {
      for index in entries[node].indices
      where entries[node][index].kind == .respond && entries[node][index].type == type {
        return answer(entries[node][index].object, node)
      }
    }
    return nil
  }
}

/// `MinimalRequestChain`'s work with the library's rules: `RuledRequest8Up`.
package final class RuledRequestChain {
  /// A closure of a capture entry: `true` stops the request.
  final class Capture<Q: Request> {
    let capture: (Q) -> Bool
    init(_ capture: @escaping (Q) -> Bool) { self.capture = capture }
  }

  let walk: RuledWalk

  /// The chain of `MinimalRequestChain(depth:)`: a handler of `Miss` on every node above the
  /// leaf, and a responder to `Lookup` at the root.
  package init(depth: Int) {
    walk = RuledWalk(depth: depth)
    for level in 1..<depth {
      walk.entries[level].append(
        RuledEntry(
          kind: .handle, type: ObjectIdentifier(Miss.self),
          object: MinimalRequestChain.Handler<Miss> { sink($0) }))
    }
    walk.entries[depth - 1].append(
      RuledEntry(
        kind: .respond, type: ObjectIdentifier(Lookup.self),
        object: MinimalRequestChain.Responder<Lookup> { $0.key * 2 }))
  }

  /// Sends `request` from the leaf: the answer and the node that gave it, or `nil` when nobody
  /// answered (or a capture stopped it, or too many requests are nested).
  package func request(_ request: Lookup) -> (answer: Int, node: Int)? {
    walk.dispatch(
      ObjectIdentifier(Lookup.self),
      stops: { ($0 as? Capture<Lookup>)?.capture(request) ?? false },
      answer: { object, node in
        (object as? MinimalRequestChain.Responder<Lookup>).map { ($0.respond(request), node) }
      })
  }
}

/// `MinimalPerformChain`'s work with the library's rules: `RuledPerform16x4`. The perform is a
/// request from the leaf that the manager's node answers (with the ruled walk of
/// `RuledRequestChain`), then the manager's own rules: a limit on nested performs, and observers
/// told before and after.
package final class RuledPerformChain {
  /// The type of the perform request, which the manager's node answers.
  enum PerformRequest {}
  /// The responder entry's object: the manager's node answers itself.
  final class ManagerResponder {}

  let walk: RuledWalk
  let providers: [[(inout MinimalPerformChain.Context) -> Void]]
  let actions: [String: MinimalPerformChain.Action]
  /// Told before and after each perform, with the name (none here, as in the library's chain).
  let observers: [(String, MinimalPerformChain.Result?) -> Void] = []
  /// Reused from one perform to the next, as the library reuses its context.
  var context = MinimalPerformChain.Context()
  private var performing = 0
  /// The names of the identifiers performed, kept as the library keeps its parse.
  private let names = NameCache()

  /// The chain of `MinimalPerformChain(depth:providers:)`.
  package init(depth: Int, providers count: Int) {
    let minimal = MinimalPerformChain(depth: depth, providers: count)
    walk = RuledWalk(depth: depth)
    providers = minimal.providers
    actions = minimal.actions
    walk.entries[depth - 1] = [
      RuledEntry(kind: .respond, type: ObjectIdentifier(PerformRequest.self), object: ManagerResponder())
    ]
  }

  /// Performs `identifier` from the leaf, and which node's manager answered.
  package func perform(_ identifier: String) -> (result: MinimalPerformChain.Result, node: Int)? {
    walk.dispatch(
      ObjectIdentifier(PerformRequest.self), stops: { _ in true },
      answer: { _, node in (managerPerform(identifier, sender: 0, at: node), node) })
  }

  /// The manager's part: its rules, then the minimal reference's perform.
  private func managerPerform(_ identifier: String, sender: Int, at manager: Int)
    -> MinimalPerformChain.Result
  {
    guard performing < RuledWalk.nestingLimit else { return .noManager }
    performing += 1
    defer { performing -= 1 }
    context.sender = sender
    var node = sender
    while true {
      for index in providers[node].indices { providers[node][index](&context) }
      if node == manager { break }
      node = walk.parent[node]
    }
    defer { context.clear() }
    let name = names.name(of: identifier)
    for observer in observers { observer(name, nil) }
    let result: MinimalPerformChain.Result
    if let action = actions[name] {
      if !action.validate(context) {
        result = .disabled(name)
      } else {
        do {
          try action.perform(context)
          result = .performed(name)
        } catch {
          result = .failed(name, error)
        }
      }
    } else {
      result = .unknown(name)
    }
    for observer in observers { observer(name, result) }
    return result
  }
}
