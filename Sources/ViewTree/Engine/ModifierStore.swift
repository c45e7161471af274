/// One modifier on a node: what a modifier method declared, its number on the node, and what the
/// dispatcher tests to decide, without touching the closure or a reference count, whether it might
/// run for an action.
struct ModifierEntry {
  /// The modifier's number on its node: unique there, and increasing along the node's list.
  let serial: UInt64
  /// The type a typed modifier matches; `nil` for untyped modifiers.
  let matchType: Any.Type?
  /// The type a lift produces, for descriptions.
  let outputType: Any.Type?
  var body: ModifierBody
  let kind: ModifierKind
  /// The phase the modifier runs in.
  let phase: ModifierPhase
  /// True when a different type identity rules out a match (see `matchesExactlyOnly`).
  let exactOnly: Bool

  init(_ declared: consuming DeclaredModifier, serial: UInt64) {
    self.serial = serial
    self.matchType = declared.matchType
    self.outputType = declared.outputType
    self.kind = declared.kind
    self.phase = ModifierPhase(declared.kind)
    self.exactOnly = matchesExactlyOnly(declared.kind, declared.matchType)
    self.body = declared.body
  }

  /// The bits this modifier adds to the filter of its phase (see `TypeFilter`).
  var filterBits: UInt64 {
    guard let matchType, exactOnly else { return TypeFilter.everything }
    return TypeFilter.bit(for: ObjectIdentifier(matchType))
  }
}

/// The phase a modifier runs in.
enum ModifierPhase: UInt8 {
  case capture
  case bubble
  case error

  init(_ kind: ModifierKind) {
    switch kind {
    case .capture: self = .capture
    case .catchError: self = .error
    case .receive, .transform, .lift, .handle, .observe, .respond: self = .bubble
    }
  }
}

/// A 64-bit summary of the action types some modifiers might run for: one bit per exact type
/// (chosen by a hash of its identity), every bit for a modifier that matches more than one type.
///
/// A clear bit proves no modifier of the set matches; a set bit means "look closer". The
/// dispatcher tests one word per node on every hop and scans the entries only on a hit.
enum TypeFilter {
  static let everything: UInt64 = ~0

  /// The bit for an action type.
  @inline(__always)
  static func bit(for type: ObjectIdentifier) -> UInt64 {
    // The identity's address, scrambled by a Fibonacci multiplier; `hashValue` would seed a Hasher.
    let hash = UInt64(UInt(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15
    return 1 << (hash >> 58)
  }
}

/// A node's modifiers, in order, in one buffer the node owns: a count and a capacity, then the
/// entries. `nil` until the first modifier, so a node without any spends one word on them.
///
/// Manually managed rather than an `Array` because reading an array stored in a class retains and
/// releases its storage; the dispatcher reads these entries on a filter hit, and only plain loads
/// keep a hop within a small factor of a bare pointer walk. One buffer rather than two (keys and
/// closures) keeps a node with one modifier at two allocations.
///
/// Invariant (what makes the unsafe code here safe): `base`, when set, points to a live buffer
/// with room for `capacity` entries, of which the first `count` are initialized; only the owning
/// node's `deinit` calls `deallocate()`, and no closure runs while the buffer changes: entries
/// leave it (by `take` or `remove`) before anything releases them, so a deinit that a release
/// runs finds the store consistent.
struct ModifierStore {
  private var base: UnsafeMutableRawPointer?

  /// The header, before the entries: the count, then the capacity.
  private static let headerSize = 8

  private var entries: UnsafeMutablePointer<ModifierEntry> {
    // Callers check `base` first.
    (base.unsafelyUnwrapped + Self.headerSize).assumingMemoryBound(to: ModifierEntry.self)
  }

  /// The number of modifiers.
  var count: Int {
    guard let base else { return 0 }
    return Int(base.load(as: Int32.self))
  }

  private var capacity: Int {
    guard let base else { return 0 }
    return Int(base.load(fromByteOffset: 4, as: Int32.self))
  }

  private func setCount(_ count: Int) {
    base.unsafelyUnwrapped.storeBytes(of: Int32(count), as: Int32.self)
  }

  var isEmpty: Bool { count == 0 }

  /// The entry at `position`, which is below `count`, read in place.
  subscript(position: Int) -> ModifierEntry {
    unsafeAddress { UnsafePointer(entries + position) }
  }

  /// The position of the first entry at or after `start` that might run in `phase` for
  /// `actionType`, among the entries whose serial is below `limit`; -1 if none.
  /// For a modifier typed by a class or a protocol, which a type identity cannot decide, `tree`
  /// answers whether `action` is an instance; in the error phase every such modifier (a catcher
  /// typed by an error) is a candidate, as its own search matches errors.
  @inline(__always)
  func firstCandidate(
    from start: Int, in phase: ModifierPhase, for actionType: ObjectIdentifier, below limit: UInt64,
    tree: Unmanaged<TreeState>, action: UnsafeMutablePointer<any Action>
  ) -> Int {
    guard let base else { return -1 }
    let count = Int(base.load(as: Int32.self))
    let entries = (base + Self.headerSize).assumingMemoryBound(to: ModifierEntry.self)
    var position = start
    while position < count {
      // Field by field through the pointer: a method call on the entry would copy it, closure
      // and all.
      let entry = entries + position
      // Serials increase along the list: this entry and every later one were added after the
      // dispatch started.
      if entry.pointee.serial >= limit { return -1 }
      if entry.pointee.phase == phase {
        guard let matchType = entry.pointee.matchType else { return position }
        if ObjectIdentifier(matchType) == actionType { return position }
        if !entry.pointee.exactOnly,
          phase == .error
            || tree._withUnsafeGuaranteedRef({ $0.isInstance(action, type: actionType, of: matchType) })
        {
          return position
        }
      }
      position += 1
    }
    return -1
  }

  /// Whether an entry might run in `phase` for an action of exactly `actionType`: an untyped
  /// one, one typed by that type, or one typed by a class or a protocol (which this does not
  /// decide). Exact where a type filter is not, for a caller that would otherwise walk a path.
  func mayRun(in phase: ModifierPhase, for actionType: ObjectIdentifier) -> Bool {
    guard let base else { return false }
    let count = Int(base.load(as: Int32.self))
    let entries = (base + Self.headerSize).assumingMemoryBound(to: ModifierEntry.self)
    for position in 0..<count {
      let entry = entries + position
      guard entry.pointee.phase == phase else { continue }
      guard let matchType = entry.pointee.matchType else { return true }
      if ObjectIdentifier(matchType) == actionType || !entry.pointee.exactOnly { return true }
    }
    return false
  }

  /// Appends `entry`.
  mutating func append(_ entry: consuming ModifierEntry) {
    let count = self.count
    if count == capacity {
      let newCapacity = max(1, capacity * 2)
      let newBase = UnsafeMutableRawPointer.allocate(
        byteCount: Self.headerSize + newCapacity * MemoryLayout<ModifierEntry>.stride,
        alignment: MemoryLayout<ModifierEntry>.alignment)
      let newEntries = (newBase + Self.headerSize).bindMemory(to: ModifierEntry.self, capacity: newCapacity)
      if let base {
        newEntries.moveInitialize(from: entries, count: count)
        base.deallocate()
      }
      newBase.storeBytes(of: Int32(count), as: Int32.self)
      newBase.storeBytes(of: Int32(newCapacity), toByteOffset: 4, as: Int32.self)
      base = newBase
    }
    (entries + count).initialize(to: entry)
    setCount(count + 1)
  }

  /// Removes and returns the entry at `position`, which is below `count`.
  mutating func remove(at position: Int) -> ModifierEntry {
    let count = self.count
    let removed = (entries + position).move()
    (entries + position).moveInitialize(from: entries + position + 1, count: count - position - 1)
    setCount(count - 1)
    return removed
  }

  /// Empties the store and returns what it held, for the caller to release after the change.
  mutating func takeAll() -> ModifierStore {
    defer { base = nil }
    return self
  }

  /// Exchanges the body of the entry at `position`, which is below `count`, with `body`.
  mutating func swapBody(at position: Int, with body: inout ModifierBody) {
    swap(&entries[position].body, &body)
  }

  /// The filter of every entry in one phase (see `TypeFilter`).
  func filter(for phase: ModifierPhase) -> UInt64 {
    var filter: UInt64 = 0
    for position in 0..<count where self[position].phase == phase { filter |= self[position].filterBits }
    return filter
  }

  /// Releases every entry and the buffer. Only the owner calls it, once, on a store it no longer
  /// reads (its `deinit`, or a store `takeAll()` returned).
  func deallocate() {
    guard let base else { return }
    entries.deinitialize(count: count)
    base.deallocate()
  }
}

/// A node's modifiers: the only code that changes the list and the summaries the dispatcher
/// reads with it (the filters and the next serial), so that they stay in step (invariant 4 of
/// `INVARIANTS.md` for their accesses; the filters' meaning in `ModifierEntry.filterBits`).
extension Node {
  /// The modifiers attached to the node, in attachment order (the order they run in).
  public var modifiers: [ModifierInfo] { (0..<_store.count).map(modifierInfo(at:)) }

  /// Removes one modifier.
  ///
  /// A modifier removed while an action is being dispatched does not run for that action
  /// afterwards.
  ///
  /// - Parameter id: The modifier's identifier, from ``modifiers``.
  /// - Throws: ``ViewTreeError/noSuchModifier(_:node:)`` when the node has no such modifier.
  /// - Complexity: O(*m*), the number of modifiers on the node.
  public func removeModifier(_ id: ModifierID) throws(ViewTreeError) {
    guard let index = (0..<_store.count).first(where: { _store[$0].serial == id.serial }) else {
      throw .noSuchModifier(id, node: path)
    }
    // Released at the end of the scope, once the node is consistent again.
    let removed = _store.remove(at: index)
    _nextSerial += 1
    adjustCounts(for: removed.kind, by: -1)
    _bubbleFilter = _store.filter(for: .bubble)
    _captureFilter = _store.filter(for: .capture)
  }

  /// Removes every modifier.
  public func removeAllModifiers() {
    let removed = _store.takeAll()
    _nextSerial += 1
    _bubbleFilter = 0
    _captureFilter = 0
    catchModifierCount = 0
    // The closures are released once the node is consistent again.
    removed.deallocate()
  }

  /// Attaches a modifier and returns its identifier.
  @discardableResult
  func attachModifier(_ declared: consuming DeclaredModifier) -> ModifierID {
    let serial = _nextSerial
    _nextSerial += 1
    let entry = ModifierEntry(declared, serial: serial)
    let kind = entry.kind
    switch entry.phase {
    case .bubble: _bubbleFilter |= entry.filterBits
    case .capture: _captureFilter |= entry.filterBits
    case .error: break
    }
    _store.append(entry)
    adjustCounts(for: kind, by: 1)
    return ModifierID(serial: serial)
  }

  private func adjustCounts(for kind: ModifierKind, by delta: Int32) {
    switch kind {
    case .catchError: catchModifierCount += delta
    default: break
    }
  }

  /// The number of modifiers on the node.
  var modifierCount: Int { _store.count }

  /// The modifier at `position` in the node's list, `0..<modifierCount`.
  func modifier(at position: Int) -> ModifierEntry { _store[position] }

  /// Replaces the node's modifiers by `declared`: in place when the shapes agree, the node's
  /// closures exchanged for the declared ones (the replaced closures are left in `declared`).
  func replaceModifiers(with declared: inout DeclaredModifiers) {
    if declared.count == _store.count, hasSameShapes(as: declared) {
      // Keys and filters stay, as the shapes are the same; the replaced closures leave with the
      // declaration, after the update, so that no closure's release runs while the list changes.
      declared.exchangeBodies(with: &_store)
      return
    }
    removeAllModifiers()
    declared.visitInOrder { modifier in attachModifier(copy modifier) }
  }

  /// Whether the node's modifiers have, one by one, the kinds and types of `declared` (as many of
  /// them); how a modifier matches (`exactOnly`) follows from those.
  private func hasSameShapes(as declared: DeclaredModifiers) -> Bool {
    // Field by field: copying an entry or a declared modifier would retain its closures.
    for position in 0..<_store.count {
      let shape = declared.shape(at: position)
      guard _store[position].kind == shape.kind,
        _store[position].matchType.map(ObjectIdentifier.init)
          == shape.matchType.map(ObjectIdentifier.init),
        _store[position].outputType.map(ObjectIdentifier.init)
          == shape.outputType.map(ObjectIdentifier.init)
      else { return false }
    }
    return true
  }
}

extension Node {
  /// What is out of step in the node's list of modifiers, for `NodeTree.invariantViolations`.
  func modifierProblems() -> [String] {
    var problems: [String] = []
    var previous: UInt64 = 0
    var bubble: UInt64 = 0
    var capture: UInt64 = 0
    var catches: Int32 = 0
    for position in 0..<_store.count {
      let entry = _store[position]
      if entry.phase != ModifierPhase(entry.kind)
        || entry.exactOnly != matchesExactlyOnly(entry.kind, entry.matchType)
      {
        problems.append("\(path): entry \(position) out of step with its kind")
      }
      if entry.serial <= previous { problems.append("\(path): serials do not increase at \(position)") }
      if entry.serial >= _nextSerial { problems.append("\(path): serial \(entry.serial) not yet given out") }
      previous = entry.serial
      switch entry.phase {
      case .bubble: bubble |= entry.filterBits
      case .capture: capture |= entry.filterBits
      case .error: catches += 1
      }
    }
    if bubble & ~_bubbleFilter != 0 { problems.append("\(path): the bubble filter misses a modifier") }
    if capture & ~_captureFilter != 0 { problems.append("\(path): the capture filter misses a modifier") }
    if catches != catchModifierCount {
      problems.append("\(path): \(catchModifierCount) catches counted, \(catches) present")
    }
    return problems
  }
}
