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
    performWithOutcome(identifier, sender: sender, tracing: trace).result
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
