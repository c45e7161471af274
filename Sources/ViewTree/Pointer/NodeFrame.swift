/// A node's rectangle, in whatever units the toolkit lays out in (terminal cells or points), in
/// one coordinate space for the whole tree: what hit testing tests (see <doc:RoutingThePointer>)
/// and what moving focus in a direction measures (see ``FocusMove``).
///
/// A frame contains the points from its top-left corner up to, but not including, its right and
/// bottom edges, so the frames of adjacent cells never share a point.
public struct NodeFrame: Hashable, Sendable {
  /// The left edge.
  public var x: Double
  /// The top edge; `y` grows downward, as rows of a terminal and most toolkits' coordinates do.
  public var y: Double
  /// The width.
  public var width: Double
  /// The height.
  public var height: Double

  /// Creates a frame.
  ///
  /// - Parameters:
  ///   - x: The left edge.
  ///   - y: The top edge.
  ///   - width: The width.
  ///   - height: The height.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Whether every value is finite: ``ModifierHost/frame(_:zIndex:hitBehavior:)`` keeps a frame
  /// with NaN or an infinity as no frame, so that it is never hit and takes no part in a direction
  /// move.
  public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

  /// Whether `location` lies in the frame: at or right of its left edge and left of its right
  /// edge, at or below its top edge and above its bottom edge. A frame of zero or negative size
  /// contains nothing.
  ///
  /// - Parameter location: A point in the tree's coordinates.
  /// - Returns: `true` if it lies in the frame.
  public func contains(_ location: PointerLocation) -> Bool {
    location.x >= x && location.x < x + width && location.y >= y && location.y < y + height
  }

  var maxX: Double { x + width }
  var maxY: Double { y + height }
  var midX: Double { x + width / 2 }
  var midY: Double { y + height / 2 }
}

/// A point in the tree's coordinates, those of the frames: where the pointer is.
public struct PointerLocation: Hashable, Sendable, CustomStringConvertible {
  /// The horizontal coordinate, growing rightward.
  public var x: Double
  /// The vertical coordinate, growing downward.
  public var y: Double

  /// Creates a location.
  ///
  /// - Parameters:
  ///   - x: The horizontal coordinate.
  ///   - y: The vertical coordinate.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// `(3, 7)`, with whole numbers written without a fraction.
  public var description: String {
    func number(_ value: Double) -> String {
      value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
    return "(\(number(x)), \(number(y)))"
  }
}
