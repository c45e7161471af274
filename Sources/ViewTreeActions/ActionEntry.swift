import Actions
import ViewTree

/// An identifier as a menu, a footer or a command palette shows it from one node: how it should
/// look there now, and what offers it.
///
/// - `NodeTree.validateItems(in:)` gives one per item node (``node`` is the item);
/// - `Node.bindingsInEffect(includingShadowed:)` gives one per key binding (``chord``,
///   and ``node`` declares it), with the nearer binding that hides it, if any;
/// - ``CommandPalette`` gives one per registered identifier, with the chord in effect for it.
public struct ActionEntry: CustomStringConvertible {
  /// The identifier, as `perform` takes it.
  public let identifier: String
  /// Its validation from the node the entries were listed from (with the item or the binding as
  /// sender): title, enabled, visible, state.
  public let validation: Validation
  /// The chord bound to the identifier, if any.
  public let chord: KeyChord?
  /// The item node, or the node that declares the key binding; `nil` in a palette.
  public let node: Node?
  /// The nearer binding of the same chord that a key press would use instead, if any.
  public let shadowedBy: KeyBinding?

  /// Creates an entry, for palettes of other sources (see ``CommandPalette/init(entries:)``).
  ///
  /// - Parameters:
  ///   - identifier: The identifier to perform.
  ///   - validation: Its validation.
  ///   - chord: The chord bound to it, if any.
  ///   - node: The item node or the node that binds the chord, if any.
  ///   - shadowedBy: The nearer binding that hides this one, if any.
  public init(
    identifier: String, validation: Validation, chord: KeyChord? = nil, node: Node? = nil,
    shadowedBy: KeyBinding? = nil
  ) {
    self.identifier = identifier
    self.validation = validation
    self.chord = chord
    self.node = node
    self.shadowedBy = shadowedBy
  }

  /// The text shown and matched: the validation's title, or the identifier.
  public var title: String { validation.title ?? identifier }

  /// `ctrl+s  Save Notes`, with `(shadowed by editor)` and `(disabled)` when so.
  public var description: String {
    var text = chord.map { "\($0)  " } ?? ""
    text += title
    if let shadowedBy { text += " (shadowed by \(shadowedBy.node.label))" }
    if !validation.isEnabled { text += " (disabled)" }
    return text
  }
}
