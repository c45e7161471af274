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

    init(_ action: any ManagedAction, isAsync: Bool) {
      self.action = action
      self.isAsync = isAsync
    }

    static func make(_ action: any ManagedAction) -> Registration {
      func open<A: ManagedAction>(_ action: A) -> Registration { TypedRegistration(action) }
      return open(action)
    }

    func perform(_ context: ActionContext) throws { try action.perform(context: context) }

    /// Performs the action, awaiting it when it is asynchronous (see `TypedRegistration`).
    nonisolated(nonsending) func performAwaiting(_ context: ActionContext) async throws {
      try action.perform(context: context)
    }

    /// The action's validation as it gives it: all a perform reads is whether it is enabled, so
    /// the title and summary an item would show are left to `described(_:)`.
    func validate(_ context: ActionContext) -> Validation { action.validate(context: context) }

    /// `validation`, its title and summary filled from the action's where it gives none: what
    /// a menu, a palette or a disabled perform's result shows.
    func described(_ validation: consuming Validation) -> Validation {
      Self.described(validation, by: action)
    }

    static func described(_ validation: consuming Validation, by action: some ManagedAction)
      -> Validation
    {
      if validation.title == nil { validation.title = action.title }
      if validation.summary == nil { validation.summary = action.summary }
      return validation
    }
  }

  /// A registration that keeps its action as its own type.
  final class TypedRegistration<A: ManagedAction>: Registration {
    let typed: A
    /// The action as an asynchronous one, when it is: cast once, at registration.
    let asynchronous: (any AsyncManagedAction)?

    init(_ action: A) {
      typed = action
      asynchronous = action as? any AsyncManagedAction
      super.init(action, isAsync: asynchronous != nil)
    }

    override func perform(_ context: ActionContext) throws { try typed.perform(context: context) }

    override nonisolated(nonsending) func performAwaiting(_ context: ActionContext) async throws {
      if let asynchronous {
        try await asynchronous.perform(context: context)
      } else {
        try typed.perform(context: context)
      }
    }

    override func validate(_ context: ActionContext) -> Validation { typed.validate(context: context) }

    override func described(_ validation: consuming Validation) -> Validation {
      Self.described(validation, by: typed)
    }
  }

  /// A parsed identifier (or its error), with the registration its name resolved to while
  /// `version` was the manager's `registrationsVersion`. A class, so that a cache hit shares the
  /// entry instead of copying its fields.
  final class CacheEntry {
    /// The identifier when the text parsed; `nil` when it did not, and `error` says why.
    let identifier: ActionIdentifier?
    /// Why the text did not parse; `nil` when it did.
    let error: ParseError<InvalidIdentifier>?
    var registration: Registration?
    var version: Int

    init(_ identifier: ActionIdentifier, version: Int) {
      self.identifier = identifier
      error = nil
      self.version = version
    }

    init(parsing text: String, version: Int) {
      do throws(ParseError<InvalidIdentifier>) {
        identifier = try ActionIdentifier(parsing: text)
        error = nil
      } catch {
        identifier = nil
        self.error = error
      }
      self.version = version
    }
  }

  var actions: [String: Registration] = [:] {
    didSet {
      registrationsVersion &+= 1
      sortedIdentifiers = nil
    }
  }
  /// The registered names, sorted when first asked for since they last changed: a palette or a
  /// list of what a node offers asks for them every time it is built.
  private var sortedIdentifiers: [String]?
  var registrationsVersion = 0
  /// How many performs of this manager are running, one inside another.
  var performDepth = 0

  /// The greatest number of performs that may run one inside another (an action that performs
  /// another, and so on), counting the outermost. Default: 64.
  ///
  /// A perform beyond it does not run and reports ``PerformResult/failed(_:_:)`` with
  /// ``ActionsError/reentrancyLimit(_:)``, so an action that performs itself ends cleanly instead
  /// of overflowing the stack. An awaited perform counts until it finishes. Set it with
  /// ``setReentrancyLimit(_:)``.
  public var reentrancyLimit: Int { limit }

  /// Sets ``reentrancyLimit``.
  ///
  /// - Parameter limit: At least 1.
  /// - Throws: ``ActionsError/invalidReentrancyLimit(_:)`` when `limit` is less than 1.
  public func setReentrancyLimit(_ limit: Int) throws(ActionsError) {
    guard limit >= 1 else { throw .invalidReentrancyLimit(limit) }
    self.limit = limit
  }

  // NB: the manager's stored properties are internal or private, and every access to them reads
  // or writes the whole value, calling nothing while it lasts (lists are taken out, changed and
  // put back). The optimizer then proves that no two accesses overlap and drops the run-time
  // exclusivity checks a perform would otherwise make. A stored property users can reach, or one
  // changed in place by a call, keeps them.
  private var limit = 64
  var observers: [Observer] = []
  private var nextObserverID = 0
  private var identifierCache: [String: CacheEntry] = [:]
  /// The UTF-8 bytes of the texts in `identifierCache`.
  private var identifierCacheBytes = 0
  // A context from a finished perform that nothing else kept, reused by the next one.
  var spareContext: ActionContext?
  // The most recently resolved text, checked before the dictionary: repeated identifiers (a key
  // held down, the same button) then cost a string comparison rather than a hash.
  private var recentText: String?
  private var recentEntry: CacheEntry?

  var identifierCacheCount: Int { identifierCache.count }
  var identifierCacheByteCount: Int { identifierCacheBytes }

  /// How many parsed identifiers the cache keeps before it starts over.
  static let identifierCacheLimit = 4_096
  /// How many bytes of identifier text the cache keeps before it starts over. A parsed identifier
  /// holds its name and arguments, at most as many bytes again.
  static let identifierCacheByteLimit = 256 * 1_024
  /// The longest identifier text the cache keeps; a longer one is parsed on every use, which
  /// costs little beside reading it.
  static let identifierCacheEntryByteLimit = 4_096

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
  public var registeredIdentifiers: [String] {
    if let sortedIdentifiers { return sortedIdentifiers }
    let sorted = actions.keys.sorted()
    sortedIdentifiers = sorted
    return sorted
  }

  private static func registrationName(_ text: String) throws(ActionsError) -> String {
    let parsed: ActionIdentifier
    do throws(ParseError<InvalidIdentifier>) {
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
  /// - Throws: `ParseError<InvalidIdentifier>`.
  public func identifier(parsing text: String) throws(ParseError<InvalidIdentifier>) -> ActionIdentifier {
    let entry = entry(for: text)
    guard let identifier = entry.identifier else {
      // Set whenever `identifier` is not.
      throw entry.error!
    }
    return identifier
  }

  /// The cache entry for `text`, parsing it on a miss, unless the caller has it parsed already
  /// (`parsed`, the identifier of a key binding whose text this is).
  @inline(__always)
  func entry(for text: String, parsed: ActionIdentifier? = nil) -> CacheEntry {
    if recentText == text, let recentEntry { return recentEntry }
    return cachedOrNewEntry(for: text, parsed: parsed)
  }

  private func cachedOrNewEntry(for text: String, parsed: ActionIdentifier?) -> CacheEntry {
    if let cached = cacheLookup(text) { return cached }
    // `version` starts out of date, so that `registration(of:_:)` looks the name up.
    let entry =
      if let parsed, parsed.text == text {
        CacheEntry(parsed, version: registrationsVersion &- 1)
      } else {
        CacheEntry(parsing: text, version: registrationsVersion &- 1)
      }
    let bytes = text.utf8.count
    guard bytes <= Self.identifierCacheEntryByteLimit else { return entry }
    if identifierCache.count >= Self.identifierCacheLimit
      || identifierCacheBytes + bytes > Self.identifierCacheByteLimit
    {
      identifierCache.removeAll(keepingCapacity: true)
      identifierCacheBytes = 0
    }
    identifierCache[text] = entry
    identifierCacheBytes += bytes
    recentText = text
    recentEntry = entry
    return entry
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
}
