import Actions
import ViewTree

/// A node's key bindings, in the order they were declared.
enum KeyBindingsAttachment: NodeAttachmentKey {
  static let defaultValue: [(keys: KeySequence, identifier: String)] = []
}

/// A key binding in effect at a node: found by `Node.resolveKey(_:)`, listed by
/// `Node.bindingsInEffect(includingShadowed:)`, and the sender of the identifier it performs.
public struct KeyBinding: CustomStringConvertible {
  /// The keys: one chord, or a sequence of them.
  public let keys: KeySequence
  /// The identifier the keys perform.
  public let identifier: String
  /// The node that declared the binding; the root for one of the tree's `defaultKeyBindings`.
  public let node: Node
  /// Whether it is one of the tree's default bindings (`NodeTree.defaultKeyBindings`) rather than
  /// `node`'s own.
  public let isDefault: Bool

  init(keys: KeySequence, identifier: String, node: Node, isDefault: Bool = false) {
    self.keys = keys
    self.identifier = identifier
    self.node = node
    self.isDefault = isDefault
  }

  /// `ctrl+k ctrl+s -> SaveAll (on window/editor)`.
  public var description: String { "\(keys) -> \(identifier) (on \(node.path))" }
}

extension ModifierHost {
  /// Binds a key chord, or a sequence of chords, to an identifier on this node. A key press is
  /// resolved from the focused node upward; the nearest binding wins.
  ///
  /// ```swift
  /// Node("editor")
  ///   .bindKey("ctrl+s", to: "Save")
  ///   .bindKey("ctrl+k ctrl+s", to: "SaveAll")
  ///   .bindKey("g g", to: "GoToTop")
  /// ```
  ///
  /// It never throws, so that it fits a declaration in a `body`: keys that do not parse
  /// (``ViewTreeActionsError/invalidChord(_:)``), an identifier that does not parse
  /// (``ViewTreeActionsError/invalidIdentifier(_:reason:)``), keys that this node already binds
  /// or that begin (or are the beginning of) a sequence it binds
  /// (``ViewTreeActionsError/keysConflict(keys:node:bound:identifier:)``), and a sequence with
  /// Escape after its first key, which cancels a pending sequence
  /// (``ViewTreeActionsError/escapeInSequence(_:)``), are not bound, and are reported instead
  /// (see ``ViewTree/ModifierHost/reporting(_:)``).
  ///
  /// - Parameters:
  ///   - keys: The chord, such as `"ctrl+s"` (see ``KeyChord``), or chords separated by spaces,
  ///     such as `"ctrl+k ctrl+s"` (see ``KeySequence``).
  ///   - identifier: The identifier to perform.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func bindKey(_ keys: String, to identifier: String) -> Self {
    do throws(ParseError<InvalidKeyChord>) {
      return bindKey(try KeySequence(parsing: keys), to: identifier)
    } catch {
      return reporting(ViewTreeActionsError.invalidChord(error))
    }
  }

  /// Binds parsed keys to an identifier on this node (see ``bindKey(_:to:)-(String,_)``).
  ///
  /// - Parameters:
  ///   - keys: The chord or sequence; a ``KeyChord`` is a sequence of one
  ///     (`bindKey([KeyChord(.tab)], to: "Indent")`).
  ///   - identifier: The identifier to perform.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func bindKey(_ keys: KeySequence, to identifier: String) -> Self {
    guard !keys.chords.isEmpty else {
      return reporting(
        ViewTreeActionsError.invalidChord(ParseError<InvalidKeyChord>(text: "", offset: 0, reason: .empty)))
    }
    if keys.chords.dropFirst().contains(KeyChord(.escape)) {
      return reporting(ViewTreeActionsError.escapeInSequence(keys))
    }
    do throws(ParseError<InvalidIdentifier>) {
      _ = try ActionIdentifier(parsing: identifier)
    } catch {
      return reporting(ViewTreeActionsError.invalidIdentifier(identifier, reason: "\(error)"))
    }
    var bindings = self[attachment: KeyBindingsAttachment.self]
    if let existing = bindings.first(where: { $0.keys.overlaps(keys) }) {
      return reporting(
        ViewTreeActionsError.keysConflict(
          keys: keys, node: hostDescription, bound: existing.keys, identifier: existing.identifier))
    }
    bindings.append((keys, identifier))
    return settingAttachment(KeyBindingsAttachment.self, to: bindings)
  }
}

extension Node {
  /// The keys bound on this node and their identifiers, in the order they were declared.
  public var keyBindings: [(keys: KeySequence, identifier: String)] {
    self[attachment: KeyBindingsAttachment.self]
  }

  /// Removes every key binding of this node.
  public func removeKeyBindings() { removeAttachment(KeyBindingsAttachment.self) }
}

/// The default key bindings of a tree, kept on its root.
enum DefaultKeyBindingsAttachment: NodeAttachmentKey {
  static let defaultValue: [(keys: KeySequence, identifier: String)] = [
    ([KeyChord(.tab)], "focus.Next"), ([KeyChord(.tab, modifiers: .shift)], "focus.Previous"),
    ([KeyChord(.enter)], itemActivation),
  ]
}

/// The identifier that activates the action item a key is pressed at: Enter's default binding.
let itemActivation = "item.Activate"

extension NodeTree {
  /// The bindings a key press falls back to, after every node's from the focus up; by default
  /// Tab to `focus.Next`, Shift-Tab to `focus.Previous` and Enter to `item.Activate`.
  ///
  /// A node's own binding of the same keys wins, and so does one that begins with them or that
  /// they begin (so an editor can bind Tab to insert a tab character); set this to change or
  /// remove the defaults for the whole tree. The identifiers `focus.Next`, `focus.Previous`,
  /// `focus.Left`, `focus.Right`, `focus.Up` and `focus.Down` move the focus (see
  /// ``KeyPressResult/movedFocus(_:_:)``); `item.Activate` performs the identifier of the action
  /// item the key is pressed at (see ``ViewTree/ModifierHost/actionItem(_:)``), with the item as
  /// sender, as ``activate(_:)`` does, and is in effect only at an item; any other is performed.
  /// The defaults are not checked as a node's bindings are: an empty sequence never matches, and
  /// of two that overlap, the first hides the second.
  public var defaultKeyBindings: [(keys: KeySequence, identifier: String)] {
    get { root[attachment: DefaultKeyBindingsAttachment.self] }
    set { root[attachment: DefaultKeyBindingsAttachment.self] = newValue }
  }
}

extension FocusMove {
  /// The move a focus identifier names, such as `focus.Next`.
  init?(identifier: String) {
    // Every identifier a key press performs or a footer validates comes here first: most are
    // told apart by their first byte, before any comparison of whole strings.
    guard identifier.utf8.first == UInt8(ascii: "f") else { return nil }
    switch identifier {
    case "focus.Next": self = .next
    case "focus.Previous": self = .previous
    case "focus.Left": self = .left
    case "focus.Right": self = .right
    case "focus.Up": self = .up
    case "focus.Down": self = .down
    default: return nil
    }
  }
}
