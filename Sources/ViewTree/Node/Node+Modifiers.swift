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
    (0..<modifierCount).contains {
      let entry = modifier(at: $0)
      return isModifier(entry.kind, matching: entry.matchType, kind, type)
    }
  }

  /// Removes the node's modifiers of `kind` matching exactly `type`.
  ///
  /// - Parameters:
  ///   - kind: The kind of modifier.
  ///   - type: The type they match.
  /// - Returns: This node.
  @discardableResult
  public func removingModifiers(_ kind: ModifierKind, matching type: Any.Type) -> Node {
    let serials = (0..<modifierCount).map(modifier(at:)).filter {
      isModifier($0.kind, matching: $0.matchType, kind, type)
    }.map(\.serial)
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
    self[attachment: key] = value
    return self
  }

  /// Adds `problem` to ``problems`` and passes it to the tree's ``NodeTree/onProblem``.
  ///
  /// - Parameter problem: What went wrong.
  /// - Returns: This node.
  @discardableResult
  public func reporting(_ problem: any Error) -> Node {
    self[attachment: ProblemsAttachment.self].append(problem)
    root.treeState?.settings.onProblem?(problem, self)
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
