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
      invalid: { .invalidIdentifier($0) }, refuse: Self.refusal,
      then: { context, identifier, registration in perform(context, identifier, registration) })
  }

  /// What a synchronous perform reports before it builds a context: an unknown name, or an
  /// asynchronous action (so that no provider runs for a perform that cannot happen).
  @inline(__always)
  static func refusal(_ identifier: ActionIdentifier, _ registration: Registration?) -> PerformResult? {
    switch registration {
    case .none: .unknown(identifier)
    case .some(let registration) where registration.isAsync:
      .failed(identifier, ActionsError.requiresAwait(identifier.name))
    case .some: nil
    }
  }

  /// Performs `context`, whose identifier is `identifier`, with `registration`, which `refusal`
  /// let through (so it is there: `refusal` answers for a missing one).
  @inline(__always)
  private func perform(
    _ context: ActionContext, _ identifier: ActionIdentifier, _ registration: Registration?
  ) -> PerformResult {
    // NB: a `switch`, not `guard let`, which would copy the registration to unwrap it.
    switch registration {
    case .some(let registration): perform(context, identifier, registration)
    case .none: .unknown(identifier)
    }
  }

  // NB: the identifier and the registration are the caller's (borrowed): reading them from the
  // context or unwrapping an optional here would copy them.
  private func perform(
    _ context: ActionContext, _ identifier: ActionIdentifier, _ registration: Registration
  ) -> PerformResult {
    if let refusal = begin(context, identifier, registration) { return refusal }
    defer { performDepth -= 1 }
    do {
      try registration.perform(context)
    } catch {
      return failed(context, identifier, error)
    }
    return performed(context, identifier)
  }

  /// The steps of a perform before its action runs, synchronous or awaited: the reentrancy
  /// limit, then validation (unless the context skips it; it runs one perform deeper), then the
  /// observers' `willPerform`. Returns what to report instead of running the action; `nil` when
  /// it runs, the perform depth raised (the caller lowers it).
  @inline(__always)
  private func begin(
    _ context: ActionContext, _ identifier: ActionIdentifier, _ registration: Registration
  ) -> PerformResult? {
    guard performDepth < reentrancyLimit else {
      return .failed(identifier, ActionsError.reentrancyLimit(reentrancyLimit))
    }
    performDepth += 1
    if !context.skipsValidation {
      let validation = registration.validate(context)
      if !validation.isEnabled {
        performDepth -= 1
        return .disabled(identifier, registration.described(validation))
      }
    }
    if !observers.isEmpty { notify(.willPerform, context) }
    return nil
  }

  /// What a perform whose action threw `error` reports, after the observers heard it.
  private func failed(_ context: ActionContext, _ identifier: ActionIdentifier, _ error: any Error)
    -> PerformResult
  {
    notify(.didFail(error), context)
    return .failed(identifier, error)
  }

  /// What a perform whose action returned reports, after the observers heard it.
  @inline(__always)
  private func performed(_ context: ActionContext, _ identifier: ActionIdentifier) -> PerformResult {
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
    await performAwaiting(text, sender: sender) { context in
      configure(context)
      context.collect(from: providers)
    }
  }

  /// Performs an identifier on the caller's actor, awaiting an asynchronous action: the same
  /// steps as the synchronous perform (the cache, the registration, the context, `begin`), but
  /// the context is not reused, as it may be suspended with its action.
  nonisolated(nonsending) private func performAwaiting(
    _ text: String, sender: consuming Any?, fill: (ActionContext) -> Void
  ) async -> PerformResult {
    let entry = entry(for: text)
    guard let identifier = entry.identifier else {
      // Set whenever `identifier` is not.
      return .invalidIdentifier(entry.error!)
    }
    guard let registration = registration(of: entry, identifier) else { return .unknown(identifier) }
    let context = makeContext(identifier)
    context.setSender(sender)
    fill(context)
    context.keepManager()
    if let refusal = begin(context, identifier, registration) { return refusal }
    defer { performDepth -= 1 }
    do {
      try await registration.performAwaiting(context)
    } catch {
      return failed(context, identifier, error)
    }
    return performed(context, identifier)
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
      invalid: { .invalidIdentifier($0) }, refuse: Self.refusal,
      then: { context, identifier, registration in perform(context, identifier, registration) })
  }

  /// The same, awaiting an asynchronous action on the caller's actor.
  nonisolated(nonsending) package func performProviding(
    _ text: String, sender: consuming Any, _ provide: (ActionContext) -> Void
  ) async -> PerformResult {
    await performAwaiting(text, sender: sender) { $0.whileProviding(provide) }
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
