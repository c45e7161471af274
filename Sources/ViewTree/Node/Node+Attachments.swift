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

extension Node {
  /// The value attached under a key, or the key's default value.
  ///
  /// - Complexity: O(1) on average; a node without attachments answers without hashing.
  public subscript<Key: NodeAttachmentKey>(attachment key: Key.Type) -> Key.Value {
    get {
      guard let attachments = _attachments, let value = attachments[ObjectIdentifier(key)] else {
        return Key.defaultValue
      }
      // Only this setter stores under `ObjectIdentifier(Key.self)`, always a `Key.Value`.
      return value as! Key.Value
    }
    set {
      if _attachments == nil { _attachments = [:] }
      _attachments?[ObjectIdentifier(key)] = newValue
    }
  }

  /// Whether a value is attached under a key.
  public func hasAttachment<Key: NodeAttachmentKey>(_ key: Key.Type) -> Bool {
    _attachments?[ObjectIdentifier(key)] != nil
  }

  /// Removes the value attached under a key.
  public func removeAttachment<Key: NodeAttachmentKey>(_ key: Key.Type) {
    _attachments?[ObjectIdentifier(key)] = nil
  }

  /// Whether the node has any attachment; a cheap test before looking one up.
  public var hasAttachments: Bool { !(_attachments?.isEmpty ?? true) }
}
