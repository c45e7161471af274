/// Identifies an observer added with ``ActionManager/addObserver(for:_:)``.
public struct ObserverToken: Hashable, Sendable {
  let id: Int
}

extension ActionManager {
  struct Observer {
    let token: ObserverToken
    let name: String?
    let handler: (ActionEvent) -> Void
  }

  /// Adds an observer that hears will-perform, did-perform and did-fail for one action, or for
  /// every action. Observers are called in the order they were added and cannot change the
  /// outcome.
  ///
  /// - Parameters:
  ///   - name: The registered name to observe (`"Save"`), or `nil` for every action.
  ///   - handler: Called with each event.
  /// - Returns: A token for ``removeObserver(_:)``.
  @discardableResult
  public func addObserver(for name: String? = nil, _ handler: @escaping (ActionEvent) -> Void)
    -> ObserverToken
  {
    let token = ObserverToken(id: takeObserverID())
    // Taken out, changed and put back: see `observers`.
    var list = observers
    observers = []
    list.append(Observer(token: token, name: name, handler: handler))
    observers = list
    return token
  }

  /// Removes an observer.
  ///
  /// - Parameter token: What ``addObserver(for:_:)`` returned.
  /// - Returns: Whether the observer was still there.
  @discardableResult
  public func removeObserver(_ token: ObserverToken) -> Bool {
    var list = observers
    guard let index = list.firstIndex(where: { $0.token == token }) else { return false }
    // Taken out, changed and put back: see `observers`.
    observers = []
    list.remove(at: index)
    observers = list
    return true
  }

  func notify(_ kind: ActionEvent.Kind, _ context: ActionContext) {
    guard !observers.isEmpty else { return }
    let event = ActionEvent(kind: kind, context: context)
    // A copy: an observer may add or remove observers.
    for observer in observers where observer.name == nil || observer.name == context.identifier.name {
      observer.handler(event)
    }
  }
}
