extension ActionManager {
  /// Performs an identifier: parses it, builds its context, validates (unless the context skips
  /// validation), then runs the action. Reports exactly once.
  ///
  /// An asynchronous action reports ``ActionsError/requiresAwait(_:)``: use the `async` overload.
  ///
  /// - Parameters:
  ///   - text: The identifier, such as `"menu.Save"` or `#"SetColor("color": "red")"#`.
  ///   - sender: What asks for the action; the manager when `nil`.
  ///   - providers: Providers, nearest first.
  ///   - configure: Sets the caller's own values (and ``ActionContext/skipsValidation``).
  /// - Returns: What happened.
  @discardableResult
  public func perform(
    _ text: String, sender: consuming Any? = nil, providers: [any ActionContextProvider] = [],
    configure: (ActionContext) -> Void = { _ in }
  ) -> PerformResult {
    withCallerContext(
      text, sender: sender, configure: configure, provide: { $0.collect(from: providers) },
      invalid: { .invalidIdentifier($0) },
      then: { context, identifier, registration in perform(context, identifier, registration) })
  }

  /// Performs `context`, whose identifier is `identifier`, with `registration`.
  @inline(__always)
  private func perform(
    _ context: ActionContext, _ identifier: ActionIdentifier, _ registration: Registration?
  ) -> PerformResult {
    guard let registration else { return .unknown(identifier) }
    return perform(context, identifier, registration)
  }

  // NB: the identifier and the registration are the caller's (borrowed): reading them from the
  // context or unwrapping an optional here would cost a retain and a release each.
  private func perform(
    _ context: ActionContext, _ identifier: ActionIdentifier, _ registration: Registration
  ) -> PerformResult {
    if registration.isAsync { return .failed(identifier, ActionsError.requiresAwait(identifier.name)) }
    guard performDepth < reentrancyLimit else {
      return .failed(identifier, ActionsError.reentrancyLimit(reentrancyLimit))
    }
    performDepth += 1
    defer { performDepth -= 1 }
    // NB: no `PerformResult?` on this path: destroying an optional multi-payload enum goes through
    // value witnesses.
    if !context.skipsValidation {
      let validation = registration.validate(context)
      if !validation.isEnabled { return .disabled(identifier, validation) }
    }
    if !observers.isEmpty { notify(.willPerform, context) }
    do {
      try registration.perform(context)
    } catch {
      notify(.didFail(error), context)
      return .failed(identifier, error)
    }
    if !observers.isEmpty { notify(.didPerform, context) }
    return .performed(identifier)
  }

  /// Performs an identifier whose action may be asynchronous, on the caller's actor.
  ///
  /// - Parameters:
  ///   - text: The identifier.
  ///   - sender: What asks for the action; the manager when `nil`.
  ///   - providers: Providers, nearest first.
  ///   - configure: Sets the caller's own values.
  /// - Returns: What happened.
  @discardableResult
  nonisolated(nonsending) public func perform(
    _ text: String, sender: consuming Any? = nil, providers: [any ActionContextProvider] = [],
    configure: (ActionContext) -> Void = { _ in }
  ) async -> PerformResult {
    let context: ActionContext
    do throws(IdentifierParseError) {
      context = try makeContext(for: text, sender: sender, providers: providers, configure: configure)
    } catch {
      return .invalidIdentifier(error)
    }
    return await performAwaited(context)
  }

  /// Performs a context whose action may be asynchronous, on the caller's actor.
  nonisolated(nonsending) func performAwaited(_ context: ActionContext) async -> PerformResult {
    let identifier = context.identifier
    guard let registration = actions[identifier.name] else { return .unknown(identifier) }
    guard performDepth < reentrancyLimit else {
      return .failed(identifier, ActionsError.reentrancyLimit(reentrancyLimit))
    }
    performDepth += 1
    defer { performDepth -= 1 }
    if let refusal = refusal(of: registration, in: context) { return refusal }
    let action = registration.action
    notify(.willPerform, context)
    do {
      if let asyncAction = action as? any AsyncManagedAction {
        try await asyncAction.perform(context: context)
      } else {
        try action.perform(context: context)
      }
    } catch {
      notify(.didFail(error), context)
      return .failed(identifier, error)
    }
    notify(.didPerform, context)
    return .performed(identifier)
  }

  /// The result to report instead of performing, when validation disables the action.
  private func refusal(of registration: Registration, in context: ActionContext) -> PerformResult? {
    guard !context.skipsValidation else { return nil }
    let validation = registration.validate(context)
    return validation.isEnabled ? nil : .disabled(context.identifier, validation)
  }
}

// MARK: For trees

extension ActionManager {
  /// Performs an identifier for a tree (the ViewTreeActions adapter): as `perform(_:sender:)`,
  /// with `provide` adding values as providers do (a key already set keeps its value), in the one
  /// context the manager builds.
  package func performProviding(
    _ text: String, sender: consuming Any, _ provide: (ActionContext) -> Void
  ) -> PerformResult {
    withCallerContext(
      text, sender: sender, configure: { _ in }, provide: { $0.whileProviding(provide) },
      invalid: { .invalidIdentifier($0) },
      then: { context, identifier, registration in perform(context, identifier, registration) })
  }

  /// The same, awaiting an asynchronous action on the caller's actor.
  nonisolated(nonsending) package func performProviding(
    _ text: String, sender: consuming Any, _ provide: (ActionContext) -> Void
  ) async -> PerformResult {
    let identifier: ActionIdentifier
    do throws(IdentifierParseError) {
      identifier = try self.identifier(parsing: text)
    } catch {
      return .invalidIdentifier(error)
    }
    let context = makeContext(identifier)
    context.setSender(sender)
    context.whileProviding(provide)
    // The context may be suspended with its action: it is not reused.
    context.keepManager()
    return await performAwaited(context)
  }

  /// Validates an identifier for a tree, with `provide` adding values as providers do.
  package func validateProviding(
    _ text: String, sender: consuming Any, _ provide: (ActionContext) -> Void
  ) -> Validation {
    withCallerContext(
      text, sender: sender, configure: { _ in }, provide: { $0.whileProviding(provide) },
      invalid: { _ in .unavailable },
      then: { context, _, registration in Self.validate(context, registration) })
  }
}
