import Actions
import ViewTree
import ViewTreeActions

/// Does nothing: the benchmarks measure the manager and the adapter, not the action.
package struct SaveAction: ManagedAction {
  package init() {}
  package func perform(context: ActionContext) throws {}
}

/// The value each provider on a perform chain sets.
package enum LevelKey: ActionContextKey {
  package static let defaultValue = 0
}

/// What sits at the root of a perform chain besides the manager.
package enum RootExtra {
  case none
  /// An untyped `onAction` observer, as a logger or analytics hook would be.
  case observer
  /// An untyped capture modifier that lets everything pass.
  case capture
}

/// A protocol no request conforms to, for handlers typed by a protocol.
package protocol EditingCommand: Action {}

/// A chain of `depth` nodes (the bottom one included) under a root with a manager; exactly
/// `providers` nodes above the bottom one (none when it is 0) provide one context value each,
/// spread evenly, the top-most being the root. Returns the tree and the bottom node.
/// With `protocolHandlers`, every node also has a handler typed by a protocol (`EditingCommand`)
/// that the request does not conform to.
package func makeChain(
  depth: Int, providers: Int, rootExtra: RootExtra = .none, protocolHandlers: Bool = false
) -> (NodeTree, Node) {
  let manager = ActionManager()
  try! manager.register(SaveAction())
  var node = Node("leaf")
  let leaf = node
  let every = providers == 0 ? depth : (depth - 1) / providers
  var installed = 0
  for level in 1..<depth {
    let child = node
    node = Node { child }
    if level % every == 0, installed < providers {
      node.provideActionContext { $0[LevelKey.self] = level }
      installed += 1
    }
  }
  precondition(installed == providers, "the chain installs \(installed) providers, not \(providers)")
  if protocolHandlers {
    var current: Node? = leaf
    while let each = current {
      each.handleAction((any EditingCommand).self) { command in sink(command) }
      current = each.parent
    }
  }
  switch rootExtra {
  case .none: break
  case .observer: node.onAction { sink($0) }
  case .capture: node.captureAction { _ in .unhandled }
  }
  node.actionManager(manager)
  return (try! NodeTree(root: node), leaf)
}

/// A manager with `Save` registered.
package final class ActionManagerBox {
  package let manager = ActionManager()

  package init() { try! manager.register(SaveAction()) }

  /// The manager's parse of `text`, from its cache after the first time.
  package func identifier(parsing text: String) throws -> ActionIdentifier {
    try manager.identifier(parsing: text)
  }
}

/// The work of `TreePerform16Deep4Providers` in plain safe Swift, with no library code: the
/// reference a perform through the tree is compared against. The chain is arrays indexed by node
/// (a parent index, the node's provider closures, whether it has the manager), the manager a
/// dictionary of actions by name; a perform walks from the leaf to the manager, lets the providers
/// on the way set values (nearest first, the first value of a key wins), takes the name from the
/// identifier (kept from the last perform, as the library keeps its parse), validates and
/// performs. The context is a value lent to each provider (`inout`), so that no access to it needs
/// a run-time exclusivity check, and its few keys are searched in order, as a dictionary's hashing
/// would cost more than the search.
package final class MinimalPerformChain {
  /// What the providers fill in and the action reads.
  package struct Context {
    private var keys: [ObjectIdentifier] = []
    private var values: [Any] = []
    var sender = 0

    /// Sets a value unless a nearer provider set one.
    mutating func provide(_ value: Any, for key: ObjectIdentifier) {
      for each in keys where each == key { return }
      keys.append(key)
      values.append(value)
    }

    /// Forgets the values, keeping the storage for the next perform.
    mutating func clear() {
      keys.removeAll(keepingCapacity: true)
      values.removeAll(keepingCapacity: true)
    }
  }

  /// An action the reference's manager registers.
  package struct Action {
    let validate: (Context) -> Bool
    let perform: (Context) throws -> Void
  }

  /// What a perform gave.
  package enum Result {
    case performed(String)
    case disabled(String)
    case unknown(String)
    case failed(String, any Error)
    case noManager
  }

  /// Node 0 is the leaf, node `depth - 1` the root.
  let parent: [Int]
  let providers: [[(inout Context) -> Void]]
  let hasManager: [Bool]
  let actions: [String: Action]
  /// Reused from one perform to the next, as the library reuses its context.
  var context = Context()

  /// A chain as `makeChain(depth:providers:)` builds it: `providers` nodes above the leaf, spread
  /// evenly, each setting `LevelKey` to its level; the manager at the root.
  package init(depth: Int, providers count: Int) {
    parent = (0..<depth).map { $0 == depth - 1 ? -1 : $0 + 1 }
    let every = count == 0 ? depth : (depth - 1) / count
    var providers: [[(inout Context) -> Void]] = Array(repeating: [], count: depth)
    var installed = 0
    for level in 1..<depth where level % every == 0 && installed < count {
      providers[level] = [{ $0.provide(level, for: ObjectIdentifier(LevelKey.self)) }]
      installed += 1
    }
    self.providers = providers
    hasManager = (0..<depth).map { $0 == depth - 1 }
    actions = ["Save": Action(validate: { _ in true }, perform: { _ in })]
  }

  /// The names of the identifiers performed, kept as the library keeps its parse.
  private let names = NameCache()

  /// Performs `identifier` from the leaf.
  package func perform(_ identifier: String) -> Result {
    var manager = 0
    while !hasManager[manager] {
      manager = parent[manager]
      if manager < 0 { return .noManager }
    }
    return perform(identifier, from: manager, in: &context)
  }

  /// Performs `identifier` with the manager at `manager`, the context lent for the whole perform.
  private func perform(_ identifier: String, from manager: Int, in context: inout Context) -> Result {
    context.sender = 0
    var node = 0
    while true {
      for index in providers[node].indices { providers[node][index](&context) }
      if node == manager { break }
      node = parent[node]
    }
    defer { context.clear() }
    let name = names.name(of: identifier)
    guard let action = actions[name] else { return .unknown(name) }
    guard action.validate(context) else { return .disabled(name) }
    do {
      try action.perform(context)
    } catch {
      return .failed(name, error)
    }
    return .performed(name)
  }
}

/// The last identifier a reference performed and its name, as the library keeps its parse.
final class NameCache {
  private var lastText = ""
  private var lastName = ""

  /// The name of an action in `identifier`: what follows its last dot.
  func name(of identifier: String) -> String {
    if identifier == lastText { return lastName }
    let utf8 = identifier.utf8
    let name =
      utf8.lastIndex(of: UInt8(ascii: ".")).map { String(identifier[utf8.index(after: $0)...]) } ?? identifier
    lastText = identifier
    lastName = name
    return name
  }
}
