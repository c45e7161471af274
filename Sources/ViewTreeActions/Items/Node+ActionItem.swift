import Actions
import ViewTree

/// The identifier an item node is bound to.
enum ActionItemAttachment: NodeAttachmentKey {
  static var defaultValue: ItemBinding? { nil }
}

/// An item's identifier, with the cache entry of the manager that last validated it, so that
/// validating a menu again looks no text up.
final class ItemBinding {
  let identifier: String
  // NB: `@exclusivity(unchecked)`: written only by `entry(in:)`, never across a call out.
  /// The `serial` of the manager `entry` belongs to; 0 for none.
  @exclusivity(unchecked) private var managerSerial: UInt64 = 0
  @exclusivity(unchecked) private var cached: ActionManager.CacheEntry?

  init(_ identifier: String) { self.identifier = identifier }

  /// The manager's cache entry for the identifier, unretained: the binding keeps it until the
  /// next call.
  func entry(in manager: ActionManager) -> Unmanaged<ActionManager.CacheEntry> {
    if managerSerial == manager.serial, let cached { return Unmanaged.passUnretained(cached) }
    let entry = manager.entry(for: identifier)
    managerSerial = manager.serial
    cached = entry
    return Unmanaged.passUnretained(entry)
  }
}

extension Node {
  /// Binds this node to an identifier: it is an item, such as a button or a menu entry, that
  /// `NodeTree.validateItems(in:)` validates and `NodeTree.activate(_:)`
  /// performs.
  ///
  /// ```swift
  /// Node("menu.edit") {
  ///   Node("undo").actionItem("menu.Undo")
  ///   Node("red").actionItem(#"color.SetColor("color": "red")"#)
  /// }
  /// ```
  ///
  /// - Parameter identifier: The identifier, arguments included.
  /// - Returns: This node, for chaining.
  @discardableResult
  public func actionItem(_ identifier: String) -> Node {
    self[attachment: ActionItemAttachment.self] = ItemBinding(identifier)
    return self
  }

  /// The identifier this node is bound to as an item, if any.
  public var actionItemIdentifier: String? { self[attachment: ActionItemAttachment.self]?.identifier }
}

/// The validation of one item, from `NodeTree.validateItems(in:)`.
public struct ItemValidation: CustomStringConvertible {
  /// The item node.
  public let item: Node
  /// The identifier it is bound to.
  public let identifier: String
  /// How it should look now.
  public let validation: Validation

  /// `path: identifier -> validation`.
  public var description: String { "\(item.path): \(identifier) -> \(validation)" }
}

extension NodeTree {
  /// Validates every item in a subtree (a menu, a toolbar, or the whole tree) against the current
  /// focus: each as if performed from the focused node, with the item as sender.
  ///
  /// Menus and toolbars call this when they open or when the focus changes. The items, and the
  /// identifiers they are bound to, are those of the subtree when the call begins.
  ///
  /// - Parameter subtree: Where to look for items; the whole tree when `nil`.
  /// - Returns: One validation per item, in depth-first order.
  /// - Complexity: O(*n* + *k*·*d*): the subtree's size, and a dispatch from the focus per item
  ///   (one walk from the focus for all of them when only providers and managers lie on it).
  public func validateItems(in subtree: Node? = nil) -> [ItemValidation] {
    let start = focusedNode ?? root
    let items = (subtree ?? root).itemBindings()
    var validations: [ItemValidation] = []
    validations.reserveCapacity(items.count)
    var next = 0
    if isRooted {
      // Every item's request takes the same path; while only providers and a manager lie on it
      // and nothing changes, one walk serves them all.
      _ = start.withPlainManager { manager, _, provide in
        let stamp = Node.changeStamp
        // NB: the items are read in place: `items` (a `let`) keeps every item and binding alive.
        items.withUnsafeBufferPointer { items in
          while next < items.count, Node.changeStamp == stamp {
            let found = items.baseAddress.unsafelyUnwrapped + next
            next += 1
            let entry = found.pointee.binding.entry(in: manager)
            let validation = manager.validateDirectly(
              entry, objectSender: found.pointee.item, providing: provide)
            validations.append(
              ItemValidation(
                item: found.pointee.item, identifier: found.pointee.binding.identifier, validation: validation
              ))
          }
        }
      }
    }
    // The rest (all of them when the path needs a dispatch, or after a validation changed a tree)
    // one by one.
    for found in items[next...] {
      let validation = isRooted ? start.validate(found.binding.identifier, sender: found.item) : .unavailable
      validations.append(
        ItemValidation(item: found.item, identifier: found.binding.identifier, validation: validation))
    }
    return validations
  }

  /// Activates an item: performs its identifier from the focused node (or the root), with the item
  /// as sender, as clicking a menu entry or a toolbar button does.
  ///
  /// - Parameter item: A node bound to an identifier with `Node.actionItem(_:)`.
  /// - Returns: The manager's answer, or why no manager answered.
  /// - Throws: ``ViewTreeActionsError/notAnItem(node:)`` when the node is not bound to an
  ///   identifier.
  @discardableResult
  public func activate(_ item: Node) throws(ViewTreeActionsError) -> TreePerformResult {
    guard let identifier = item.actionItemIdentifier else { throw .notAnItem(node: item.path) }
    return perform(identifier, sender: item)
  }
}

extension Node {
  /// The items of this subtree and their bindings, in depth-first pre-order.
  func itemBindings() -> [FoundItem] {
    var found: [FoundItem] = []
    walkSubtree { node in
      if node.hasAttachments, let binding = node[attachment: ActionItemAttachment.self] {
        found.append(FoundItem(item: node, binding: binding))
      }
    }
    return found
  }
}

/// An item node and its binding. (A struct rather than a tuple: an array of tuples is destroyed
/// element by element through the runtime's generic tuple witness.)
struct FoundItem {
  let item: Node
  let binding: ItemBinding
}
