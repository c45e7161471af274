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
