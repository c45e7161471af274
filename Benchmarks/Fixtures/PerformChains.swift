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
