/// What the dispatcher needs to decide, without touching a closure or a reference count, whether a
/// modifier might run for an action.
struct ModifierKey {
  /// The modifier's number on its node: unique there, and increasing along the node's list.
  let serial: UInt64
  /// The matched type's identity; `nil` for untyped modifiers.
  let matchType: ObjectIdentifier?
  /// The phase the modifier runs in.
  let phase: ModifierPhase
  /// True when a different type identity rules out a match (see `matchesExactlyOnly`).
  let exactOnly: Bool

  /// Whether the modifier might run for an action of type `actionType` in `phase`.
  @inline(__always)
  func mightRun(in phase: ModifierPhase, for actionType: ObjectIdentifier) -> Bool {
    guard self.phase == phase else { return false }
    guard let matchType else { return true }
    return matchType == actionType || !exactOnly
  }
}

/// The phase a modifier runs in, as stored in its key.
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
/// dispatcher tests one word per node on every hop and scans the keys only on a hit.
enum TypeFilter {
  static let everything: UInt64 = ~0

  /// The bit for an action type.
  @inline(__always)
  static func bit(for type: ObjectIdentifier) -> UInt64 {
    // The identity's address, scrambled by a Fibonacci multiplier; `hashValue` would seed a Hasher.
    let hash = UInt64(UInt(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15
    return 1 << (hash >> 58)
  }

  /// The bits a key adds to the filter of its phase.
  static func bits(for key: ModifierKey) -> UInt64 {
    guard let matchType = key.matchType, key.exactOnly else { return everything }
    return bit(for: matchType)
  }
}

/// A node's modifier keys, parallel to its list of modifiers, in a buffer the node owns.
///
/// A manually managed buffer rather than an `Array` because reading an array stored in a class
/// retains and releases its storage; the dispatcher reads these keys on every hop, and only plain
/// loads keep a hop within a small factor of a bare pointer walk. The owning node calls
/// `deallocate()` in its deinit.
struct ModifierKeys {
  /// The serial the next key gets: serials increase along the list and are never reused, so a
  /// dispatch that noted this value when it started knows which modifiers were added since.
  /// (First: every hop of a dispatch reads it.)
  private(set) var nextSerial: UInt64 = 1
  private(set) var base: UnsafeMutablePointer<ModifierKey>?
  private(set) var count = 0
  private var capacity = 0

  /// The position of the first key at or after `start` that might run in `phase` for
  /// `actionType`, among the keys whose serial is below `limit`; -1 if none.
  @inline(__always)
  func firstCandidate(
    from start: Int, in phase: ModifierPhase, for actionType: ObjectIdentifier, below limit: UInt64
  ) -> Int {
    guard let base else { return -1 }
    var position = start
    while position < count {
      let key = base[position]
      // Serials increase along the list: this key and every later one were added after the
      // dispatch started.
      if key.serial >= limit { return -1 }
      if key.mightRun(in: phase, for: actionType) { return position }
      position += 1
    }
    return -1
  }

  /// The key at `position`.
  @inline(__always)
  func key(at position: Int) -> ModifierKey {
    // Callers pass positions below `count`, so `base` is set.
    base.unsafelyUnwrapped[position]
  }

  /// The serial of the key at `position`.
  @inline(__always)
  func serial(at position: Int) -> UInt64 {
    // Callers pass positions below `count`, so `base` is set.
    base.unsafelyUnwrapped[position].serial
  }

  /// Takes the serial for a new key.
  mutating func takeSerial() -> UInt64 {
    defer { nextSerial += 1 }
    return nextSerial
  }

  mutating func append(_ key: ModifierKey) {
    if count == capacity {
      let newCapacity = max(1, capacity * 2)
      let newBase = UnsafeMutablePointer<ModifierKey>.allocate(capacity: newCapacity)
      if let base {
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
      }
      base = newBase
      capacity = newCapacity
    }
    (base.unsafelyUnwrapped + count).initialize(to: key)
    count += 1
  }

  mutating func remove(at position: Int) {
    guard let base, position < count else { return }
    (base + position).moveInitialize(from: base + position + 1, count: count - position - 1)
    count -= 1
  }

  mutating func removeAll() { count = 0 }

  /// The filter of every key in one phase (see `TypeFilter`).
  func filter(for phase: ModifierPhase) -> UInt64 {
    guard let base else { return 0 }
    var filter: UInt64 = 0
    for position in 0..<count where base[position].phase == phase {
      filter |= TypeFilter.bits(for: base[position])
    }
    return filter
  }

  func deallocate() { base?.deallocate() }
}
