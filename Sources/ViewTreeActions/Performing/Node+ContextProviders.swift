import Actions
import ViewTree

extension ModifierHost {
  /// Adds values to the context of identifiers performed or validated from this node or below.
  ///
  /// Providers are asked nearest first: for a single-valued key the value nearest the start wins;
  /// lists collect every provider's values, nearest first.
  ///
  /// ```swift
  /// Node("list")
  ///   .provideActionContext { context in context[SelectionKey.self] = list.selection }
  /// ```
  ///
  /// - Parameter provide: Adds this node's values to the context.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func provideActionContext(_ provide: @escaping (ActionContext) -> Void) -> Self {
    addProvider(ClosureProvider(provide: provide))
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
    addProvider(WeakProvider(owner: owner))
  }

  /// Makes a provider value provide context for identifiers performed or validated from this node
  /// or below. The node keeps `provider` alive; for an owner of the node, use
  /// ``provideActionContext(weak:)``.
  ///
  /// - Parameter provider: The provider.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func provideActionContext(_ provider: some ActionContextProvider) -> Self {
    addProvider(provider)
  }

  /// Adds the modifier that appends `provider` to the context of every request passing by.
  private consuming func addProvider(_ provider: some ActionContextProvider) -> Self {
    // Boxed once here, so that each perform appends an existential copy, not a new box.
    let boxed: any ActionContextProvider = provider
    return onAction(ManagedActionRequest.self) { request in request.context.providers.append(boxed) }
  }
}

private struct ClosureProvider: ActionContextProvider {
  let provide: (ActionContext) -> Void
  func provide(to context: ActionContext) { provide(context) }
}

private struct WeakProvider<Owner: ActionContextProvider & AnyObject>: ActionContextProvider {
  weak var owner: Owner?
  func provide(to context: ActionContext) { owner?.provide(to: context) }
}
