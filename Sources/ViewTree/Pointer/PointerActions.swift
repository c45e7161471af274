/// A button of a mouse or pen, by its number: 1 primary, 2 middle, 3 secondary, as X11 and the
/// terminal's mouse reports number them; 8 to 11 are the extra buttons (back, forward).
public struct PointerButton: Hashable, Sendable, CustomStringConvertible {
  // One byte, so that a press or a click fits an existential's inline buffer: dispatching one
  // allocates nothing.
  private let storage: UInt8

  /// The button's number, 1 to 11 (a number given outside 1 to 255 is kept as 0).
  public var number: Int { Int(storage) }

  /// Creates a button.
  ///
  /// - Parameter number: The button's number; the terminal reports 1 to 3 and 8 to 11.
  public init(_ number: Int) { storage = UInt8(exactly: number) ?? 0 }

  /// The primary button, usually the left.
  public static let primary = PointerButton(1)
  /// The middle button (the wheel pressed).
  public static let middle = PointerButton(2)
  /// The secondary button, usually the right: a context menu.
  public static let secondary = PointerButton(3)
  /// The first extra button, usually "back".
  public static let back = PointerButton(8)
  /// The second extra button, usually "forward".
  public static let forward = PointerButton(9)

  /// `primary`, `middle`, `secondary`, `back`, `forward` or `button N`.
  public var description: String {
    switch number {
    case 1: "primary"
    case 2: "middle"
    case 3: "secondary"
    case 8: "back"
    case 9: "forward"
    default: "button \(number)"
    }
  }
}

/// A set of pointer buttons, such as the buttons held during a drag.
public struct PointerButtons: OptionSet, Hashable, Sendable {
  /// The raw bits: bit *n* - 1 for button *n*.
  public let rawValue: UInt16
  /// Creates a set from raw bits.
  ///
  /// - Parameter rawValue: The bits.
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  /// The set of one button (empty for a number outside 1 to 16).
  ///
  /// - Parameter button: The button.
  public init(_ button: PointerButton) {
    rawValue = (1...16).contains(button.number) ? 1 << UInt16(button.number - 1) : 0
  }
  /// Whether the set holds `button`.
  ///
  /// - Parameter button: A button.
  /// - Returns: `true` if the button is in the set.
  public func contains(_ button: PointerButton) -> Bool {
    let one = PointerButtons(button)
    return !one.isEmpty && isSuperset(of: one)
  }
}

/// What every pointer action carries. Pointer actions travel as any action does, with capture and
/// bubble from the node the pointer is over (see <doc:RoutingThePointer>).
///
/// A press, a click and a wheel turn are what the user does: like any action, one that nobody
/// handles reaches ``NodeTree/onUnhandled`` and fails where handling is required
/// (``NodeTree/requiresHandling``). The others (a move, a release, the pointer entering, leaving,
/// coming over or going out of a node, a capture got or lost) are notifications most nodes ignore:
/// their types say so (``Action/expectsHandler`` is `false`), and nobody handling one is no report.
public protocol PointerAction: Action {
  /// Where the pointer is, in the tree's coordinates.
  var location: PointerLocation { get }
  /// The modifier keys held.
  var modifiers: KeyModifiers { get }
}

extension PointerAction {
  /// The location relative to `node`'s frame: from its top-left corner; `nil` when the node has
  /// no frame.
  ///
  /// - Parameter node: Usually the node whose handler reads the action.
  /// - Returns: The location in the node's frame.
  public func location(in node: Node) -> PointerLocation? {
    guard let frame = node.frame else { return nil }
    return PointerLocation(x: location.x - frame.x, y: location.y - frame.y)
  }
}

/// A button was pressed over the node (Pointer Events' `pointerdown`). Focus has moved first, if
/// the press gives it to a node (``FocusChangeReason/pointer``).
///
/// A primary press on a node with a default action (an action item), or below one, is no report
/// for ``NodeTree/onUnhandled`` when nobody handles it: the click it begins activates the item.
public struct PointerPress: PointerAction, Hashable {
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The button pressed.
  public var button: PointerButton
  /// The modifier keys held.
  public var modifiers: KeyModifiers
  /// 1 for a single press, 2 for the second press of a double click, and so on: presses of the
  /// same button on the same node within ``NodeTree/multiClickInterval`` of the last click.
  public var clickCount: Int {
    get { Int(count) }
    set { count = Int32(clamping: newValue) }
  }
  // Four bytes, so that the action fits an existential's inline buffer (three words).
  private var count: Int32

  /// Creates a press.
  ///
  /// - Parameters:
  ///   - location: Where.
  ///   - button: The button.
  ///   - modifiers: The modifier keys held.
  ///   - clickCount: The click count this press starts.
  public init(
    location: PointerLocation, button: PointerButton, modifiers: KeyModifiers = [], clickCount: Int = 1
  ) {
    self.location = location
    self.button = button
    self.modifiers = modifiers
    self.count = Int32(clamping: clickCount)
  }

}

/// A button was released over the node, or over the node that captured the pointer
/// (`pointerup`).
public struct PointerRelease: PointerAction, Hashable {
  /// A notification: nobody handling it is no report.
  public static var expectsHandler: Bool { false }
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The button released.
  public var button: PointerButton
  /// The modifier keys held.
  public var modifiers: KeyModifiers

  /// Creates a release.
  ///
  /// - Parameters:
  ///   - location: Where.
  ///   - button: The button.
  ///   - modifiers: The modifier keys held.
  public init(location: PointerLocation, button: PointerButton, modifiers: KeyModifiers = []) {
    self.location = location
    self.button = button
    self.modifiers = modifiers
  }
}

/// A button was pressed and released over the same node: a click (the DOM's `click`); a drag that
/// ends on another node is not one.
///
/// A primary click that no handler takes activates the nearest node from the one clicked up that
/// has a default action (an action item, in ViewTreeActions), as Enter does: such a click is no
/// report for ``NodeTree/onUnhandled``, since the item takes it.
public struct PointerClick: PointerAction, Hashable {
  /// Where the button was released, in the tree's coordinates.
  public var location: PointerLocation
  /// The button.
  public var button: PointerButton
  /// The modifier keys held.
  public var modifiers: KeyModifiers
  /// 1 for a click, 2 for a double click, 3 for a triple click, and so on.
  public var clickCount: Int {
    get { Int(count) }
    set { count = Int32(clamping: newValue) }
  }
  // Four bytes, so that the action fits an existential's inline buffer (three words).
  private var count: Int32

  /// Creates a click.
  ///
  /// - Parameters:
  ///   - location: Where.
  ///   - button: The button.
  ///   - modifiers: The modifier keys held.
  ///   - clickCount: 1, 2 for a double click, and so on.
  public init(
    location: PointerLocation, button: PointerButton, modifiers: KeyModifiers = [], clickCount: Int = 1
  ) {
    self.location = location
    self.button = button
    self.modifiers = modifiers
    self.count = Int32(clamping: clickCount)
  }

}

/// The pointer moved over the node, or while the node captured it (`pointermove`).
public struct PointerMove: PointerAction, Hashable {
  /// A notification: nobody handling it is no report.
  public static var expectsHandler: Bool { false }
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
  /// The buttons held down: a drag when not empty.
  public var buttons: PointerButtons

  /// Creates a move.
  ///
  /// - Parameters:
  ///   - location: Where.
  ///   - modifiers: The modifier keys held.
  ///   - buttons: The buttons held down.
  public init(location: PointerLocation, modifiers: KeyModifiers = [], buttons: PointerButtons = []) {
    self.location = location
    self.modifiers = modifiers
    self.buttons = buttons
  }
}

/// The wheel turned over the node: sent to the nearest node that declares itself scrollable
/// along the wheel's axis and can still scroll (see ``ModifierHost/scrollable(_:canScroll:)``).
public struct PointerWheel: PointerAction, Hashable {
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
  /// How far to scroll horizontally, positive rightward (in the toolkit's units: lines for a
  /// terminal).
  public var deltaX: Double
  /// How far to scroll vertically, positive downward.
  public var deltaY: Double

  /// Creates a wheel turn.
  ///
  /// - Parameters:
  ///   - location: Where.
  ///   - modifiers: The modifier keys held.
  ///   - deltaX: The horizontal amount.
  ///   - deltaY: The vertical amount.
  public init(location: PointerLocation, modifiers: KeyModifiers = [], deltaX: Double = 0, deltaY: Double) {
    self.location = location
    self.modifiers = modifiers
    self.deltaX = deltaX
    self.deltaY = deltaY
  }
}

/// The pointer came over the node or one of its descendants (`pointerenter`): sent to each node
/// that became hovered, the outermost first, and to no other; it does not bubble.
public struct PointerEnter: PointerAction, Hashable {
  /// A notification: nobody handling it is no report.
  public static var expectsHandler: Bool { false }
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
}

/// The pointer left the node and its descendants (`pointerleave`): sent to each node that stopped
/// being hovered, the innermost first, and to no other; it does not bubble.
public struct PointerLeave: PointerAction, Hashable {
  /// A notification: nobody handling it is no report.
  public static var expectsHandler: Bool { false }
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
}

/// The pointer came over the node it is now over (`pointerover`): it bubbles, so an ancestor
/// hears of every node the pointer enters below it.
public struct PointerOver: PointerAction, Hashable {
  /// A notification: nobody handling it is no report.
  public static var expectsHandler: Bool { false }
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
}

/// The pointer left the node it was over (`pointerout`): it bubbles.
public struct PointerOut: PointerAction, Hashable {
  /// A notification: nobody handling it is no report.
  public static var expectsHandler: Bool { false }
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
}

/// The node captured the pointer (`gotpointercapture`): pointer events go to it, wherever the
/// pointer is, until it releases the capture, a button is released, or it leaves the tree.
public struct GotPointerCapture: PointerAction, Hashable {
  /// A notification: nobody handling it is no report.
  public static var expectsHandler: Bool { false }
  /// Where the pointer is, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
}

/// The node lost the pointer capture (`lostpointercapture`). When the node left the tree, the
/// tree's root hears of it instead.
public struct LostPointerCapture: PointerAction, Hashable {
  /// A notification: nobody handling it is no report.
  public static var expectsHandler: Bool { false }
  /// Where the pointer is, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
}
