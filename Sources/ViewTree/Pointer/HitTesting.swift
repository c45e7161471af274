/// How a node with a frame takes the pointer, as Flutter's `HitTestBehavior` (see
/// <doc:RoutingThePointer>).
public enum HitBehavior: Hashable, Sendable {
  /// The node takes a hit in its frame where none of its children takes it, and what is below it
  /// (earlier siblings, and its parent's own area) does not see that point. The default: a node
  /// declares a frame because it shows something there, a button, a row, a panel.
  case opaque
  /// The node takes a hit in its frame where none of its children takes it, and lets what is
  /// below it take the hit too: an overlay that watches the pointer without hiding what it covers.
  case translucent
  /// The node takes no hit itself: its children take hits where they are, and elsewhere in its
  /// frame the point passes to what is below it, as if the node were not there (a layout
  /// container drawn with no background).
  case deferToChild
}

extension ModifierHost {
  /// Declares the node's rectangle, in the tree's coordinates, and how it takes the pointer.
  ///
  /// ```swift
  /// NodeDeclaration("row").frame(NodeFrame(x: 0, y: 3, width: 40, height: 1))
  /// NodeDeclaration("popup") { … }.frame(popupFrame, zIndex: 1)
  /// ```
  ///
  /// The frame is what hit testing tests (``NodeTree/node(at:)``) and what moving focus in a
  /// direction measures (``NodeTree/moveFocus(_:)``). A toolkit declares it again after each
  /// layout; declaring it again replaces the three values. A frame clips hit testing: a child is
  /// hit only inside its parent's frame (a node without a frame clips nothing). A frame with NaN or
  /// an infinity in it (see ``NodeFrame/isFinite``) counts as no frame.
  ///
  /// - Parameters:
  ///   - frame: The node's rectangle; `nil` for none (the node then takes no hit itself, but its
  ///     children may).
  ///   - zIndex: Where the node is among its siblings for hit testing: a higher `zIndex` is above
  ///     a lower one, and among equal ones a later sibling is above an earlier one.
  ///   - hitBehavior: How the node takes a hit (see ``HitBehavior``).
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func frame(_ frame: NodeFrame?, zIndex: Int = 0, hitBehavior: HitBehavior = .opaque)
    -> Self
  {
    // A frame that is not finite measures nothing: kept as no frame, so no walk reads it.
    let geometry = NodeGeometry(
      frame: frame.flatMap { $0.isFinite ? $0 : nil }, zIndex: zIndex, hitBehavior: hitBehavior)
    return settingAttachment(NodeGeometryKey.self, to: geometry)
  }
}

extension Node {
  /// The frame the node declares (see ``ModifierHost/frame(_:zIndex:hitBehavior:)``), if any.
  public var frame: NodeFrame? { existingExtras?.pointer.geometry.frame }
}

extension NodeTree {
  /// The node a pointer event at `location` goes to: the top-most node that takes a hit there,
  /// or `nil` when none does.
  ///
  /// Hit testing walks from the root down: a node whose frame does not contain the point is not
  /// entered (its frame clips its subtree); children are tried from the top (the highest
  /// `zIndex`, then the latest sibling) down; a node takes the hit where none of its children
  /// does, as its ``HitBehavior`` says. Nodes without a frame and frames that are not finite never
  /// take a hit. <doc:RoutingThePointer> has the rules.
  ///
  /// - Parameter location: A point in the tree's coordinates.
  /// - Returns: The top-most node hit, or `nil`.
  /// - Complexity: O(*n*) at worst in the nodes whose frames contain the point and their
  ///   siblings, with no allocation once the tree has hit-tested at its depth; a node whose
  ///   children declare a `zIndex` sorts them, O(*c* log *c*).
  public func node(at location: PointerLocation) -> Node? { state.firstHit(at: location) }

  /// Every node that takes a hit at `location`, top first: the node ``node(at:)`` gives, then,
  /// while the ones above are ``HitBehavior/translucent``, the ones below them.
  ///
  /// - Parameter location: A point in the tree's coordinates.
  /// - Returns: The nodes hit, top first; empty when none is.
  /// - Complexity: O(*n*) at worst, as ``node(at:)``.
  public func hitTest(at location: PointerLocation) -> [Node] {
    var found: [Node] = []
    state.forEachHit(at: location, within: state.focus.modal) { node in
      found.append(node)
      return true
    }
    return found
  }
}

extension Node {
  /// Sets the node's geometry (see `NodeGeometry`), and notes on its parent that hit testing
  /// must sort the children when it declares a `zIndex`: for good, as a parent that has sorted
  /// once may again. Returns whether the geometry changed.
  func setGeometry(_ geometry: NodeGeometry) -> Bool {
    if (existingExtras?.pointer.geometry ?? NodeGeometry()) == geometry { return false }
    extras.pointer.geometry = geometry
    if extras.pointer.geometry.zIndex != 0, let parent {
      parent.extras.pointer.sortsChildrenByZIndex = true
    }
    return true
  }
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
