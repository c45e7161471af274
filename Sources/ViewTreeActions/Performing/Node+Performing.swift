import Actions
import ViewTree

extension Node {
  /// Performs an identifier from this node: a ``PerformRequest`` bubbles up to the nearest node
  /// with an `ActionManager`, which builds the context (the sender, then what the nodes the
  /// request passed provide) and validates and performs it.
  ///
  /// ```swift
  /// switch editor.perform("menu.Save") {
  /// case .answered(let result, _): print(result)
  /// case .unanswered(let outcome): print("no manager performed it: \(outcome)")
  /// }
  /// ```
  ///
  /// An `AsyncManagedAction` reports `ActionsError.requiresAwait(_:)` here, before any provider
  /// runs; perform it with `await node.perform(...)`.
  ///
  /// - Parameters:
  ///   - identifier: The identifier, such as `"menu.Save"`.
  ///   - sender: What asks for the action; this node when `nil`.
  ///   - trace: A trace that records the dispatch, or `nil`.
  /// - Returns: The manager's answer and its node, or why no manager answered: there is none on
  ///   the path, or a modifier stopped the request or replaced it with another action.
  @discardableResult
  public func perform(_ identifier: String, sender: consuming Any? = nil, tracing trace: ActionTrace? = nil)
    -> RequestResult<PerformResult>
  {
    send(PerformRequest(identifier, sender: sender, from: self), tracing: trace)
  }

  /// Performs an identifier from this node, awaiting asynchronous actions (and asynchronous
  /// modifiers on the path) on the caller's actor, with the same path, providers and rules as
  /// ``perform(_:sender:tracing:)``.
  ///
  /// - Parameters:
  ///   - identifier: The identifier, such as `"menu.Save"`.
  ///   - sender: What asks for the action; this node when `nil`.
  ///   - trace: A trace that records the dispatch, or `nil`.
  /// - Returns: The manager's answer and its node, or why no manager answered.
  @discardableResult
  nonisolated(nonsending) public func perform(
    _ identifier: String, sender: consuming Any? = nil, tracing trace: ActionTrace? = nil
  ) async -> RequestResult<PerformResult> {
    await send(PerformRequest(identifier, sender: sender, from: self), tracing: trace)
  }

  /// Validates an identifier from this node: the same path and context as
  /// ``perform(_:sender:tracing:)``, but nothing is performed and no observer is called.
  ///
  /// - Parameters:
  ///   - identifier: The identifier.
  ///   - sender: What asks; this node when `nil`.
  /// - Returns: The validation, or ``Validation/unavailable`` when no manager answered.
  public func validate(_ identifier: String, sender: consuming Any? = nil) -> Validation {
    send(ValidationRequest(identifier, from: RequestSender(sender, origin: self)), tracing: nil).answer
      ?? .unavailable
  }

  /// Validates `identifier` from this node with `sender` as its sender, in `box`, which a caller
  /// validating many identifiers from one node (item validation) passes each time: the box is
  /// reused while nothing else holds it, so that each validation does not allocate one.
  func validate(_ identifier: String, sender: Node, reusing box: inout SenderBox?) -> Validation {
    if isKnownUniquelyReferenced(&box), let reused = box {
      reused.sender = sender
    } else {
      box = SenderBox(sender)
    }
    // `box` was just set if it was `nil`.
    return send(ValidationRequest(identifier, from: .named(box!)), tracing: nil).answer ?? .unavailable
  }
}

extension RequestResult where Answer == PerformResult {
  /// Whether a manager performed the action and it returned.
  public var isPerformed: Bool { answer?.isPerformed ?? false }
}
