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
