/// Everything an action sees when it is validated or performed: the sender, the identifier and its
/// arguments, and values added by the caller and by providers.
///
/// The same context is built for validation and for performing, so an action can decide whether it
/// is enabled from exactly what it would act on.
///
/// Values are stored three ways:
/// - under typed keys (``ActionContextKey``), read with a subscript;
/// - under string keys (``set(_:forKey:)``), read with ``value(forKey:as:)``, which also finds
///   identifier arguments of that name;
/// - in lists under string keys (``append(_:to:)``), read by type with ``values(in:as:)``:
///   the classic pattern in which each interested object appends itself and the action calls every
///   observer of a protocol.
public final class ActionContext {
  /// The parsed identifier being validated or performed.
  public var identifier: ActionIdentifier { parsedIdentifier }
  /// What asked for the action: a menu item, a button, a key binding. The ``ActionManager`` when the
  /// caller gave none.
  public var sender: Any {
    get {
      if hasExplicitSender { return explicitSender }
      if let keptManager { return keptManager }
      // `maker` is set whenever no sender is, by the manager's initializer.
      return maker.map { $0 as Any } ?? ()
    }
    set {
      var sender = newValue
      swap(&explicitSender, &sender)
      hasExplicitSender = true
    }
  }
  /// When `true`, a perform runs the action without validating it first (set it in a perform's
  /// `configure` closure).
  public var skipsValidation: Bool {
    get { skipsValidationFlag }
    set { skipsValidationFlag = newValue }
  }
  /// The undo history of the manager that builds the context, for actions that register undo
  /// steps.
  public let undoHistory: UndoHistory

  /// Everything but the first typed value, allocated on first use: most contexts carry one value
  /// or none, and a context with fewer stored properties is cheaper to create and destroy.
  private final class Storage {
    var typedValues: [ObjectIdentifier: Any] = [:]
    var keyedValues: [String: Any] = [:]
    var lists: [String: [Any]] = [:]
  }

  // NB: the stored properties are private, and every access reads or writes the whole value,
  // calling nothing while it lasts: existentials are exchanged (moved bit for bit) rather than
  // assigned, which would call their type's value witness. The optimizer then proves that no two
  // accesses overlap and drops the run-time exclusivity checks.
  // `firstTypedValue` is not an `Any?`: copying an optional existential goes through generic
  // value witnesses.
  private var parsedIdentifier: ActionIdentifier
  private var skipsValidationFlag = false
  private var explicitSender: Any = ()
  private var hasExplicitSender = false
  /// The manager that built the context, the sender when the caller gave none. Weak: the manager
  /// keeps the context for its next perform, and a context it reuses must not keep it (nor touch
  /// its reference count on every perform); set once, when the context is made, and read only for the
  /// default sender. A context that outlives the perform that built it keeps its manager alive
  /// through `keptManager` (see `keepManager()`).
  private weak var maker: ActionManager?
  private var keptManager: ActionManager?
  private var firstTypedKey: ObjectIdentifier?
  private var firstTypedValue: Any = ()
  private var storageIfAllocated: Storage?
  /// While providers run, keys already set are kept (see ``ActionContextProvider``).
  private var isProviding = false

  private var storage: Storage {
    if let storageIfAllocated { return storageIfAllocated }
    let storage = Storage()
    storageIfAllocated = storage
    return storage
  }

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - identifier: The identifier being validated or performed.
  ///   - sender: What asked for the action.
  ///   - undoHistory: The undo history actions register their steps with.
  public init(identifier: ActionIdentifier, sender: Any, undoHistory: UndoHistory) {
    self.parsedIdentifier = identifier
    self.undoHistory = undoHistory
    self.sender = sender
  }

  /// Creates a context for a manager, which is its sender until one is set.
  init(identifier: ActionIdentifier, manager: ActionManager) {
    self.parsedIdentifier = identifier
    self.undoHistory = manager.undoHistory
    self.maker = manager
  }

  /// Makes a context that nothing else references, made by the same manager, ready for another
  /// perform: the manager recycles contexts so that a perform does not allocate.
  func recycle(identifier: ActionIdentifier) {
    // The same identifier as last time (a repeated perform) needs no store.
    if !parsedIdentifier.isIdentical(to: identifier) { parsedIdentifier = identifier }
  }

  /// Keeps the manager that built the context alive as long as the context: for a context that
  /// someone kept after the perform that built it, or that the manager handed out.
  func keepManager() {
    if keptManager == nil { keptManager = maker }
  }

  /// Sets the sender when `sender` is not `nil`.
  func setSender(_ sender: consuming Any?) {
    guard case .some(var sender) = consume sender else { return }
    swap(&explicitSender, &sender)
    hasExplicitSender = true
  }

  /// Drops everything a finished perform stored. (Plain stores only where something was set:
  /// assigning an existential costs a call through its type's value witnesses.)
  func clear() {
    if hasExplicitSender {
      var nothing: Any = ()
      swap(&explicitSender, &nothing)
      hasExplicitSender = false
    }
    skipsValidationFlag = false
    if firstTypedKey != nil {
      firstTypedKey = nil
      var nothing: Any = ()
      swap(&firstTypedValue, &nothing)
    }
    if storageIfAllocated != nil { storageIfAllocated = nil }
    isProviding = false
  }

  // MARK: Typed keys

  // NB: `@inlinable`, so that providers and actions in other modules get a specialized accessor;
  // unspecialized, each access looks up `Key.Value`'s metadata at run time.

  /// The value stored under a typed key, or the key's default value.
  ///
  /// While providers run, setting a key that the caller or a nearer provider already set keeps the
  /// earlier value.
  @inlinable
  public subscript<Key: ActionContextKey>(key: Key.Type) -> Key.Value {
    get {
      // Only `Key`'s setter stores under `ObjectIdentifier(Key.self)`, always a `Key.Value`.
      typedValue(ObjectIdentifier(key)).map { $0 as! Key.Value } ?? Key.defaultValue
    }
    set {
      let id = ObjectIdentifier(key)
      // While providers run, a key that has a value keeps it: the caller's and nearer providers'
      // values were set first.
      if keepsTypedValue(id) { return }
      setTypedValue(newValue, for: id)
    }
  }

  /// Whether setting a typed key does nothing: providers run and it has a value.
  @usableFromInline
  func keepsTypedValue(_ id: ObjectIdentifier) -> Bool {
    isProviding && hasTypedValue(id)
  }

  @usableFromInline
  func setTypedValue(_ value: Any, for id: ObjectIdentifier) {
    if firstTypedKey == nil || firstTypedKey == id {
      firstTypedKey = id
      var value = value
      swap(&firstTypedValue, &value)
    } else {
      storage.typedValues[id] = value
    }
  }

  /// Whether a typed key has been set.
  public func contains<Key: ActionContextKey>(_ key: Key.Type) -> Bool {
    hasTypedValue(ObjectIdentifier(key))
  }

  /// Whether a typed key has a value, without copying it out.
  private func hasTypedValue(_ id: ObjectIdentifier) -> Bool {
    if firstTypedKey == id { return true }
    guard let storageIfAllocated else { return false }
    return storageIfAllocated.typedValues.index(forKey: id) != nil
  }

  @usableFromInline
  func typedValue(_ id: ObjectIdentifier) -> Any? {
    if firstTypedKey == id { return firstTypedValue }
    return storageIfAllocated?.typedValues[id]
  }

  // MARK: String keys

  /// Stores a value under a string key.
  ///
  /// While providers run, a key that the caller or a nearer provider already set keeps its value.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  public func set(_ value: Any, forKey key: String) {
    if isProviding, storageIfAllocated?.keyedValues[key] != nil { return }
    storage.keyedValues[key] = value
  }

  /// The value under a string key as a `T`, or `nil` when there is none or it has another type.
  ///
  /// Values set with ``set(_:forKey:)`` come first; otherwise an identifier argument with that key
  /// is converted (see ``ArgumentValue/value(as:)``).
  public func value<T>(forKey key: String, as type: T.Type = T.self) -> T? {
    lookup(key, as: type).value
  }

  /// Looks up a string key, saying why when there is no value of the requested type.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - type: The type the caller expects.
  /// - Returns: The value, ``ContextLookup/missing``, or ``ContextLookup/wrongType(found:)``.
  public func lookup<T>(_ key: String, as type: T.Type = T.self) -> ContextLookup<T> {
    if let stored = storageIfAllocated?.keyedValues[key] {
      if let value = stored as? T { return .found(value) }
      return .wrongType(found: Swift.type(of: stored))
    }
    if let argument = identifier[key] {
      if let value = argument.value(as: T.self) { return .found(value) }
      switch argument {
      case .string: return .wrongType(found: String.self)
      case .int: return .wrongType(found: Int.self)
      case .double: return .wrongType(found: Double.self)
      case .bool: return .wrongType(found: Bool.self)
      }
    }
    return .missing
  }

  // MARK: Lists

  /// Appends a value to a list, such as an observer that wants to hear about the action.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - list: The list's key.
  public func append(_ value: Any, to list: String) {
    storage.lists[list, default: []].append(value)
  }

  /// The values of a list that are `T`s, in order, skipping the others.
  ///
  /// - Parameters:
  ///   - list: The list's key.
  ///   - type: The type of value wanted, often a protocol: `(any SelectionObserver).self`.
  /// - Returns: The matching values.
  public func values<T>(in list: String, as type: T.Type = T.self) -> [T] {
    storageIfAllocated?.lists[list]?.compactMap { $0 as? T } ?? []
  }

  // MARK: Providers

  /// Lets providers add their values, nearest first: each key keeps the first value it gets.
  /// The providers are asked where they are in the array: iterating would copy each one,
  /// retaining what it holds.
  func collect(from providers: [any ActionContextProvider]) {
    guard !providers.isEmpty else { return }
    whileProviding { _ in for index in providers.indices { providers[index].provide(to: self) } }
  }

  /// Calls `body` with this context in a providing phase: keys already set keep their values.
  func whileProviding(_ body: (ActionContext) -> Void) {
    let outer = isProviding
    isProviding = true
    defer { isProviding = outer }
    body(self)
  }
}
