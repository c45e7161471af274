/// What the pointer keeps on a node (`NodeExtras.pointer`): where the node is, for hit testing and
/// direction moves, and whether the pointer is over it. Plain fields, as hit testing reads the
/// frame of every sibling it tries.
struct NodePointerState {
  /// What the node declared (see `NodeGeometry`).
  var geometry = NodeGeometry() {
    didSet {
      (right, bottom) = geometry.frame.map { ($0.maxX, $0.maxY) } ?? (-.infinity, -.infinity)
    }
  }
  /// The frame's right and bottom edges, computed once when it is set, so that the hit walk
  /// tests a sibling with four comparisons and no addition.
  private(set) var right = -Double.infinity
  private(set) var bottom = -Double.infinity
  /// Whether a child declared a `zIndex` once, so that hit testing sorts the children (see
  /// `TreeState.forEachHit`).
  var sortsChildrenByZIndex = false
  /// Whether the pointer is over this node or a descendant (see `TreePointer.hovered`).
  var isHovered = false

  var frame: NodeFrame? { geometry.frame }
  var zIndex: Int { geometry.zIndex }
  var hitBehavior: HitBehavior { geometry.hitBehavior }
}

/// What a node declared about where it is (``ModifierHost/frame(_:zIndex:hitBehavior:)``): kept
/// in the pointer's slot of the node's extras rather than in its list of attachments, as hit
/// testing reads it for every sibling it tries. `NodeGeometryKey`, a field key, is how a
/// declaration names it.
@usableFromInline
struct NodeGeometry: Equatable {
  var frame: NodeFrame?
  var zIndex = 0
  var hitBehavior = HitBehavior.opaque
}

/// How a declaration names a node's geometry: a field key, whose value is the pointer slot's
/// `geometry`. Setting it runs the hover again when it changed.
@usableFromInline
enum NodeGeometryKey: NodeFieldKey {
  @usableFromInline static var defaultValue: NodeGeometry { NodeGeometry() }

  @usableFromInline static func value<V>(of node: Node, as type: V.Type) -> V {
    (node.existingExtras?.pointer.geometry ?? NodeGeometry()) as! V
  }

  @usableFromInline static func set<V>(_ value: V, on node: Node) {
    if node.setGeometry(value as! NodeGeometry) { node.layoutDidChange() }
  }
}
