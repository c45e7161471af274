/// Registers actions under identifiers, and validates and performs them with a context that the
/// caller and its providers fill in.
///
/// ```swift
/// let manager = ActionManager()
/// try manager.register(SaveAction())                      // as "Save"
/// manager.perform("menu.Save", sender: saveMenuItem)      // prefix ignored
/// manager.validate("toolbar.Save").isEnabled
/// ```
///
/// Every manager registers `Undo` and `Redo` actions that run its ``undoHistory``.
///
/// A manager is not `Sendable`: it lives in one isolation domain, like the UI it serves.
public final class ActionManager {
  /// The steps actions registered to undo and redo.
  public let undoHistory = UndoHistory()

  /// A registered action, classified once so that performing needs no conformance check. A class:
  /// copying an optional existential goes through generic value witnesses, a reference does not.
  /// `make` returns a `TypedRegistration`, which calls the action without copying it out of an
  /// existential.
  class Registration {
    let action: any ManagedAction
    let isAsync: Bool

    init(_ action: any ManagedAction) {
      self.action = action
      self.isAsync = action is any AsyncManagedAction
    }

    static func make(_ action: any ManagedAction) -> Registration {
      func open<A: ManagedAction>(_ action: A) -> Registration { TypedRegistration(action) }
      return open(action)
    }

    func perform(_ context: ActionContext) throws { try action.perform(context: context) }

    func validate(_ context: ActionContext) -> Validation { action.validate(context: context) }
  }

  /// A registration that keeps its action as its own type.
  final class TypedRegistration<A: ManagedAction>: Registration {
    let typed: A

    init(_ action: A) {
      typed = action
      super.init(action)
    }

    override func perform(_ context: ActionContext) throws { try typed.perform(context: context) }

    override func validate(_ context: ActionContext) -> Validation { typed.validate(context: context) }
  }

  /// A parsed identifier (or its error), with the registration its name resolved to while
  /// `version` was the manager's `registrationsVersion`. A class, so a cache hit costs one retain.
  final class CacheEntry {
    /// What parsing gave.
    let parsed: Result<ActionIdentifier, IdentifierParseError>
    /// The identifier when the text parsed: what a perform reads, as copying a `Result` out of a
    /// class costs an outlined copy of both payloads.
    let identifier: ActionIdentifier?
    // NB: `@exclusivity(unchecked)`: written only in `resolve`, never across a call out.
    @exclusivity(unchecked) var registration: Registration?
    @exclusivity(unchecked) var version: Int

    init(parsing text: String, version: Int) {
      do throws(IdentifierParseError) {
        parsed = .success(try ActionIdentifier(parsing: text))
      } catch {
        parsed = .failure(error)
      }
      identifier = try? parsed.get()
      self.version = version
    }
  }

  // NB: `@exclusivity(unchecked)` on the state every perform reads: no access to it spans a call
  // into an action, provider or observer, so no two accesses can overlap, and dynamic exclusivity
  // checks cost more than the lookups themselves.
  @exclusivity(unchecked) var actions: [String: Registration] = [:] {
    didSet { registrationsVersion &+= 1 }
  }
  @exclusivity(unchecked) var registrationsVersion = 0
  @exclusivity(unchecked) var observers: [Observer] = []
  private var nextObserverID = 0
  @exclusivity(unchecked) private var identifierCache: [String: CacheEntry] = [:]
  // A context from a finished perform that nothing else kept, reused by the next one.
  @exclusivity(unchecked) var spareContext: ActionContext?
  // The most recently resolved text, checked before the dictionary: repeated identifiers (a key
  // held down, the same button) then cost a string comparison rather than a hash.
  @exclusivity(unchecked) private var recentText: String?
  @exclusivity(unchecked) private var recentEntry: CacheEntry?

  var identifierCacheCount: Int { identifierCache.count }

  /// How many parsed identifiers the cache keeps before it starts over.
  static let identifierCacheLimit = 4_096

  /// Creates a manager with the `Undo` and `Redo` actions registered.
  public init() {
    actions[UndoAction.defaultIdentifier] = Registration.make(UndoAction())
    actions[RedoAction.defaultIdentifier] = Registration.make(RedoAction())
  }

  func takeObserverID() -> Int {
    defer { nextObserverID += 1 }
    return nextObserverID
  }

  // MARK: Registration

  /// Registers an action.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - identifier: The name to register it as; by default its type's
  ///     ``ManagedAction/defaultIdentifier``.
  /// - Throws: ``ActionsError/duplicateIdentifier(_:)`` when the name is taken, or
  ///   ``ActionsError/invalidRegistrationIdentifier(_:_:)`` when it is not a bare name.
  public func register(_ action: any ManagedAction, as identifier: String? = nil) throws(ActionsError) {
    let name = try Self.registrationName(identifier ?? type(of: action).defaultIdentifier)
    guard actions[name] == nil else { throw .duplicateIdentifier(name) }
    actions[name] = Registration.make(action)
  }

  /// Registers several actions under their default identifiers: all of them, or, when one name is
  /// taken or repeated, none.
  ///
  /// - Parameter batch: The actions.
  /// - Throws: ``ActionsError/duplicateIdentifier(_:)`` naming the first clash.
  public func register(_ batch: [any ManagedAction]) throws(ActionsError) {
    var names: Set<String> = []
    for action in batch {
      let name = try Self.registrationName(type(of: action).defaultIdentifier)
      guard actions[name] == nil, names.insert(name).inserted else { throw .duplicateIdentifier(name) }
    }
    for action in batch { actions[type(of: action).defaultIdentifier] = Registration.make(action) }
  }

  /// Removes a registration.
  ///
  /// - Parameter identifier: The registered name.
  /// - Throws: ``ActionsError/notRegistered(_:)``.
  public func unregister(_ identifier: String) throws(ActionsError) {
    guard actions.removeValue(forKey: identifier) != nil else { throw .notRegistered(identifier) }
  }

  /// The action registered under a name, if any.
  public func action(named name: String) -> (any ManagedAction)? { actions[name]?.action }

  /// The registered names, sorted.
  public var registeredIdentifiers: [String] { actions.keys.sorted() }

  private static func registrationName(_ text: String) throws(ActionsError) -> String {
    let parsed: ActionIdentifier
    do throws(IdentifierParseError) {
      parsed = try ActionIdentifier(parsing: text)
    } catch {
      throw .invalidRegistrationIdentifier(text, error)
    }
    guard parsed.prefix == nil, parsed.name == text else { throw .invalidRegistrationIdentifier(text, nil) }
    return parsed.name
  }

  // MARK: Identifiers and contexts

  /// Parses an identifier, using a cache keyed by its text.
  ///
  /// - Parameter text: The identifier.
  /// - Returns: The parsed identifier.
  /// - Throws: ``IdentifierParseError``.
  public func identifier(parsing text: String) throws(IdentifierParseError) -> ActionIdentifier {
    try unretainedEntry(for: text).takeUnretainedValue().parsed.get()
  }

  /// The cache entry for `text`, parsing it on a miss, without a retain: valid until the cache
  /// changes, which calling out to an action, provider or observer may do (by performing other
  /// identifiers).
  @inline(__always)
  func unretainedEntry(for text: String) -> Unmanaged<CacheEntry> {
    if recentText == text, let recentEntry { return Unmanaged.passUnretained(recentEntry) }
    return cachedOrNewEntry(for: text)
  }

  private func cachedOrNewEntry(for text: String) -> Unmanaged<CacheEntry> {
    if let cached = cacheLookup(text) { return Unmanaged.passUnretained(cached) }
    if identifierCache.count >= Self.identifierCacheLimit {
      identifierCache.removeAll(keepingCapacity: true)
    }
    // `version` starts out of date, so that `registration(of:_:)` looks the name up.
    let entry = CacheEntry(parsing: text, version: registrationsVersion &- 1)
    identifierCache[text] = entry
    recentText = text
    recentEntry = entry
    return Unmanaged.passUnretained(entry)
  }

  /// The registration of an entry's name now, `identifier` being its identifier.
  @inline(__always)
  func registration(of entry: CacheEntry, _ identifier: ActionIdentifier) -> Registration? {
    if entry.version != registrationsVersion {
      entry.registration = actions[identifier.name]
      entry.version = registrationsVersion
    }
    return entry.registration
  }

  private func cacheLookup(_ text: String) -> CacheEntry? {
    guard let entry = identifierCache[text] else { return nil }
    recentText = text
    recentEntry = entry
    return entry
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
  /// - Throws: ``IdentifierParseError``.
  public func makeContext(
    for text: String, sender: Any? = nil, providers: [any ActionContextProvider] = [],
    configure: (ActionContext) -> Void = { _ in }
  ) throws(IdentifierParseError) -> ActionContext {
    makeContext(try identifier(parsing: text), sender: sender, providers: providers, configure: configure)
  }

  func makeContext(
    _ identifier: ActionIdentifier, sender: Any?, providers: [any ActionContextProvider],
    configure: (ActionContext) -> Void
  ) -> ActionContext {
    let configure = { (context: ActionContext) in
      context.setSender(sender)
      configure(context)
    }
    return makeContext(identifier, borrowing: false, configure: configure) { context in
      if !providers.isEmpty { context.collect(from: providers) }
    }
  }

  /// A context from the spare one when there is one, with the manager as sender: then what
  /// `configure` sets (the sender too) and what `provide` adds.
  ///
  /// - Parameter borrowing: Whether the context borrows the manager (see
  ///   `ActionContext.borrowsReferences`); then the caller calls `stopBorrowing()` on it if it
  ///   outlives the perform.
  @inline(__always)
  func makeContext(
    _ identifier: ActionIdentifier, borrowing: Bool, configure: (ActionContext) -> Void,
    provide: (ActionContext) -> Void
  ) -> ActionContext {
    let context: ActionContext
    if let spare = spareContext.take() {
      spare.recycle(identifier: identifier, borrowing: borrowing)
      context = spare
    } else {
      context = ActionContext(identifier: identifier, manager: self, borrowing: borrowing)
    }
    configure(context)
    provide(context)
    return context
  }

  /// `withContext` for the public entry points: `text` through the cache, the caller's sender
  /// (the manager when `nil`) and values, then the providers, nearest first.
  @inline(__always)
  func withCallerContext<R>(
    _ text: String, sender: Any?, providers: [any ActionContextProvider], configure: (ActionContext) -> Void,
    invalid: (IdentifierParseError) -> R, then body: (ActionContext, ActionIdentifier, Registration?) -> R
  ) -> R {
    withContext(
      unretainedEntry(for: text),
      configure: { context in
        context.setSender(sender)
        configure(context)
      },
      provide: { context in if !providers.isEmpty { context.collect(from: providers) } },
      invalid: invalid, then: body)
  }

  /// The same for a cache entry, which must stay valid until `configure` is called (see
  /// `unretainedEntry(for:)`).
  @inline(__always)
  func withContext<R>(
    _ entry: Unmanaged<CacheEntry>, configure: (ActionContext) -> Void, provide: (ActionContext) -> Void,
    invalid: (IdentifierParseError) -> R, then body: (ActionContext, ActionIdentifier, Registration?) -> R
  ) -> R {
    // NB: what the perform needs is copied out of the entry before any call out; retaining the
    // entry itself would cost two more atomic operations per perform.
    // (A `guard` and a second function rather than one `let` assigned in two branches, which
    // costs about 35 instructions more per perform.)
    guard let identifier = entry._withUnsafeGuaranteedRef({ $0.identifier }) else {
      switch entry._withUnsafeGuaranteedRef({ $0.parsed }) {
      case .failure(let error): return invalid(error)
      // Not reached: `entry.identifier` is set whenever parsing succeeded.
      case .success(let parsed):
        let registration = entry._withUnsafeGuaranteedRef { self.registration(of: $0, parsed) }
        return withContext(parsed, registration, configure, provide, body)
      }
    }
    let registration = entry._withUnsafeGuaranteedRef { self.registration(of: $0, identifier) }
    return withContext(identifier, registration, configure, provide, body)
  }

  @inline(__always)
  private func withContext<R>(
    _ identifier: ActionIdentifier, _ registration: Registration?, _ configure: (ActionContext) -> Void,
    _ provide: (ActionContext) -> Void, _ body: (ActionContext, ActionIdentifier, Registration?) -> R
  ) -> R {
    // NB: a `let` until the uniqueness check: a `var` lives in memory, and every call that gets
    // the context would retain and release what it loads from there.
    let made = makeContext(identifier, borrowing: true, configure: configure, provide: provide)
    let result = body(made, identifier, registration)
    var context = consume made
    if isKnownUniquelyReferenced(&context) {
      // Nothing kept the context: reuse it for the next call.
      context.clear()
      spareContext = consume context
    } else {
      // An action or observer kept it: from now on it keeps its sender and manager alive.
      context.stopBorrowing()
    }
    return result
  }

  // MARK: Validating

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
    _ text: String, sender: Any? = nil, providers: [any ActionContextProvider] = [],
    configure: (ActionContext) -> Void = { _ in }
  ) -> Validation {
    withCallerContext(
      text, sender: sender, providers: providers, configure: configure, invalid: { _ in .unavailable },
      then: { context, _, registration in Self.validate(context, registration) })
  }

  // NB: not `registration?.validate(context) ?? .unavailable`, which copies the registration (a
  // retain and a release) to unwrap it.
  @inline(__always)
  private static func validate(_ context: ActionContext, _ registration: Registration?) -> Validation {
    switch registration {
    case .some(let registration): registration.validate(context)
    case .none: .unavailable
    }
  }

  /// Validates a context built elsewhere (for example along a tree).
  ///
  /// - Parameter context: The context.
  /// - Returns: The action's validation, or ``Validation/unavailable`` for an unknown identifier.
  public func validate(context: ActionContext) -> Validation {
    actions[context.identifier.name]?.validate(context) ?? .unavailable
  }
}
