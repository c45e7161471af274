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
    nextSerial += 1
    adjustCounts(for: removed.kind, by: -1)
    bubbleFilter = _store.filter(for: .bubble)
    captureFilter = _store.filter(for: .capture)
  }

  /// Removes every modifier.
  public func removeAllModifiers() {
    let removed = _store.takeAll()
    nextSerial += 1
    bubbleFilter = 0
    captureFilter = 0
    catchModifierCount = 0
    // The closures are released once the node is consistent again.
    removed.deallocate()
  }

  /// Attaches a modifier and returns its identifier.
  @discardableResult
  func attachModifier(_ declared: consuming DeclaredModifier) -> ModifierID {
    let serial = nextSerial
    nextSerial += 1
    let entry = ModifierEntry(declared, serial: serial)
    let kind = entry.kind
    switch entry.phase {
    case .bubble: bubbleFilter |= entry.filterBits
    case .capture: captureFilter |= entry.filterBits
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
}

extension ModifierHost {
  /// Requires that every action triggered from this node or below be handled; see
  /// ``Node/requiresHandling``.
  ///
  /// - Parameter required: Whether handling is required.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func requiresHandling(_ required: Bool = true) -> Self {
    var host = self
    host.requiresHandling = required
    return host
  }
}

extension Node: ModifierHost {
  /// Attaches `modifier` after the node's other modifiers.
  ///
  /// - Parameter modifier: The modifier, made by one of the modifier methods.
  /// - Returns: This node.
  @discardableResult
  public func adding(_ modifier: consuming DeclaredModifier) -> Node {
    attachModifier(modifier)
    return self
  }

  /// Whether the node has a modifier of `kind` matching exactly `type`.
  ///
  /// - Parameters:
  ///   - kind: The kind of modifier.
  ///   - type: The type it matches.
  /// - Returns: `true` if it has.
  public func hasModifier(_ kind: ModifierKind, matching type: Any.Type) -> Bool {
    (0..<_store.count).contains { isModifier(_store[$0].kind, matching: _store[$0].matchType, kind, type) }
  }

  /// Removes the node's modifiers of `kind` matching exactly `type`.
  ///
  /// - Parameters:
  ///   - kind: The kind of modifier.
  ///   - type: The type they match.
  /// - Returns: This node.
  @discardableResult
  public func removingModifiers(_ kind: ModifierKind, matching type: Any.Type) -> Node {
    let serials = (0..<_store.count).filter {
      isModifier(_store[$0].kind, matching: _store[$0].matchType, kind, type)
    }.map { _store[$0].serial }
    for serial in serials {
      // The serial comes from the list, so the modifier is there.
      try? removeModifier(ModifierID(serial: serial))
    }
    return self
  }

  /// Attaches `value` for `key`; the same as setting `self[attachment: key]`, in a chain.
  ///
  /// - Parameters:
  ///   - key: The attachment's key.
  ///   - value: The value.
  /// - Returns: This node.
  @discardableResult
  public func settingAttachment<Key: NodeAttachmentKey>(_ key: Key.Type, to value: Key.Value) -> Node {
    if key == NodeGeometryKey.self, let geometry = value as? NodeGeometry? {
      if setGeometry(geometry) { layoutDidChange() }
      return self
    }
    guard key == LifecycleCallbacks.self || key == InputTraitsKey.self else {
      self[attachment: key] = value
      return self
    }
    // A scope that starts to declare `autofocus` while in a tree asks for focus, as one that
    // enters a tree does.
    let startsAutofocus = (value as? InputTraits)?.autofocus == true && inputTraits?.autofocus != true
    let wasTrap = isFocusTrap
    if key == InputTraitsKey.self, let traits = value as? InputTraits? {
      if traits != nil || _extras != nil { extras.inputTraits = traits }
    } else {
      self[attachment: key] = value
    }
    lifecycleCallbacksChanged()
    if startsAutofocus { root._state?.requestAutofocus(self) }
    if wasTrap != isFocusTrap { trapDidChange() }
    return self
  }

  /// Adds `problem` to ``problems`` and passes it to the tree's ``NodeTree/onProblem``.
  ///
  /// - Parameter problem: What went wrong.
  /// - Returns: This node.
  @discardableResult
  public func reporting(_ problem: any Error) -> Node {
    self[attachment: ProblemsAttachment.self].append(problem)
    root._state?.settings.onProblem?(problem, self)
    return self
  }

  /// The mistakes found in the modifiers declared on this node (see ``ModifierHost/reporting(_:)``),
  /// oldest first. An update by declaration replaces them by the declaration's.
  public var problems: [any Error] { self[attachment: ProblemsAttachment.self] }
}

/// Where a node keeps its ``Node/problems``.
enum ProblemsAttachment: NodeAttachmentKey {
  static var defaultValue: [any Error] { [] }
}
