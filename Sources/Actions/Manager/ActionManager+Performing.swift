// How a manager answers: the entry points, then the one procedure they share, in the order it runs.
//
// 1. Look up: the text through the cache to its identifier (parsed once: a caller that has it
//    parsed passes it in) and its registration. Ends here when the text does not parse or names
//    nothing registered; a synchronous perform of an asynchronous action ends here too, so that
//    no provider runs for a perform that cannot happen.
// 2. The context: a spare one or a new one, with the caller's sender, then the caller's values
//    and what providers add.
// 3. Begin (performs only): the reentrancy limit, validation unless the context skips it, the
//    observers' `willPerform`.
// 4. Run the action, synchronously or awaited; validating runs the validation instead.
// 5. End: the observers hear how it went; the context is kept for the next call when nothing
//    else holds it.

extension ActionManager {
  // MARK: Entry points

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
    withContext(for: text, parsed: nil, sender: sender) { context in
      configure(context)
      context.collect(from: providers)
    } _: { context, identifier, registration in
      run(context, identifier, registration)
    }
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
    await performAwaiting(text, parsed: nil, sender: sender) { context in
      configure(context)
      context.collect(from: providers)
    }
  }

  /// Validates an identifier: how items for it should look now. Nothing is performed and no
  /// observer is called.
  ///
  /// Unknown identifiers, and identifiers that do not parse, are ``Validation/unavailable``.
  ///
  /// - Parameters:
  ///   - text: The identifier.
  ///   - sender: What asks; the manager when `nil`.
  ///   - providers: Providers, nearest first.
  ///   - configure: Sets the caller's own values.
  /// - Returns: The validation.
  public func validate(
    _ text: String, sender: consuming Any? = nil, providers: [any ActionContextProvider] = [],
    configure: (ActionContext) -> Void = { _ in }
  ) -> Validation {
    withContext(for: text, parsed: nil, sender: sender) { context in
      configure(context)
      context.collect(from: providers)
    } _: { context, _, registration in
      registration.described(registration.validate(context))
    }
  }

  /// Creates the context for validating or performing an identifier: the sender, then the values
  /// `configure` sets, then what the providers add (nearest first).
  ///
  /// - Parameters:
  ///   - text: The identifier.
  ///   - sender: What asks for the action; the manager when `nil`.
  ///   - providers: Providers, nearest first.
  ///   - configure: Sets the caller's own values, which providers do not replace.
  /// - Returns: The context.
  /// - Throws: `ParseError<InvalidIdentifier>`.
  public func makeContext(
    for text: String, sender: Any? = nil, providers: [any ActionContextProvider] = [],
    configure: (ActionContext) -> Void = { _ in }
  ) throws(ParseError<InvalidIdentifier>) -> ActionContext {
    let context = makeContext(try identifier(parsing: text), sender: sender) { context in
      configure(context)
      context.collect(from: providers)
    }
    // Handed out: the caller may keep it longer than the manager.
    context.keepManager()
    return context
  }

  // MARK: For trees

  /// Performs an identifier for a tree (the ViewTreeActions adapter): as `perform(_:sender:)`,
  /// with `provide` adding values as providers do (a key already set keeps its value), in the one
  /// context the manager builds. `parsed` is the identifier of `text` when the caller has it
  /// parsed (a key binding's), so that the manager does not parse it again.
  package func performProviding(
    _ text: String, parsed: ActionIdentifier? = nil, sender: consuming Any,
    _ provide: (ActionContext) -> Void
  ) -> PerformResult {
    withContext(for: text, parsed: parsed, sender: sender) {
      $0.whileProviding(provide)
    } _: {
      context, identifier, registration in
      run(context, identifier, registration)
    }
  }

  /// The same, awaiting an asynchronous action on the caller's actor.
  nonisolated(nonsending) package func performProviding(
    _ text: String, parsed: ActionIdentifier? = nil, sender: consuming Any,
    _ provide: (ActionContext) -> Void
  ) async -> PerformResult {
    await performAwaiting(text, parsed: parsed, sender: sender) { $0.whileProviding(provide) }
  }

  /// Validates an identifier for a tree, with `provide` adding values as providers do.
  package func validateProviding(
    _ text: String, sender: consuming Any, _ provide: (ActionContext) -> Void
  ) -> Validation {
    withContext(for: text, parsed: nil, sender: sender) {
      $0.whileProviding(provide)
    } _: {
      context, _, registration in
      registration.described(registration.validate(context))
    }
  }

  // MARK: 1. Look up

  /// What the look-up found for a text: its identifier and registration, or how the call ends.
  enum LookUp {
    case found(ActionIdentifier, Registration)
    /// The text does not parse.
    case invalid(ParseError<InvalidIdentifier>)
    /// The text names nothing registered.
    case unregistered(ActionIdentifier)
  }

  /// Step 1, the same for every call.
  @inline(__always)
  func lookUp(_ text: String, parsed: ActionIdentifier?) -> LookUp {
    let entry = entry(for: text, parsed: parsed)
    guard let identifier = entry.identifier else {
      // Set whenever `identifier` is not.
      return .invalid(entry.error!)
    }
    // NB: a `switch`, not `guard let`, which would copy the registration to unwrap it.
    switch registration(of: entry, identifier) {
    case .some(let registration): return .found(identifier, registration)
    case .none: return .unregistered(identifier)
    }
  }

  // MARK: 2. The context

  /// Step 2: a context for `identifier`, from the spare one when there is one, with `sender` (the
  /// manager when `nil`), then what `fill` sets.
  // NB: the sender is consumed on its way to the context, which takes it over: a caller that
  // passes a fresh value (the tree passes its request's sender) costs no copy.
  @inline(__always)
  func makeContext(
    _ identifier: ActionIdentifier, sender: consuming Any?, fill: (ActionContext) -> Void
  ) -> ActionContext {
    let context = spareOrNewContext(identifier)
    context.setSender(sender)
    fill(context)
    return context
  }

  /// The spare context, recycled for `identifier`, or a new one.
  @inline(__always)
  private func spareOrNewContext(_ identifier: ActionIdentifier) -> ActionContext {
    if let spare = spareContext.take() {
      spare.recycle(identifier: identifier)
      return spare
    }
    return ActionContext(identifier: identifier, manager: self)
  }

  /// Steps 1 and 2 for a synchronous call, then `body` with the context, then step 5's reuse of
  /// the context. A synchronous perform of an asynchronous action ends at step 1.
  @inline(__always)
  private func withContext<R: ManagerAnswer>(
    for text: String, parsed: ActionIdentifier?, sender: consuming Any?,
    fill: (ActionContext) -> Void, _ body: (ActionContext, ActionIdentifier, Registration) -> R
  ) -> R {
    let found = lookUp(text, parsed: parsed)
    switch consume found {
    case .invalid(let error): return .whenInvalid(error)
    case .unregistered(let identifier): return .whenUnregistered(identifier)
    case .found(let identifier, let registration):
      if registration.isAsync, let refusal = R.whenAsynchronous(identifier) { return refusal }
      // NB: a `let` until the uniqueness check: a `var` lives in memory, and every call that gets
      // the context would copy what it loads from there.
      let made = makeContext(identifier, sender: sender, fill: fill)
      let result = body(made, identifier, registration)
      var context = consume made
      if isKnownUniquelyReferenced(&context) {
        // Nothing kept the context: reuse it for the next call.
        context.clear()
        spareContext = consume context
      } else {
        // Someone kept it (an action, an observer): it keeps the manager alive from now on.
        context.keepManager()
      }
      return result
    }
  }

  /// Steps 1 and 2 for an awaited perform, then the rest: the context is not reused, as it may be
  /// suspended with its action.
  nonisolated(nonsending) private func performAwaiting(
    _ text: String, parsed: ActionIdentifier?, sender: consuming Any?, fill: (ActionContext) -> Void
  ) async -> PerformResult {
    switch lookUp(text, parsed: parsed) {
    case .invalid(let error): return .invalidIdentifier(error)
    case .unregistered(let identifier): return .unknown(identifier)
    case .found(let identifier, let registration):
      let context = makeContext(identifier, sender: sender, fill: fill)
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

  // MARK: 3. Begin, 4. run, 5. end

  // NB: the identifier and the registration are the caller's (borrowed): reading them from the
  // context here would copy them.
  private func run(
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

  /// Step 3, the same for a synchronous and an awaited perform: the reentrancy limit, then
  /// validation (unless the context skips it; it runs one perform deeper), then the observers'
  /// `willPerform`. Returns what to report instead of running the action; `nil` when it runs,
  /// the perform depth raised (the caller lowers it).
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

  /// Step 5 for a perform whose action threw `error`: the observers hear it.
  private func failed(_ context: ActionContext, _ identifier: ActionIdentifier, _ error: any Error)
    -> PerformResult
  {
    notify(.didFail(error), context)
    return .failed(identifier, error)
  }

  /// Step 5 for a perform whose action returned: the observers hear it.
  @inline(__always)
  private func performed(_ context: ActionContext, _ identifier: ActionIdentifier) -> PerformResult {
    if !observers.isEmpty { notify(.didPerform, context) }
    return .performed(identifier)
  }
}

/// What a synchronous call reports when it ends at step 1: a perform's result or a validation.
protocol ManagerAnswer {
  /// For a text that does not parse.
  static func whenInvalid(_ error: ParseError<InvalidIdentifier>) -> Self
  /// For a text that names nothing registered.
  static func whenUnregistered(_ identifier: ActionIdentifier) -> Self
  /// For an asynchronous action called synchronously; `nil` when the call goes on.
  static func whenAsynchronous(_ identifier: ActionIdentifier) -> Self?
}

extension PerformResult: ManagerAnswer {
  static func whenInvalid(_ error: ParseError<InvalidIdentifier>) -> PerformResult {
    .invalidIdentifier(error)
  }
  static func whenUnregistered(_ identifier: ActionIdentifier) -> PerformResult { .unknown(identifier) }
  static func whenAsynchronous(_ identifier: ActionIdentifier) -> PerformResult? {
    .failed(identifier, ActionsError.requiresAwait(identifier.name))
  }
}

extension Validation: ManagerAnswer {
  static func whenInvalid(_ error: ParseError<InvalidIdentifier>) -> Validation { .unavailable }
  static func whenUnregistered(_ identifier: ActionIdentifier) -> Validation { .unavailable }
  /// Validating an asynchronous action needs no await.
  static func whenAsynchronous(_ identifier: ActionIdentifier) -> Validation? { nil }
}
