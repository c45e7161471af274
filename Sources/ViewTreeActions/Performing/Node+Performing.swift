import Actions
import ViewTree

extension Node {
  /// Performs an identifier from this node: a ``ManagedActionRequest`` bubbles up, collecting
  /// context from providers, to the nearest node with an `ActionManager`, which validates and
  /// performs it.
  ///
  /// ```swift
  /// editor.perform("menu.Save")
  /// ```
  ///
  /// - Parameters:
  ///   - identifier: The identifier, such as `"menu.Save"`.
  ///   - sender: What asks for the action; this node when `nil`.
  ///   - trace: A trace that records the dispatch, or `nil`.
  /// - Returns: The manager's answer, or why no manager answered.
  @discardableResult
  public func perform(_ identifier: String, sender: Any? = nil, tracing trace: ActionTrace? = nil)
    -> TreePerformResult
  {
    var result = TreePerformResult.notPerformed(.notDispatched(.notInTree))
    if trace == nil,
      withPlainManager({ manager, node, provide in
        let answer =
          sender == nil
          ? manager.performDirectly(identifier, objectSender: self, providing: provide)
          : manager.performDirectly(identifier, sender: sender.unsafelyUnwrapped, providing: provide)
        result = .answered(answer, manager: node)
      })
    {
      return result
    }
    return performWithOutcome(identifier, sender: sender, tracing: trace).result
  }

  /// Performs an identifier and returns both the outcome of its dispatch and the result, for
  /// testing tools that show what happened.
  package func performWithOutcome(_ identifier: String, sender: Any?, tracing trace: ActionTrace?) -> (
    outcome: ActionOutcome, result: TreePerformResult
  ) {
    let exchange = ManagedActionRequest.Exchange(mode: .perform, sender: sender ?? self)
    let outcome = trigger(ManagedActionRequest(identifier: identifier, exchange: exchange), tracing: trace)
    guard let result = exchange.performResult, case .handled(let manager, _) = outcome else {
      return (outcome, .notPerformed(outcome))
    }
    return (outcome, .answered(result, manager: manager))
  }

  /// Validates an identifier from this node: the same path and context as
  /// ``perform(_:sender:tracing:)``, but nothing is performed and no observer is called.
  ///
  /// - Parameters:
  ///   - identifier: The identifier.
  ///   - sender: What asks; this node when `nil`.
  /// - Returns: The validation, or ``Validation/unavailable`` when no manager answered.
  public func validate(_ identifier: String, sender: Any? = nil) -> Validation {
    var validation = Validation.unavailable
    if withPlainManager({ manager, _, provide in
      validation =
        sender == nil
        ? manager.validateDirectly(identifier, objectSender: self, providing: provide)
        : manager.validateDirectly(identifier, sender: sender.unsafelyUnwrapped, providing: provide)
    }) {
      return validation
    }
    let exchange = ManagedActionRequest.Exchange(mode: .validate, sender: sender ?? self)
    trigger(ManagedActionRequest(identifier: identifier, exchange: exchange))
    return exchange.validation ?? .unavailable
  }
}

extension NodeTree {
  /// Performs an identifier from the focused node, or the root when nothing is focused: what a
  /// menu bar or a shortcut does.
  ///
  /// - Parameters:
  ///   - identifier: The identifier.
  ///   - sender: What asks for the action; the starting node when `nil`.
  ///   - trace: A trace that records the dispatch, or `nil`.
  /// - Returns: The manager's answer, or why no manager answered.
  @discardableResult
  public func perform(_ identifier: String, sender: Any? = nil, tracing trace: ActionTrace? = nil)
    -> TreePerformResult
  {
    guard isRooted else { return .notPerformed(.notDispatched(.notInTree)) }
    return (focusedNode ?? root).perform(identifier, sender: sender, tracing: trace)
  }

  /// Validates an identifier from the focused node, or the root when nothing is focused.
  ///
  /// - Parameters:
  ///   - identifier: The identifier.
  ///   - sender: What asks; the starting node when `nil`.
  /// - Returns: The validation, or ``Validation/unavailable`` when no manager answered.
  public func validate(_ identifier: String, sender: Any? = nil) -> Validation {
    guard isRooted else { return .unavailable }
    return (focusedNode ?? root).validate(identifier, sender: sender)
  }
}

extension Node {
  /// The most providers and managers `withPlainManager` gathers on the stack; a path with more
  /// is dispatched.
  private static let plainTagCapacity = 17

  /// Calls `body` with the nearest manager, its node and a function that runs the providers on
  /// the way to it, nearest first, when nothing else on the path would see a
  /// ``ManagedActionRequest``: then dispatching one would only gather those providers and hand
  /// them to that manager, which is what `body` does directly. Returns `false`, not calling
  /// `body`, when the request must be dispatched (see `Node.dispatchPlainly`).
  ///
  /// Not generic over a result: unspecialized, its optional result would cost value-witness calls.
  func withPlainManager(_ body: (ActionManager, Node, (ActionContext) -> Void) -> Void) -> Bool {
    withUnsafeTemporaryAllocation(of: Unmanaged<AnyObject>.self, capacity: Self.plainTagCapacity) { tags in
      dispatchPlainly(
        ManagedActionRequest.self, passing: ProviderTag.self, until: ActionManager.self, collecting: tags
      ) { count, node in
        // `dispatchPlainly` checked the tags' types: providers, then the manager. The tags live
        // as long as their modifiers, which the tree keeps while this runs.
        let manager = Unmanaged<ActionManager>.fromOpaque(tags[count - 1].toOpaque())
        manager._withUnsafeGuaranteedRef { manager in
          body(manager, node) { context in
            for index in 0..<(count - 1) {
              Unmanaged<ProviderTag>.fromOpaque(tags[index].toOpaque())._withUnsafeGuaranteedRef {
                $0.provide(context)
              }
            }
          }
        }
      }
    }
  }
}
