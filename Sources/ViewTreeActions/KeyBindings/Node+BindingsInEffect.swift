import Actions
import ViewTree

extension Node {
  /// The key bindings from this node upward, as a footer or help screen shows them: nearest node
  /// first, each node's bindings in the order they were declared, each with its current
  /// validation and, when a nearer node binds the same chord, that binding.
  ///
  /// ```swift
  /// let footer = tree.firstResponder.bindingsInEffect(includingShadowed: false).map(\.description)
  /// ```
  ///
  /// Runs no key press: each binding's identifier is validated from this node (a validation runs
  /// the managers' `validate`, never `perform`); a focus identifier such as `focus.Next` is always
  /// enabled. The tree's ``ViewTree/NodeTree/defaultKeyBindings`` are not listed.
  ///
  /// - Parameter includingShadowed: Whether to list bindings a nearer one hides (default: yes).
  /// - Returns: The bindings.
  /// - Complexity: O(*d* + *b*) walks plus one validation per listed binding.
  public func bindingsInEffect(includingShadowed: Bool = true) -> [ActionEntry] {
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
    var listed: [ActionEntry] = []
    for binding in found {
      let shadowedBy = nearest[binding.chord]
      if shadowedBy == nil { nearest[binding.chord] = binding }
      if shadowedBy != nil, !includingShadowed { continue }
      listed.append(
        ActionEntry(
          identifier: binding.identifier, validation: validation(of: binding),
          chord: binding.chord, node: binding.node, shadowedBy: shadowedBy)
      )
    }
    return listed
  }

  /// A binding's validation from here: a focus identifier is always enabled (the tree moves the
  /// focus, no manager is asked).
  private func validation(of binding: KeyBinding) -> Validation {
    guard let move = FocusMove(identifier: binding.identifier) else {
      return validate(binding.identifier, sender: binding)
    }
    return Validation(title: "Focus \(move)")
  }
}
