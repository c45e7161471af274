extension Node {
  /// The modifiers attached to the node, in attachment order (the order they run in).
  public var modifiers: [ModifierInfo] { _modifiers.map(\.info) }

  /// Removes one modifier.
  ///
  /// A modifier removed while an action is being dispatched does not run for that action
  /// afterwards.
  ///
  /// - Parameter id: The modifier's identifier, from ``modifiers``.
  /// - Throws: ``ViewTreeError/noSuchModifier(_:node:)`` when the node has no such modifier.
  /// - Complexity: O(*m*), the number of modifiers on the node.
  public func removeModifier(_ id: ModifierID) throws(ViewTreeError) {
    guard let index = _modifiers.firstIndex(where: { $0.serial == id.rawValue }) else {
      throw .noSuchModifier(id, node: path)
    }
    let removed = _modifiers.remove(at: index)
    _keys.remove(at: index)
    adjustCounts(for: removed.kind, by: -1)
    bubbleFilter = _keys.filter(for: .bubble)
    captureFilter = _keys.filter(for: .capture)
  }

  /// Removes every modifier.
  public func removeAllModifiers() {
    _modifiers = []
    _keys.removeAll()
    bubbleFilter = 0
    captureFilter = 0
    catchModifierCount = 0
  }

  /// Attaches a modifier and returns its identifier.
  @usableFromInline @discardableResult
  func attach(
    _ kind: ModifierKind, matching matchType: Any.Type?, exactOnly: Bool, output: Any.Type? = nil,
    body: ModifierBody
  ) -> ModifierID {
    let entry = ModifierEntry(
      serial: _keys.takeSerial(), kind: kind, exactOnly: exactOnly, matchType: matchType,
      outputType: output, body: body)
    _modifiers.append(entry)
    let key = ModifierKey(
      serial: entry.serial, matchType: matchType.map(ObjectIdentifier.init), phase: ModifierPhase(kind),
      exactOnly: exactOnly)
    _keys.append(key)
    switch key.phase {
    case .bubble: bubbleFilter |= TypeFilter.bits(for: key)
    case .capture: captureFilter |= TypeFilter.bits(for: key)
    case .error: break
    }
    adjustCounts(for: kind, by: 1)
    return entry.id
  }

  private func adjustCounts(for kind: ModifierKind, by delta: Int32) {
    switch kind {
    case .catchError: catchModifierCount += delta
    default: break
    }
  }
}

extension Node {
  /// Requires that every action triggered from this node or below be handled; see
  /// ``requiresHandling``.
  ///
  /// - Parameter required: Whether handling is required.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func requireHandling(_ required: Bool = true) -> Node {
    requiresHandling = required
    return self
  }
}
