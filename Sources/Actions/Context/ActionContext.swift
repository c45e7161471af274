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
/// - in lists under string keys (``append(_:to:)``), visited by type with ``forEach(in:as:_:)``:
///   the classic pattern in which each interested object appends itself and the action calls every
///   observer of a protocol.
public final class ActionContext {
  /// The parsed identifier being validated or performed.
  public let identifier: ActionIdentifier
  /// What asked for the action: a menu item, a button, a key binding. The ``ActionManager`` when the
  /// caller gave none.
  public var sender: Any
  /// When `true`, ``ActionManager/perform(context:)`` performs without validating first.
  public var skipsValidation = false
  /// The undo history of the manager that builds the context, for actions that register undo
  /// steps.
  public let undoHistory: UndoHistory

  private var typedValues: [ObjectIdentifier: Any] = [:]
  private var keyedValues: [String: Any] = [:]
  private var lists: [String: [Any]] = [:]
  /// While providers run, keys already set are kept (see ``ActionContextProvider``).
  private var isProviding = false
  private var providedTypedKeys: Set<ObjectIdentifier> = []
  private var providedKeys: Set<String> = []

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - identifier: The identifier being validated or performed.
  ///   - sender: What asked for the action.
  ///   - undoHistory: The undo history actions register their steps with.
  public init(identifier: ActionIdentifier, sender: Any, undoHistory: UndoHistory) {
    self.identifier = identifier
    self.sender = sender
    self.undoHistory = undoHistory
  }

  /// The identifier's arguments.
  public var arguments: [ActionArgument] { identifier.arguments }

  // MARK: Typed keys

  /// The value stored under a typed key, or the key's default value.
  ///
  /// While providers run, setting a key that the caller or a nearer provider already set keeps the
  /// earlier value.
  public subscript<Key: ActionContextKey>(key: Key.Type) -> Key.Value {
    get {
      // Only `Key`'s setter stores under `ObjectIdentifier(Key.self)`, always a `Key.Value`.
      typedValues[ObjectIdentifier(key)].map { $0 as! Key.Value } ?? Key.defaultValue
    }
    set {
      let id = ObjectIdentifier(key)
      if isProviding {
        if providedTypedKeys.contains(id) { return }
        providedTypedKeys.insert(id)
      }
      typedValues[id] = newValue
    }
  }

  /// Whether a typed key has been set.
  public func contains<Key: ActionContextKey>(_ key: Key.Type) -> Bool {
    typedValues[ObjectIdentifier(key)] != nil
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
    if isProviding {
      if providedKeys.contains(key) { return }
      providedKeys.insert(key)
    }
    keyedValues[key] = value
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
    if let stored = keyedValues[key] {
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
    lists[list, default: []].append(value)
  }

  /// Calls `body` with every value of the list that is a `T`, in order, skipping the others.
  ///
  /// - Parameters:
  ///   - list: The list's key.
  ///   - type: The type of value to visit, often a protocol: `(any SelectionObserver).self`.
  ///   - body: Called with each matching value.
  public func forEach<T>(in list: String, as type: T.Type, _ body: (T) throws -> Void) rethrows {
    guard let values = lists[list] else { return }
    for case let value as T in values { try body(value) }
  }

  /// The values of a list that are `T`s, in order.
  public func values<T>(in list: String, as type: T.Type = T.self) -> [T] {
    lists[list]?.compactMap { $0 as? T } ?? []
  }

  // MARK: Providers

  /// Lets providers add their values, nearest first: each key keeps the first value it gets.
  ///
  /// - Parameter providers: The providers, nearest first.
  public func collect(from providers: some Sequence<any ActionContextProvider>) {
    beginProviding()
    defer { endProviding() }
    for provider in providers { provider.provide(to: self) }
  }

  /// Starts a providing phase: from now on, keys already set keep their values. Pair with
  /// ``endProviding()``; ``collect(from:)`` does both.
  public func beginProviding() {
    guard !isProviding else { return }
    isProviding = true
    providedTypedKeys = Set(typedValues.keys)
    providedKeys = Set(keyedValues.keys)
  }

  /// Ends a providing phase started by ``beginProviding()``.
  public func endProviding() {
    isProviding = false
    providedTypedKeys = []
    providedKeys = []
  }
}
