import Actions
import ViewTree

extension Node {
  /// Performs an identifier from this node: a ``ManagedActionRequest`` bubbles up to the nearest
  /// node with an `ActionManager`, which builds the context (the sender, then what the nodes the
  /// request passed provide) and validates and performs it.
  ///
  /// ```swift
  /// editor.perform("menu.Save")
  /// ```
  ///
  /// An `AsyncManagedAction` reports `ActionsError.requiresAwait(_:)` here; perform it with
  /// `await node.perform(...)`.
  ///
  /// - Parameters:
  ///   - identifier: The identifier, such as `"menu.Save"`.
  ///   - sender: What asks for the action; this node when `nil`.
  ///   - trace: A trace that records the dispatch, or `nil`.
  /// - Returns: The manager's answer, or why no manager answered.
  @discardableResult
  public func perform(_ identifier: String, sender: consuming Any? = nil, tracing trace: ActionTrace? = nil)
    -> TreePerformResult
  {
    let (end, answer) = requestAnswer(
      ManagedActionRequest(.perform, identifier, from: self, sender: sender), tracing: trace)
    switch (consume end, consume answer) {
    case (.answered(let manager), .performed(let result)?): return .answered(result, managerNode: manager)
    case (.unanswered(let outcome), _): return .notPerformed(outcome)
    // A responder other than a manager's answered with a validation.
    case (.answered(let node), _):
      return .notPerformed(
        .handled(by: node, action: ManagedActionRequest(.perform, identifier, from: self, sender: nil)))
    }
  }

  /// Performs an identifier from this node, awaiting asynchronous actions (and asynchronous
  /// modifiers on the path) on the caller's actor, with the same path, providers and rules as
  /// ``perform(_:sender:tracing:)``.
  ///
  /// - Parameters:
  ///   - identifier: The identifier, such as `"menu.Save"`.
  ///   - sender: What asks for the action; this node when `nil`.
  ///   - trace: A trace that records the dispatch, or `nil`.
  /// - Returns: The manager's answer, or why no manager answered.
  @discardableResult
  nonisolated(nonsending) public func perform(
    _ identifier: String, sender: consuming Any? = nil, tracing trace: ActionTrace? = nil
  ) async -> TreePerformResult {
    let (outcome, answer) = await requestWithOutcome(
      ManagedActionRequest(.perform, identifier, from: self, sender: sender), tracing: trace)
    return TreePerformResult(outcome: consume outcome, answer: consume answer)
  }

  /// Performs an identifier and returns both the outcome of its dispatch and the result, for
  /// testing tools that show what happened.
  package func performWithOutcome(_ identifier: String, sender: Any?, tracing trace: ActionTrace?) -> (
    outcome: ActionOutcome, result: TreePerformResult
  ) {
    let (outcome, answer) = requestWithOutcome(
      ManagedActionRequest(.perform, identifier, from: self, sender: sender), tracing: trace)
    return (outcome, TreePerformResult(outcome: outcome, answer: answer))
  }

  /// Validates an identifier from this node: the same path and context as
  /// ``perform(_:sender:tracing:)``, but nothing is performed and no observer is called.
  ///
  /// - Parameters:
  ///   - identifier: The identifier.
  ///   - sender: What asks; this node when `nil`.
  /// - Returns: The validation, or ``Validation/unavailable`` when no manager answered.
  public func validate(_ identifier: String, sender: consuming Any? = nil) -> Validation {
    let request = ManagedActionRequest(.validate, identifier, from: self, sender: sender)
    guard case .validated(let validation)? = requestAnswer(request, tracing: nil).answer else {
      return .unavailable
    }
    return validation
  }
}

extension Node {
  /// Validates `identifier` from this node with `sender` as its sender, in `box`, which a caller
  /// validating many identifiers from one node (item validation) passes each time: the box is
  /// reused while nothing else holds it, so that each validation does not allocate one.
  func validate(
    _ identifier: String, sender: Node, reusing box: inout ManagedActionRequest.NamedSender?
  ) -> Validation {
    if isKnownUniquelyReferenced(&box), let reused = box, reused.origin === self, reused.mode == .validate {
      reused.sender = sender
    } else {
      box = ManagedActionRequest.NamedSender(mode: .validate, origin: self, sender: sender)
    }
    // `box` was just set if it was `nil`.
    let request = ManagedActionRequest(identifier: identifier, route: .named(box!))
    guard case .validated(let validation)? = requestAnswer(request, tracing: nil).answer else {
      return .unavailable
    }
    return validation
  }
}

extension TreePerformResult {
  /// The result of a perform request that ended in `outcome` with `answer`.
  init(outcome: consuming ActionOutcome, answer: consuming ManagedActionRequest.Answer?) {
    // Consumed and moved: a copy of an outcome goes through its value witnesses.
    guard case .performed(let result)? = answer else {
      self = .notPerformed(outcome)
      return
    }
    switch consume outcome {
    case .handled(let manager, _): self = .answered(result, managerNode: manager)
    case let other: self = .notPerformed(other)
    }
  }
}
