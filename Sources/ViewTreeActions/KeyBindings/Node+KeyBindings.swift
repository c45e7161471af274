import Actions
import ViewTree

/// A node's key bindings, in the order they were declared.
enum KeyBindingsAttachment: NodeAttachmentKey {
  static let defaultValue: [(chord: KeyChord, identifier: String)] = []
}

/// A key binding found by `NodeTree.resolveKey(_:)`.
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

extension Node {
  /// Binds a key chord to an identifier on this node. A key press is resolved from the focused
  /// node upward; the nearest binding wins.
  ///
  /// ```swift
  /// try editor.bindKey("ctrl+s", to: "Save")
  /// ```
  ///
  /// - Parameters:
  ///   - chord: The chord, such as `"ctrl+s"` (see ``KeyChord``).
  ///   - identifier: The identifier to perform.
  /// - Throws: ``ViewTreeActionsError/invalidChord(_:)``,
  ///   ``ViewTreeActionsError/chordAlreadyBound(chord:node:identifier:)`` when this node already
  ///   binds the chord, or ``ViewTreeActionsError/invalidIdentifier(_:reason:)``.
  public func bindKey(_ chord: String, to identifier: String) throws(ViewTreeActionsError) {
    let parsed: KeyChord
    do throws(KeyChordParseError) {
      parsed = try KeyChord(parsing: chord)
    } catch {
      throw .invalidChord(error)
    }
    try bindKey(parsed, to: identifier)
  }

  /// Binds a parsed key chord to an identifier on this node.
  ///
  /// - Parameters:
  ///   - chord: The chord.
  ///   - identifier: The identifier to perform.
  /// - Throws: ``ViewTreeActionsError/chordAlreadyBound(chord:node:identifier:)`` or
  ///   ``ViewTreeActionsError/invalidIdentifier(_:reason:)``.
  public func bindKey(_ chord: KeyChord, to identifier: String) throws(ViewTreeActionsError) {
    do throws(IdentifierParseError) {
      _ = try ActionIdentifier(parsing: identifier)
    } catch {
      throw .invalidIdentifier(identifier, reason: "\(error)")
    }
    var bindings = self[attachment: KeyBindingsAttachment.self]
    if let existing = bindings.first(where: { $0.chord == chord }) {
      throw .chordAlreadyBound(chord: chord, node: path, identifier: existing.identifier)
    }
    bindings.append((chord, identifier))
    self[attachment: KeyBindingsAttachment.self] = bindings
  }

  /// Declares several key bindings; all of them, or, when one fails, none.
  ///
  /// ```swift
  /// let editor = try Node("editor").keyBindings(["ctrl+s": "Save", "ctrl+z": "Undo"])
  /// ```
  ///
  /// - Parameter bindings: Chords and identifiers. `KeyValuePairs` keeps duplicates, so a chord
  ///   given twice is reported rather than silently dropped.
  /// - Returns: This node, for chaining.
  /// - Throws: The first error of ``bindKey(_:to:)-(String,_)``.
  @discardableResult
  public func keyBindings(_ bindings: KeyValuePairs<String, String>) throws(ViewTreeActionsError) -> Node {
    let saved = self[attachment: KeyBindingsAttachment.self]
    do throws(ViewTreeActionsError) {
      for (chord, identifier) in bindings { try bindKey(chord, to: identifier) }
    } catch {
      self[attachment: KeyBindingsAttachment.self] = saved
      throw error
    }
    return self
  }

  /// The chords bound on this node and their identifiers, in the order they were declared.
  public var keyBindings: [(chord: KeyChord, identifier: String)] {
    self[attachment: KeyBindingsAttachment.self]
  }

  /// Removes every key binding of this node.
  public func removeKeyBindings() { removeAttachment(KeyBindingsAttachment.self) }
}

/// What a key press did.
public enum KeyPressResult: CustomStringConvertible {
  /// No node from the focus up binds the chord.
  case unbound(KeyChord)
  /// The nearest binding's identifier was performed (validated first): the result says whether it
  /// ran, was disabled, or failed. A disabled binding does not fall through to outer bindings.
  case handled(KeyBinding, TreePerformResult)

  /// A one-line summary.
  public var description: String {
    switch self {
    case .unbound(let chord): "\(chord): no binding"
    case .handled(let binding, let result): "\(binding): \(result)"
    }
  }
}

extension NodeTree {
  /// Finds the binding a key press would use: the nearest one from the focused node (or the root)
  /// upward.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: The binding, or `nil` when no node on the path binds the chord.
  /// - Complexity: O(*d*) in the focus's depth, plus the bindings of the nodes that have some.
  public func resolveKey(_ chord: KeyChord) -> KeyBinding? {
    var found: KeyBinding?
    (focusedNode ?? root).walkAncestors { node in
      guard node.hasAttachments else { return false }
      for binding in node[attachment: KeyBindingsAttachment.self] where binding.chord == chord {
        found = KeyBinding(chord: chord, identifier: binding.identifier, node: node)
        return true
      }
      return false
    }
    return found
  }

  /// Handles a key press: resolves the nearest binding from the focus upward, then performs its
  /// identifier from the focused node with the binding as sender.
  ///
  /// A binding whose action is disabled reports ``KeyPressResult/handled(_:_:)`` with a disabled
  /// result; it does not fall through to an outer binding of the same chord, because the nearest
  /// binding is the one the user sees for the focused view.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: What the key press did.
  @discardableResult
  public func handleKey(_ chord: KeyChord) -> KeyPressResult {
    guard let binding = resolveKey(chord) else { return .unbound(chord) }
    return .handled(binding, perform(binding.identifier, sender: binding))
  }

  /// Handles a key press, awaiting asynchronous actions: the same resolution as
  /// ``handleKey(_:)-(KeyChord)``, then an awaited perform (see `Node.perform(_:sender:tracing:)`).
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: What the key press did.
  @discardableResult
  nonisolated(nonsending) public func handleKey(_ chord: KeyChord) async -> KeyPressResult {
    guard let binding = resolveKey(chord) else { return .unbound(chord) }
    return .handled(binding, await perform(binding.identifier, sender: binding))
  }

  /// Parses and handles a key press such as `"ctrl+s"`.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: What the key press did.
  /// - Throws: ``ViewTreeActionsError/invalidChord(_:)`` when the chord does not parse.
  @discardableResult
  public func handleKey(_ chord: String) throws(ViewTreeActionsError) -> KeyPressResult {
    do throws(KeyChordParseError) {
      return handleKey(try KeyChord(parsing: chord))
    } catch {
      throw .invalidChord(error)
    }
  }
}
