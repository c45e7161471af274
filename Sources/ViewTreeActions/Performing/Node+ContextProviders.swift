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
  @inlinable @discardableResult
  public consuming func provideActionContext(_ provide: @escaping (ActionContext) -> Void) -> Self {
    addProvider(provide)
  }

  /// Makes an object that owns this node (a view controller, a document) provide context for
  /// identifiers performed or validated from this node or below.
  ///
  /// The node holds `owner` weakly, so an owner that holds its node forms no cycle; once the owner
  /// is gone, the node provides nothing.
  ///
  /// - Parameter owner: The provider.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func provideActionContext(weak owner: some ActionContextProvider & AnyObject) -> Self {
    addProvider { [weak owner] context in owner?.provide(to: context) }
  }

  /// Makes a provider value provide context for identifiers performed or validated from this node
  /// or below. The node keeps `provider` alive; for an owner of the node, use
  /// ``provideActionContext(weak:)``.
  ///
  /// - Parameter provider: The provider.
  /// - Returns: This node or declaration, for chaining.
  @inlinable @discardableResult
  public consuming func provideActionContext(_ provider: some ActionContextProvider) -> Self {
    addProvider { context in provider.provide(to: context) }
  }

  /// Adds the modifier that adds `provide` to the providers of every request passing by.
  ///
  /// Inlinable with the methods that call it, so that the modifier's closure is specialized for
  /// the concrete host: a generic one opens the request's existential through metadata.
  @inlinable
  consuming func addProvider(_ provide: @escaping (ActionContext) -> Void) -> Self {
    let provider = ContextProviderBox(provide)
    return onAction(ManagedActionRequest.self) { request in request.context.add(provider) }
  }
}
