/// The axes a node scrolls along (see ``ModifierHost/scrollable(_:canScroll:)``).
public struct ScrollAxes: OptionSet, Hashable, Sendable {
  /// The raw bits.
  public let rawValue: UInt8
  /// Creates axes from raw bits.
  ///
  /// - Parameter rawValue: The bits: horizontal 1, vertical 2.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Left and right.
  public static let horizontal = ScrollAxes(rawValue: 1)
  /// Up and down.
  public static let vertical = ScrollAxes(rawValue: 2)
}

/// Which way a wheel turn asks a node to scroll: `down` shows what is below.
public enum ScrollDirection: Hashable, Sendable {
  /// Toward the top.
  case up
  /// Toward the bottom.
  case down
  /// Toward the left edge.
  case left
  /// Toward the right edge.
  case right

  /// The direction of a wheel turn: the axis it turns more along; `nil` when it does not turn.
  init?(deltaX: Double, deltaY: Double) {
    if deltaY != 0, abs(deltaY) >= abs(deltaX) {
      self = deltaY > 0 ? .down : .up
    } else if deltaX != 0 {
      self = deltaX > 0 ? .right : .left
    } else {
      return nil
    }
  }

  /// The axis the direction is along.
  var axis: ScrollAxes { self == .up || self == .down ? .vertical : .horizontal }
}

/// What a scrollable node declared: its axes, and how it tells whether it can scroll further.
struct Scrolling {
  var axes: ScrollAxes
  var canScroll: ((ScrollDirection) -> Bool)?
}

enum ScrollingKey: NodeAttachmentKey {
  static var defaultValue: Scrolling? { nil }
}

extension ModifierHost {
  /// Declares that this node scrolls along `axes`: the wheel, turned over it or a node below it,
  /// goes to the nearest such node that can still scroll that way (see <doc:RoutingThePointer>).
  ///
  /// ```swift
  /// NodeDeclaration("log") { … }
  ///   .scrollable(.vertical) { direction in direction == .down ? offset < maxOffset : offset > 0 }
  ///   .handleAction(PointerWheel.self) { wheel in offset += wheel.deltaY }
  /// ```
  ///
  /// - Parameters:
  ///   - axes: The axes it scrolls along.
  ///   - canScroll: Whether it can scroll further that way now; `nil` for always. At its limit, a
  ///     turn goes on to the next scrollable node above it, as a nested list hands the wheel to
  ///     the page around it. Called while the wheel is routed; it should not change the tree.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func scrollable(
    _ axes: ScrollAxes = .vertical, canScroll: ((ScrollDirection) -> Bool)? = nil
  ) -> Self {
    settingAttachment(ScrollingKey.self, to: Scrolling(axes: axes, canScroll: canScroll))
  }
}

extension Node {
  /// Whether this node declares itself scrollable that way and can still scroll (a closure the
  /// toolkit gave, which the caller calls between walks).
  func scrolls(_ direction: ScrollDirection) -> Bool {
    guard hasAttachments, let scrolling = self[attachment: ScrollingKey.self],
      scrolling.axes.contains(direction.axis)
    else { return false }
    return scrolling.canScroll?(direction) ?? true
  }
}
