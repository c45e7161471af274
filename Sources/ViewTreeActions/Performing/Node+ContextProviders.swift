import Actions
import ViewTree

extension ModifierHost {
  /// Adds values to the context of identifiers performed or validated from this node or below.
  ///
  /// Providers are what a node provides, not modifiers: when the nearest manager answers a
  /// perform or a validation, it reads the providers of the nodes the request passed (from the
  /// node it started at up to the manager's own), nearest first, into the one `ActionContext`
  /// the action sees. For a single-valued key the value nearest the start wins; lists collect
  /// every provider's values, nearest first. A provider removed before the manager answers does
  /// not contribute; where on a node a provider is declared, before or after its manager, does
  /// not matter.
  ///
  /// ```swift
  /// Node("list")
  ///   .provideActionContext { context in context[SelectionKey.self] = list.selection }
  /// ```
  ///
  /// A node's providers run in the order they were declared. A node re-declared by an update has
  /// exactly the providers its declaration declares.
  ///
  /// - Parameter provide: Adds this node's values to the context.
  /// - Returns: This node or declaration, for chaining.
  /// - Complexity: O(*p*) in the number of providers the node or declaration already has.
  @discardableResult
  public consuming func provideActionContext(_ provide: @escaping (ActionContext) -> Void) -> Self {
    let providers = NodeProviders(appending: provide, to: self[attachment: ContextProviders.self])
    return settingAttachment(ContextProviders.self, to: providers)
  }

  /// Makes an object that owns this node (a view controller, a document) provide context for
  /// identifiers performed or validated from this node or below.
  ///
  /// The node holds `owner` weakly, so an owner that holds its node forms no cycle; once the owner
  /// is gone, the node provides nothing.
  ///
  /// - Parameter owner: The provider.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func provideActionContext(weak owner: some ActionContextProvider & AnyObject) -> Self {
    provideActionContext { [weak owner] context in owner?.provide(to: context) }
  }

  /// Makes a provider value provide context for identifiers performed or validated from this node
  /// or below. The node keeps `provider` alive; for an owner of the node, use
  /// ``provideActionContext(weak:)``.
  ///
  /// - Parameter provider: The provider.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func provideActionContext(_ provider: some ActionContextProvider) -> Self {
    provideActionContext { context in provider.provide(to: context) }
  }
}

/// The context providers a node carries.
enum ContextProviders: NodeAttachmentKey {
  static var defaultValue: NodeProviders? { nil }
}

/// A node's providers, in the order they were declared, and one closure that calls them all: a
/// perform calls it where the node keeps it, so that no closure is copied out (the usual node has
/// one provider, which is that closure).
struct NodeProviders {
  let list: [(ActionContext) -> Void]
  let callAll: (ActionContext) -> Void

  /// The providers `earlier` and then `provide`.
  init(appending provide: @escaping (ActionContext) -> Void, to earlier: NodeProviders?) {
    guard let earlier else {
      list = [provide]
      // The closure itself, not the list's element: an array stores closures through a thunk.
      callAll = provide
      return
    }
    let list = earlier.list + [provide]
    self.list = list
    callAll = { context in for provide in list { provide(context) } }
  }
}

extension Node {
  /// Removes this node's context providers (see ``ModifierHost/provideActionContext(_:)``): from
  /// now on, performs and validations that pass it find none here, including a perform whose
  /// manager has not yet reached this node when a provider nearer its start removes them.
  public func removeActionContextProviders() {
    removeAttachment(ContextProviders.self)
  }
}
