/// Errors reported by the structural operations of ``Node`` and ``NodeTree``.
///
/// Each case carries the path of the nodes involved (see ``Node/path``) so that the message says
/// which node to look at.
public enum ViewTreeError: Error, Equatable, CustomStringConvertible {
  /// Adding the child would make a node its own ancestor.
  case cycle(child: String, parent: String)
  /// An index outside the valid range for a node's children.
  case indexOutOfRange(index: Int, validRange: ClosedRange<Int>, node: String)
  /// The node is not a child of the node it was removed from.
  case notAChild(child: String, parent: String)
  /// The node is not in this tree (it is in another tree, or in none).
  case nodeNotInTree(node: String)
  /// No node in the tree has this id.
  case noNodeWithID(String)
  /// The node given as the root of a new tree already has a parent.
  case rootHasParent(node: String)
  /// The node is already the root of another ``NodeTree``.
  case alreadyTreeRoot(node: String)
  /// The node carries no modifier with this identifier.
  case noSuchModifier(ModifierID, node: String)
  /// The reentrancy limit must be at least 1.
  case invalidReentrancyLimit(Int)
  /// The node already responds to this request type.
  case duplicateResponder(requestType: String, node: String)
  /// An asynchronous handler was reached by a synchronous dispatch: trigger with `await`.
  case asynchronousHandler(node: String)
  /// Nobody handled the action, and the tree or a node on its path requires handling.
  case unhandledAction(action: String, path: String)
  /// A declaration bound to one ``NodeHandle`` would update a node bound to another, or a node
  /// other than its handle's; an unbound declaration would update a node bound to a handle; or a
  /// handle was given a slot rather than its own declaration. The declaration was not applied.
  case handleMismatch(node: String)
  /// One declaration placed a ``NodeHandle``'s node twice, or where it would be its own ancestor;
  /// the later slot was left out.
  case handlePlacedTwice(parent: String)
  /// ``NodeHandle/place(in:order:)`` was asked to place a node that the parent's declaration
  /// places with a ``NodeDeclaration/slot(_:)``; the slot decides where it goes.
  case placedBySlot(node: String, parent: String)
  /// The view of a node's parent went away (its ``NodeHandle`` was released or detached) while
  /// the node's own handle lives on: the toolkit keeps a view it no longer shows, and its node
  /// with it, out of the tree. Release the child view's handle, or ``NodeHandle/detach()`` it,
  /// when the view goes.
  case handleOutlivedParent(node: String, parent: String)
  /// The ``NodeHandle`` has no node yet: its view has not declared itself, and nothing placed it.
  case handleHasNoNode
  /// ``NodeDeclaration/unchanged(_:)`` matched no live child, so an empty node was made.
  case unchangedWithoutNode(id: String?, parent: String)
  /// ``NodeTree/focus(_:)`` was given a node that cannot take focus, and says why.
  case notFocusable(node: String, reason: String)
  /// ``NodeTree/focus(_:)`` would move focus out of the trapping scope it is in.
  case outsideFocusTrap(node: String, trap: String)
  /// ``NodeTree/setPointerCapture(_:)`` was called while no button is down: a capture needs a
  /// pressed button, as Pointer Events' `setPointerCapture` does.
  case pointerCaptureWithoutButton(node: String)

  /// A sentence that says what went wrong and where.
  public var description: String {
    switch self {
    case .cycle(let child, let parent):
      "cannot add '\(child)' as a child of '\(parent)': '\(child)' is '\(parent)' or one of its ancestors"
    case .indexOutOfRange(let index, let range, let node):
      "index \(index) is out of range for the children of '\(node)' (valid: \(range.lowerBound)...\(range.upperBound))"
    case .notAChild(let child, let parent):
      "'\(child)' is not a child of '\(parent)'"
    case .nodeNotInTree(let node):
      "'\(node)' is not in this tree"
    case .noNodeWithID(let id):
      "no node in the tree has the id '\(id)'"
    case .rootHasParent(let node):
      "'\(node)' has a parent and cannot be the root of a tree; remove it from its parent first"
    case .alreadyTreeRoot(let node):
      "'\(node)' is already the root of another NodeTree"
    case .noSuchModifier(let id, let node):
      "'\(node)' has no modifier \(id)"
    case .invalidReentrancyLimit(let limit):
      "the reentrancy limit must be at least 1, not \(limit)"
    case .duplicateResponder(let type, let node):
      "'\(node)' already responds to \(type)"
    case .asynchronousHandler(let node):
      "'\(node)' has an asynchronous handler for this action: trigger it with 'await'"
    case .unhandledAction(let action, let path):
      "nobody handled \(action), triggered from '\(path)', and handling is required"
    case .handleMismatch(let node):
      "'\(node)' is bound to another NodeHandle than the declaration (an unbound declaration, or a slot, never updates a handle's node); not applied"
    case .handlePlacedTwice(let parent):
      "the declaration of '\(parent)' places a NodeHandle's node twice, or inside itself; the later slot was left out"
    case .placedBySlot(let node, let parent):
      "'\(node)' is placed by a slot of '\(parent)'; NodeHandle.place(in:order:) left it where the slot put it"
    case .handleOutlivedParent(let node, let parent):
      "the view of '\(parent)' went away, but the NodeHandle of '\(node)' is still alive: release it, or detach() it, when its view goes"
    case .handleHasNoNode:
      "the NodeHandle has no node yet: its view has not declared itself, and nothing placed it"
    case .unchangedWithoutNode(let id, let parent):
      "unchanged(\(id.map { "\"\($0)\"" } ?? "")) in '\(parent)' matched no child; an empty node was made"
    case .notFocusable(let node, let reason):
      "'\(node)' cannot take focus: \(reason)"
    case .outsideFocusTrap(let node, let trap):
      "'\(node)' is outside '\(trap)', which traps the focus until it leaves the tree"
    case .pointerCaptureWithoutButton(let node):
      "'\(node)' cannot capture the pointer: no button is down"
    }
  }
}
