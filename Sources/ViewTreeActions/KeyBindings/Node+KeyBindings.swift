import Actions
import ViewTree

/// A node's key bindings, in the order they were declared.
enum KeyBindingsAttachment: NodeAttachmentKey {
  static let defaultValue: [(chord: KeyChord, identifier: String)] = []
}

/// A key binding found by `Node.resolveKey(_:)`.
public struct KeyBinding: CustomStringConvertible {
  /// The chord.
  public let chord: KeyChord
  /// The identifier the chord performs.
  public let identifier: String
  /// The node that declared the binding.
  public let node: Node

  /// `ctrl+s -> Save (on window/editor)`.
  public var description: String { "\(chord) -> \(identifier) (on \(node.path))" }
}

extension ModifierHost {
  /// Binds a key chord to an identifier on this node. A key press is resolved from the focused
  /// node upward; the nearest binding wins.
  ///
  /// ```swift
  /// Node("editor")
  ///   .bindKey("ctrl+s", to: "Save")
  ///   .bindKey("ctrl+z", to: "Undo")
  /// ```
  ///
  /// It never throws, so that it fits a declaration in a `body`: a chord that does not parse
  /// (``ViewTreeActionsError/invalidChord(_:)``), an identifier that does not parse
  /// (``ViewTreeActionsError/invalidIdentifier(_:reason:)``) or a chord this node already binds
  /// (``ViewTreeActionsError/chordAlreadyBound(chord:node:identifier:)``) is not bound, and is
  /// reported instead (see ``ViewTree/ModifierHost/reporting(_:)``).
  ///
  /// - Parameters:
  ///   - chord: The chord, such as `"ctrl+s"` (see ``KeyChord``).
  ///   - identifier: The identifier to perform.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func bindKey(_ chord: String, to identifier: String) -> Self {
    do throws(KeyChordParseError) {
      return bindKey(try KeyChord(parsing: chord), to: identifier)
    } catch {
      return reporting(ViewTreeActionsError.invalidChord(error))
    }
  }

  /// Binds a parsed key chord to an identifier on this node (see ``bindKey(_:to:)-(String,_)``).
  ///
  /// - Parameters:
  ///   - chord: The chord.
  ///   - identifier: The identifier to perform.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func bindKey(_ chord: KeyChord, to identifier: String) -> Self {
    do throws(IdentifierParseError) {
      _ = try ActionIdentifier(parsing: identifier)
    } catch {
      return reporting(ViewTreeActionsError.invalidIdentifier(identifier, reason: "\(error)"))
    }
    var bindings = attachment(KeyBindingsAttachment.self)
    if let existing = bindings.first(where: { $0.chord == chord }) {
      return reporting(
        ViewTreeActionsError.chordAlreadyBound(
          chord: chord, node: hostDescription, identifier: existing.identifier))
    }
    bindings.append((chord, identifier))
    return settingAttachment(KeyBindingsAttachment.self, to: bindings)
  }
}

extension Node {
  /// The chords bound on this node and their identifiers, in the order they were declared.
  public var keyBindings: [(chord: KeyChord, identifier: String)] {
    self[attachment: KeyBindingsAttachment.self]
  }

  /// Removes every key binding of this node.
  public func removeKeyBindings() { removeAttachment(KeyBindingsAttachment.self) }
}

/// What a key press did.
public enum KeyPressResult: CustomStringConvertible {
  /// No node from the focus up binds the chord, and the tree has no default binding for it.
  case unbound(KeyChord)
  /// The chord resolved to the nearest binding, whose identifier was performed (validated
  /// first): the result says whether it ran, was disabled, or failed. A disabled binding does not
  /// fall through to outer bindings.
  case resolved(KeyBinding, TreePerformResult)
  /// The chord resolved to a binding of one of the focus identifiers (`focus.Next`,
  /// `focus.Previous`, `focus.Left`, `focus.Right`, `focus.Up`, `focus.Down`), and the tree moved
  /// the focus (see `NodeTree.moveFocus(_:)`).
  case movedFocus(KeyBinding, FocusMoveResult)

  /// A one-line summary.
  public var description: String {
    switch self {
    case .unbound(let chord): "\(chord): no binding"
    case .resolved(let binding, let result): "\(binding): \(result)"
    case .movedFocus(let binding, let result): "\(binding): \(result)"
    }
  }
}

/// The default key bindings of a tree, kept on its root.
enum DefaultKeyBindingsAttachment: NodeAttachmentKey {
  static let defaultValue: [(chord: KeyChord, identifier: String)] = [
    (KeyChord(.tab), "focus.Next"), (KeyChord(.tab, modifiers: .shift), "focus.Previous"),
  ]
}

extension NodeTree {
  /// The bindings a key press falls back to when no node from the focus up binds its chord; by
  /// default Tab to `focus.Next` and Shift-Tab to `focus.Previous`.
  ///
  /// A node's own binding of the same chord wins (so an editor can bind Tab to insert a tab
  /// character); set this to change or remove the defaults for the whole tree. The identifiers
  /// `focus.Next`, `focus.Previous`, `focus.Left`, `focus.Right`, `focus.Up` and `focus.Down`
  /// move the focus (see ``KeyPressResult/movedFocus(_:_:)``); any other is performed.
  public var defaultKeyBindings: [(chord: KeyChord, identifier: String)] {
    get { root[attachment: DefaultKeyBindingsAttachment.self] }
    set { root[attachment: DefaultKeyBindingsAttachment.self] = newValue }
  }
}

extension FocusMove {
  /// The move a focus identifier names, such as `focus.Next`.
  init?(identifier: String) {
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

extension Node {
  /// Finds the binding a key press at this node would use: the nearest one from here upward, or
  /// else the tree's default binding of the chord (see ``ViewTree/NodeTree/defaultKeyBindings``),
  /// reported on the root.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: The binding, or `nil` when no node from here up binds the chord and the tree has
  ///   no default for it.
  /// - Complexity: O(*d*) in the node's depth, plus the bindings of the nodes that have some.
  public func resolveKey(_ chord: KeyChord) -> KeyBinding? {
    var found: KeyBinding?
    walkAncestors { node in
      guard node.hasAttachments else { return false }
      for binding in node[attachment: KeyBindingsAttachment.self] where binding.chord == chord {
        found = KeyBinding(chord: chord, identifier: binding.identifier, node: node)
        return true
      }
      return false
    }
    if found == nil, let tree {
      for binding in tree.defaultKeyBindings where binding.chord == chord {
        return KeyBinding(chord: chord, identifier: binding.identifier, node: tree.root)
      }
    }
    return found
  }

  /// Handles a key press at this node, as if it had focus: resolves the nearest binding from here
  /// upward, then performs its identifier from here with the binding as sender; a focus
  /// identifier (such as `focus.Next`, Tab's default) moves the tree's focus instead.
  ///
  /// A binding whose action is disabled reports ``KeyPressResult/resolved(_:_:)`` with a disabled
  /// result; it does not fall through to an outer binding of the same chord, because the nearest
  /// binding is the one the user sees for the focused view.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: What the key press did.
  @discardableResult
  public func handleKey(_ chord: KeyChord) -> KeyPressResult {
    guard let binding = resolveKey(chord) else { return .unbound(chord) }
    if let move = FocusMove(identifier: binding.identifier) { return .movedFocus(binding, moveFocus(move)) }
    return .resolved(binding, perform(binding.identifier, sender: binding))
  }

  /// Handles a key press at this node, awaiting asynchronous actions: the same resolution as
  /// ``handleKey(_:)-(KeyChord)``, then an awaited perform.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: What the key press did.
  @discardableResult
  nonisolated(nonsending) public func handleKey(_ chord: KeyChord) async -> KeyPressResult {
    guard let binding = resolveKey(chord) else { return .unbound(chord) }
    if let move = FocusMove(identifier: binding.identifier) { return .movedFocus(binding, moveFocus(move)) }
    return .resolved(binding, await perform(binding.identifier, sender: binding))
  }
}

extension Node {
  /// Moves the focus of this node's tree, or reports that this node is in none.
  fileprivate func moveFocus(_ move: FocusMove) -> FocusMoveResult {
    guard let tree else { return .intercepted(.notDispatched(.notInTree)) }
    return tree.moveFocus(move)
  }
}
