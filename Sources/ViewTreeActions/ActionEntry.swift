import Actions
import ViewTree

/// An identifier as a menu, a footer or a command palette shows it from one node: how it should
/// look there now, and what offers it.
///
/// - `NodeTree.validateItems(in:)` gives one per item node (``node`` is the item);
/// - `Node.bindingsInEffect(includingShadowed:)` gives one per key binding (``keys``,
///   and ``node`` declares it), with the nearer binding that hides it, if any;
/// - ``CommandPalette`` gives one per registered identifier, with the keys in effect for it;
/// - `PendingKeys.validatedContinuations()` gives one per binding a pending sequence can complete.
public struct ActionEntry: CustomStringConvertible {
  /// The identifier, as `perform` takes it.
  public let identifier: String
  /// Its validation from the node the entries were listed from (with the item or the binding as
  /// sender): title, enabled, visible, state.
  public let validation: Validation
  /// The keys bound to the identifier (a chord or a sequence), if any.
  public let keys: KeySequence?
  /// The item node, or the node that declares the key binding; `nil` in a palette.
  public let node: Node?
  /// The nearer binding that hides this one (the same keys, or keys that begin or are begun by
  /// them), if any.
  public let shadowedBy: KeyBinding?

  /// Creates an entry, for palettes of other sources (see ``CommandPalette/init(entries:)``).
  ///
  /// - Parameters:
  ///   - identifier: The identifier to perform.
  ///   - validation: Its validation.
  ///   - keys: The keys bound to it, if any.
  ///   - node: The item node or the node that binds the keys, if any.
  ///   - shadowedBy: The nearer binding that hides this one, if any.
  public init(
    identifier: String, validation: Validation, keys: KeySequence? = nil, node: Node? = nil,
    shadowedBy: KeyBinding? = nil
  ) {
    self.identifier = identifier
    self.validation = validation
    self.keys = keys
    self.node = node
    self.shadowedBy = shadowedBy
  }

  /// The text shown and matched: the validation's title, or the identifier.
  public var title: String { validation.title ?? identifier }

  /// `ctrl+k ctrl+s  Save All`, with `(shadowed by editor)` and `(disabled)` when so.
  public var description: String {
    var text = keys.map { "\($0)  " } ?? ""
    text += title
    if let by = shadowedBy?.node { text += " (shadowed by \(by.label))" }
    if !validation.isEnabled { text += " (disabled)" }
    return text
  }
}
