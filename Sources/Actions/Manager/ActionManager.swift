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
  final class Registration {
    let action: any ManagedAction
    let isAsync: Bool

    init(_ action: any ManagedAction) {
      self.action = action
      self.isAsync = action is any AsyncManagedAction
    }
  }

  /// A parsed identifier (or its error), with the registration its name resolved to while
  /// `version` was the manager's `registrationsVersion`. A class, so a cache hit costs one retain.
  final class CacheEntry {
    let result: Result<ActionIdentifier, IdentifierParseError>
    // NB: `@exclusivity(unchecked)`: written only in `resolve`, never across a call out.
    @exclusivity(unchecked) var registration: Registration?
    @exclusivity(unchecked) var version: Int

    init(result: Result<ActionIdentifier, IdentifierParseError>, registration: Registration?, version: Int) {
      self.result = result
      self.registration = registration
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
    actions[UndoAction.defaultIdentifier] = Registration(UndoAction())
    actions[RedoAction.defaultIdentifier] = Registration(RedoAction())
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
    actions[name] = Registration(action)
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
    for action in batch { actions[type(of: action).defaultIdentifier] = Registration(action) }
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
    try resolve(text).identifier
  }

  /// Parses `text` (through the cache) and finds the action its name is registered to, with one
  /// hash of the text when the cache answers.
  func resolve(_ text: String) throws(IdentifierParseError) -> (
    identifier: ActionIdentifier, registration: Registration?
  ) {
    if let cached = recentText == text ? recentEntry : cacheLookup(text) {
      let identifier = try cached.result.get()
      if cached.version == registrationsVersion { return (identifier, cached.registration) }
      let registration = actions[identifier.name]
      cached.registration = registration
      cached.version = registrationsVersion
      return (identifier, registration)
    }
    let result: Result<ActionIdentifier, IdentifierParseError>
    do throws(IdentifierParseError) {
      result = .success(try ActionIdentifier(parsing: text))
    } catch {
      result = .failure(error)
    }
    if identifierCache.count >= Self.identifierCacheLimit {
      identifierCache.removeAll(keepingCapacity: true)
      recentText = nil
      recentEntry = nil
    }
    let registration = (try? result.get()).flatMap { actions[$0.name] }
    let entry = CacheEntry(result: result, registration: registration, version: registrationsVersion)
    identifierCache[text] = entry
    recentText = text
    recentEntry = entry
    return (try result.get(), registration)
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
    let resolvedSender: Any = sender ?? self
    let context: ActionContext
    if let spare = spareContext {
      spareContext = nil
      spare.recycle(identifier: identifier, sender: resolvedSender)
      context = spare
    } else {
      context = ActionContext(identifier: identifier, sender: resolvedSender, undoHistory: undoHistory)
    }
    configure(context)
    if !providers.isEmpty { context.collect(from: providers) }
    return context
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
    guard
      let context = try? makeContext(for: text, sender: sender, providers: providers, configure: configure)
    else { return .unavailable }
    return validate(context: context)
  }

  /// Validates a context built elsewhere (for example along a tree).
  ///
  /// - Parameter context: The context.
  /// - Returns: The action's validation, or ``Validation/unavailable`` for an unknown identifier.
  public func validate(context: ActionContext) -> Validation {
    actions[context.identifier.name]?.action.validate(context: context) ?? .unavailable
  }
}
