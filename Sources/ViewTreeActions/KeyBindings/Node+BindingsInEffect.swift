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
  /// A view of what this node offers (see `NodeTree.offeredActions(at:itemsIn:includingRegistered:)`):
  /// one row per binding, each the entry of the action it performs, with the binding's keys, node
  /// and shadowing binding. Runs no key press: each action is validated once from this node (a
  /// validation runs the managers' `validate`, never `perform`); a focus identifier such as
  /// `focus.Next` is always enabled, and Enter's `item.Activate` is the entry of the item it
  /// activates (its identifier, its validation). The tree's
  /// ``ViewTree/NodeTree/defaultKeyBindings`` (Tab, Shift-Tab, and Enter at an item) come last,
  /// on the root, as resolution takes them: a footer lists the keys that move the focus too (a
  /// footer that leaves them out filters their identifiers).
  ///
  /// - Parameter includingShadowed: Whether to list bindings a nearer one hides (default: yes).
  /// - Returns: The bindings.
  /// - Complexity: O(*d* + *b*·*s*) in the depth, the bindings and the length of their keys,
  ///   plus one validation per action.
  public func bindingsInEffect(includingShadowed: Bool = true) -> [ActionEntry] {
    let list = offered(itemsIn: nil, includingRegistered: false)
    // The rows in the order the bindings were found, which is their offers' positions.
    var rows = [ActionEntry?](repeating: nil, count: list.offerCount)
    for entry in list.entries {
      for offer in entry.offers where offer.binding != nil && (includingShadowed || !offer.isShadowed) {
        rows[offer.position] = entry.row(for: offer)
      }
    }
    return rows.compactMap { $0 }
  }
}
