import Actions
import ViewTree

extension Node {
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
  /// - Returns: This node, for chaining.
  @discardableResult
  public func provideActionContext(_ provide: @escaping (ActionContext) -> Void) -> Node {
    addProvider(ClosureProvider(provide: provide), direct: provide)
  }

  /// Makes an object that owns this node (a view controller, a document) provide context for
  /// identifiers performed or validated from this node or below.
  ///
  /// The node holds `owner` weakly, so an owner that holds its node forms no cycle; once the owner
  /// is gone, the node provides nothing.
  ///
  /// - Parameter owner: The provider.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func actionContextOwner(_ owner: some ActionContextProvider & AnyObject) -> Node {
    actionContextProvider(WeakProvider(owner: owner))
  }

  /// Makes a provider value provide context for identifiers performed or validated from this node
  /// or below. The node keeps `provider` alive; for an owner of the node, use
  /// ``actionContextOwner(_:)``.
  ///
  /// - Parameter provider: The provider.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func actionContextProvider(_ provider: some ActionContextProvider) -> Node {
    addProvider(provider, direct: { context in provider.provide(to: context) })
  }

  /// Adds the modifier that appends `provider` to every request passing by, tagged with `direct`,
  /// the same provider as a closure, for requests answered without a dispatch.
  private func addProvider(
    _ provider: some ActionContextProvider, direct: @escaping (ActionContext) -> Void
  ) -> Node {
    onAction(ManagedActionRequest.self) { request in request.exchange.providers.append(provider) }
    tagLastModifier(ProviderTag(direct))
    return self
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

/// The tag of a provider modifier (see `Node.dispatchPlainly`): the provider it appends, as a
/// closure (calling it costs no existential projection or witness thunk).
final class ProviderTag {
  let provide: (ActionContext) -> Void

  init(_ provide: @escaping (ActionContext) -> Void) { self.provide = provide }
}
