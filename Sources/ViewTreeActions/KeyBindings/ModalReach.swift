import Actions
import ViewTree

/// Which bindings a walk from a node up reaches while a modal scope holds the focus of its tree:
/// those of the nodes inside the scope, and of the others only those declared to pass it
/// (`KeyBinding.passesModal`); the tree's defaults only from inside the scope, where they act on
/// the focus. With no modal scope, every one.
struct ModalReach {
  private let modal: Node?
  private let startsOutside: Bool
  /// Whether the nodes the walk is at now are outside the modal scope.
  private var isOutside: Bool

  /// A walk from `node`, whose top-most node is `top`.
  init(from node: Node, top: Node) {
    modal = top.activeModal
    startsOutside = modal.map { !node.isDescendant(of: $0) } ?? false
    isOutside = startsOutside
  }

  /// Whether the walk takes `binding`, found on the node it is at.
  func admits(_ binding: KeyBinding) -> Bool { !isOutside || binding.passesModal }

  /// Whether the walk takes the node's item (an item outside the modal scope is inert).
  var admitsItems: Bool { !isOutside }

  /// Whether the tree's defaults apply: the walk started inside the modal scope, if any.
  var admitsDefaults: Bool { !startsOutside }

  /// Notes that the walk is done with `node`: past the modal scope, it is outside.
  mutating func passed(_ node: Node) {
    if node === modal { isOutside = true }
  }

  /// Whether `node` is the modal scope.
  func isScope(_ node: Node) -> Bool { node === modal }

  /// Whether the node `distance` steps up from where the walk began, which it passed, is outside
  /// the modal scope, which it passed `scopeDistance` steps up (`Int.max` if it did not).
  func isInert(atDistance distance: Int, scopeDistance: Int) -> Bool {
    modal != nil && (startsOutside || distance > scopeDistance)
  }

  /// Whether `node`, of the walk's tree, is outside the modal scope.
  func isInert(_ node: Node) -> Bool { modal.map { !node.isDescendant(of: $0) } ?? false }
}
