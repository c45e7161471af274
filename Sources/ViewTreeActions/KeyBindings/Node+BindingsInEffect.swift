import Actions
import ViewTree

/// A key binding as a footer or help screen shows it from one node: the binding, what it would do
/// there now, and whether a nearer binding of the same chord hides it.
public struct BindingInEffect: CustomStringConvertible {
  /// The binding: its chord, identifier and the node that declares it.
  public let binding: KeyBinding
  /// The identifier's validation, performed from the node the bindings were listed from with the
  /// binding as sender, as a key press there would be: its title, whether it is enabled.
  public let validation: Validation
  /// The nearer binding of the same chord that a key press would use instead, if any.
  public let shadowedBy: KeyBinding?

  /// Whether a key press would use this binding: no nearer binding of its chord exists.
  public var isInEffect: Bool { shadowedBy == nil }

  /// `ctrl+s  Save Notes`, with `(disabled)` or `(shadowed by editor)` when so.
  public var description: String {
    var text = "\(binding.chord)  \(validation.title ?? binding.identifier)"
    if let shadowedBy { text += " (shadowed by \(shadowedBy.node.label))" }
    if !validation.isEnabled { text += " (disabled)" }
    return text
  }
}

extension Node {
  /// The key bindings from this node upward, as a footer or help screen shows them: nearest node
  /// first, each node's bindings in the order they were declared, each with its current
  /// validation and, when a nearer node binds the same chord, that binding.
  ///
  /// ```swift
  /// let footer = tree.firstResponder.bindingsInEffect().filter(\.isInEffect).map(\.description)
  /// ```
  ///
  /// Runs no key press: each binding's identifier is validated from this node (a validation runs
  /// the managers' `validate`, never `perform`).
  ///
  /// - Parameter includingShadowed: Whether to list bindings a nearer one hides (default: yes).
  /// - Returns: The bindings.
  /// - Complexity: O(*d* + *b*) walks plus one validation per listed binding.
  public func bindingsInEffect(includingShadowed: Bool = true) -> [BindingInEffect] {
    var found: [KeyBinding] = []
    walkAncestors { node in
      if node.hasAttachments {
        for (chord, identifier) in node.keyBindings {
          found.append(KeyBinding(chord: chord, identifier: identifier, node: node))
        }
      }
      return false
    }
    var nearest: [KeyChord: KeyBinding] = [:]
    var listed: [BindingInEffect] = []
    for binding in found {
      let shadowedBy = nearest[binding.chord]
      if shadowedBy == nil { nearest[binding.chord] = binding }
      if shadowedBy != nil, !includingShadowed { continue }
      listed.append(
        BindingInEffect(
          binding: binding, validation: validate(binding.identifier, sender: binding), shadowedBy: shadowedBy)
      )
    }
    return listed
  }
}

