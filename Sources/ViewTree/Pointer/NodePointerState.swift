/// What the pointer keeps on a node (`NodeExtras.pointer`): where the node is, for hit testing and
/// direction moves (see `NodeGeometry`), and whether the pointer is over it. Plain fields, as hit
/// testing reads the frame of every sibling it tries.
struct NodePointerState {
  var frame: NodeFrame? {
    didSet { (right, bottom) = frame.map { ($0.maxX, $0.maxY) } ?? (-.infinity, -.infinity) }
  }
  /// The frame's right and bottom edges, computed once when it is set, so that the hit walk
  /// tests a sibling with four comparisons and no addition.
  private(set) var right = -Double.infinity
  private(set) var bottom = -Double.infinity
  var zIndex = 0
  var hitBehavior = HitBehavior.opaque
  /// Whether a child declared a `zIndex` once, so that hit testing sorts the children (see
  /// `TreeState.forEachHit`).
  var sortsChildrenByZIndex = false
  /// Whether the pointer is over this node or a descendant (see `TreePointer.hovered`).
  var isHovered = false

  /// The geometry the fields hold, `nil` when they hold the defaults.
  var geometry: NodeGeometry? {
    get {
      let geometry = NodeGeometry(frame: frame, zIndex: zIndex, hitBehavior: hitBehavior)
      return geometry == NodeGeometry() ? nil : geometry
    }
    set {
      frame = newValue?.frame
      zIndex = newValue?.zIndex ?? 0
      hitBehavior = newValue?.hitBehavior ?? .opaque
    }
  }
}
