/// A key for a typed value attached to a node, like SwiftUI's `EnvironmentKey`.
///
/// Libraries built on ViewTree use attachments to keep their own data on nodes (an identifier a
/// button is bound to, the key bindings of a node) and to find it again while walking the tree.
///
/// ```swift
/// enum TooltipKey: NodeAttachmentKey {
///   static let defaultValue: String? = nil
/// }
///
/// node[attachment: TooltipKey.self] = "Saves the document"
/// ```
public protocol NodeAttachmentKey {
  /// The type of the attached value.
  associatedtype Value
  /// The value read when nothing is attached under the key.
  static var defaultValue: Value { get }
}

/// A key whose value a node keeps in a field of its own rather than in its list of attachments
/// (the geometry, the input traits, the lifecycle callbacks), because the walks read it for every
/// node they pass. A declaration names it like any key; the node's attachment subscript and
/// methods hand the value to the key, which reads and writes its field with what follows from a
/// change (a hover run again, a focus trap repaired).
@usableFromInline
protocol NodeFieldKey: NodeAttachmentKey {
  /// The field's value on `node`, as `V`, which is `Value`.
  // NB: generic in the value's type, so that each key casts its field's concrete type: a cast
  // from a key opened from an existential to the caller's generic type is one that Swift 6.3's
  // optimizer folds into a failure.
  static func value<V>(of node: Node, as type: V.Type) -> V
  /// Sets the field on `node` to `value`, which is a `Value`; the default value clears it.
  static func set<V>(_ value: V, on node: Node)
}

/// The storage of one attached value. Immutable (setting a key attaches a new box), so that
/// reading a value needs no exclusivity check.
@usableFromInline
final class AttachmentBox<Value> {
  @usableFromInline let value: Value
  @usableFromInline init(_ value: Value) { self.value = value }
}

extension Node {
  // NB: `@inlinable` (here and below) so that callers in other modules get a specialized getter;
  // unspecialized, each read looks up `AttachmentBox<Key.Value>`'s metadata at run time.

  /// The value attached under a key, or the key's default value.
  ///
  /// - Complexity: O(*a*) in the number of keys attached to this node (usually one or two); a node
  ///   without attachments answers at once.
  @inlinable
  public subscript<Key: NodeAttachmentKey>(attachment key: Key.Type) -> Key.Value {
    get {
      // A field key's value is its field (the cast folds away once the subscript is specialized
      // for a key).
      if let field = Self.fieldKey(key) { return field.value(of: self, as: Key.Value.self) }
      return box(for: key)?.value ?? Key.defaultValue
    }
    set {
      if let field = Self.fieldKey(key) {
        field.set(newValue, on: self)
      } else {
        attach(AttachmentBox(newValue), for: ObjectIdentifier(key))
      }
    }
  }

  /// `key` as a field key when it is one: the list of them, in one place. Compared by identity,
  /// which folds away once the caller is specialized for a key, where asking whether a key of
  /// another module conforms to `NodeFieldKey` is a conformance lookup on every access.
  @inlinable @inline(__always)
  static func fieldKey<Key: NodeAttachmentKey>(_ key: Key.Type) -> (any NodeFieldKey.Type)? {
    if key == NodeGeometryKey.self { return NodeGeometryKey.self }
    if key == InputTraitsKey.self { return InputTraitsKey.self }
    if key == LifecycleCallbacks.self { return LifecycleCallbacks.self }
    return nil
  }

  /// Calls `body` with the value attached under a key, if any, read where it is rather than
  /// copied out: for a value that is a closure or holds references, no copy means no reference
  /// counting.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - body: Called with the value.
  /// - Returns: What `body` returned, or `nil` when nothing is attached under `key`.
  @inlinable
  package func withAttachment<Key: NodeAttachmentKey, R>(_ key: Key.Type, _ body: (Key.Value) throws -> R)
    rethrows
    -> R?
  {
    guard let box = box(for: key) else { return nil }
    return try body(box.value)
  }

  /// Changes the value attached under a key where it is kept: see
  /// ``ModifierHost/updatingAttachment(_:_:)``.
  ///
  /// - Parameters:
  ///   - key: The attachment's key.
  ///   - body: Changes the value (the key's default value when none is attached).
  /// - Returns: This node.
  @discardableResult
  public func updatingAttachment<Key: NodeAttachmentKey>(
    _ key: Key.Type, _ body: (inout Key.Value) -> Void
  ) -> Node {
    if Self.fieldKey(key) != nil {
      var value = self[attachment: key]
      body(&value)
      self[attachment: key] = value
      return self
    }
    // Taken out of its box, which is dropped, so that the value is not shared when it changes.
    // Invariant 9: what is stored under `ObjectIdentifier(Key.self)` is an `AttachmentBox<Key.Value>`.
    var value =
      takeAttachment(for: ObjectIdentifier(key)).map {
        unsafeDowncast($0, to: AttachmentBox<Key.Value>.self).value
      }
      ?? Key.defaultValue
    body(&value)
    self[attachment: key] = value
    return self
  }

  /// Whether a value is attached under a key.
  @inlinable
  public func hasAttachment<Key: NodeAttachmentKey>(_ key: Key.Type) -> Bool { box(for: key) != nil }

  /// Removes the value attached under a key.
  public func removeAttachment<Key: NodeAttachmentKey>(_ key: Key.Type) {
    if Self.fieldKey(key) != nil {
      self[attachment: key] = Key.defaultValue
      return
    }
    // Released here, after the list changed: its value's deinit may change the attachments.
    _ = takeAttachment(for: ObjectIdentifier(key))
  }

  /// Whether the node has any attachment; a cheap test before looking one up.
  @inlinable
  public var hasAttachments: Bool { !(_extras?._attachments.isEmpty ?? true) }

  @inlinable
  func box<Key: NodeAttachmentKey>(for key: Key.Type) -> AttachmentBox<Key.Value>? {
    guard let object = attachedObject(for: ObjectIdentifier(key)) else { return nil }
    // Invariant 9: only the subscript stores under `ObjectIdentifier(Key.self)`, always an
    // `AttachmentBox<Key.Value>`; a checked cast would look the generic type up at run time.
    return unsafeDowncast(object, to: AttachmentBox<Key.Value>.self)
  }

  /// The object attached under `id`, an `ObjectIdentifier` of a `NodeAttachmentKey` type.
  @inlinable @inline(__always)
  func attachedObject(for id: ObjectIdentifier) -> AnyObject? {
    guard let extras = _extras else { return nil }
    // Read where the list is: a copy of it would be retained and released.
    for index in extras._attachments.indices where extras._attachments[index].key == id {
      return extras._attachments[index].box
    }
    return nil
  }

  /// Removes the box stored under `id` from the list and returns it, so that the caller releases
  /// it once the list is consistent (each key has at most one box).
  private func takeAttachment(for id: ObjectIdentifier) -> AnyObject? {
    guard let extras = _extras, let index = extras._attachments.firstIndex(where: { $0.key == id }) else {
      return nil
    }
    extras._attachmentEdits &+= 1
    return extras._attachments.remove(at: index).box
  }

  /// Attaches `object` under `id`, replacing what was attached under it.
  @usableFromInline
  func attach(_ object: AnyObject, for id: ObjectIdentifier) {
    let extras = extras
    extras._attachmentEdits &+= 1
    guard let index = extras._attachments.firstIndex(where: { $0.key == id }) else {
      extras._attachments.append((id, object))
      return
    }
    var replaced: AnyObject = object
    swap(&extras._attachments[index].box, &replaced)
    // Released here, after the list changed: its value's deinit may change the attachments.
    _ = consume replaced
  }
}

extension Node {
  /// Calls `body` with this node and each of its descendants, in depth-first pre-order (the order
  /// of ``Node/description``), without building an array of them.
  ///
  /// ```swift
  /// var items: [Node] = []
  /// menu.walkSubtree { node in
  ///   if node.hasAttachment(ItemKey.self) { items.append(node) }
  /// }
  /// ```
  ///
  /// `body` should not add, remove or move nodes of the subtree: the walk stays safe if it does,
  /// but may then miss nodes or visit some twice.
  ///
  /// - Parameters:
  ///   - includingInactive: Whether to visit the nodes made inactive (see ``Node/isActive``) and
  ///     their subtrees; `false` visits only what takes part in the tree, as a menu or a footer
  ///     built from the nodes should. (This node is visited either way.)
  ///   - body: Called with each node.
  /// - Complexity: O(*n*) in the size of the subtree; no allocation unless it is more than one
  ///   level deep.
  public func walkSubtree(includingInactive: Bool = true, _ body: (Node) throws -> Void) rethrows {
    try forEachInSubtree { node in
      if !includingInactive, node !== self, node.isInactive { return .skipChildren }
      try body(node)
      return .enterChildren
    }
  }
}
