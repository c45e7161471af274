import Actions
import ViewTree

extension Node {
  /// The key bindings from this node upward, as a footer or help screen shows them: nearest node
  /// first, each node's bindings in the order they were declared, each with its current
  /// validation and, when a binding in effect hides it (see ``resolveKey(_:)``: the same keys,
  /// or keys that begin or are begun by its own), that binding.
  ///
  /// ```swift
  /// let footer = tree.firstResponder.bindingsInEffect(includingShadowed: false).map(\.description)
  /// ```
  ///
  /// Runs no key press: each binding's identifier is validated from this node (a validation runs
  /// the managers' `validate`, never `perform`); a focus identifier such as `focus.Next` is always
  /// enabled, and `item.Activate` has the validation of the item it activates. The tree's
  /// ``ViewTree/NodeTree/defaultKeyBindings`` (Tab, Shift-Tab, and Enter at an item) come last,
  /// on the root, as resolution takes them: a footer lists the keys that move the focus too (a
  /// footer that leaves them out filters their identifiers).
  ///
  /// - Parameter includingShadowed: Whether to list bindings a nearer one hides (default: yes).
  /// - Returns: The bindings.
  /// - Complexity: O(*d* + *b*·*s*) in the depth, the bindings and the length of their keys,
  ///   plus one validation per listed binding.
  public func bindingsInEffect(includingShadowed: Bool = true) -> [ActionEntry] {
    let inEffect = OverlapIndex<KeyBinding>()
    var found: [(binding: KeyBinding, shadowedBy: KeyBinding?)] = []
    forEachBinding { binding in
      let shadowedBy = inEffect.claim(binding.keys, for: binding)
      if shadowedBy == nil || includingShadowed { found.append((binding, shadowedBy)) }
      return false
    }
    // Validated once the walk is over: a validation runs user code, which may change the tree.
    let listed = found.map { binding, shadowedBy in
      ActionEntry(
        identifier: binding.identifier.text, validation: validation(of: binding), keys: binding.keys,
        node: binding.node, shadowedBy: shadowedBy)
    }
    return listed
  }

  /// A binding's validation from here: a focus identifier is always enabled (the tree moves the
  /// focus, no manager is asked); `item.Activate` validates this item's identifier.
  func validation(of binding: KeyBinding) -> Validation {
    guard case .moveFocus(let move) = binding.role else {
      let (identifier, sender) = performed(by: binding)
      var validation = validate(identifier, sender: sender)
      // `item.Activate` is shown as what it performs.
      if validation.title == nil, identifier != binding.identifier.text { validation.title = identifier }
      return validation
    }
    return Validation(title: "Focus \(move)")
  }
}
