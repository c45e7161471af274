/// One event from the mouse, a pen or a touchpad, as a toolkit or a terminal reports it: what
/// ``NodeTree/handlePointer(_:)`` routes.
///
/// ```swift
/// tree.handlePointer(PointerInput(.press(.primary), at: PointerLocation(x: 12, y: 3)))
/// ```
public struct PointerInput: Hashable, Sendable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Hashable, Sendable {
    /// A button went down.
    case press(PointerButton)
    /// A button went up.
    case release(PointerButton)
    /// The pointer moved (with or without buttons held).
    case move
    /// The wheel turned, by these amounts: positive rightward and downward.
    case wheel(deltaX: Double, deltaY: Double)
  }

  /// What happened.
  public var kind: Kind
  /// Where, in the tree's coordinates.
  public var location: PointerLocation
  /// The modifier keys held.
  public var modifiers: KeyModifiers
  /// When, for telling a double click from two clicks (see ``NodeTree/multiClickInterval``);
  /// `nil` when the toolkit does not say, and the router reads the clock for a press or a
  /// release.
  public var time: ContinuousClock.Instant? {
    get { timestamp.map { Self.epoch.advanced(by: $0) } }
    set { timestamp = newValue.map { Self.epoch.duration(to: $0) } }
  }
  /// `time`, kept as the time since `epoch`: `ContinuousClock.Instant`'s layout is resilient, so
  /// every value that held one (this event, the router's last click) would be copied through
  /// runtime calls, where a `Duration` is two plain words.
  var timestamp: Duration?
  /// Any fixed instant will do.
  static let epoch = ContinuousClock.now

  /// `timestamp`, or the time now.
  var timestampOrNow: Duration { timestamp ?? Self.epoch.duration(to: .now) }

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - kind: What happened.
  ///   - location: Where, in the tree's coordinates.
  ///   - modifiers: The modifier keys held.
  ///   - time: When, if the toolkit knows; by default the router reads the clock when it needs
  ///     the time.
  public init(
    _ kind: Kind, at location: PointerLocation, modifiers: KeyModifiers = [],
    time: ContinuousClock.Instant? = nil
  ) {
    self.kind = kind
    self.location = location
    self.modifiers = modifiers
    self.timestamp = time.map { Self.epoch.duration(to: $0) }
  }

  /// `press primary at (3, 4)`, `wheel (0, 1) at (3, 4)`.
  public var description: String {
    let what =
      switch kind {
      case .press(let button): "press \(button)"
      case .release(let button): "release \(button)"
      case .move: "move"
      case .wheel(let deltaX, let deltaY): "wheel \(PointerLocation(x: deltaX, y: deltaY))"
      }
    return "\(what) at \(location)"
  }
}

/// What ``NodeTree/handlePointer(_:)`` did with one event.
public struct PointerResult {
  /// The node the event went to: the top-most node under the pointer, the node that captured the
  /// pointer, or for the wheel the node that scrolls; `nil` when nothing took it.
  public let target: Node?
  /// What happened to the event's action (``PointerPress``, ``PointerRelease``, ``PointerMove``,
  /// ``PointerWheel``), dispatched at ``target``; `nil` when it went nowhere.
  public let outcome: ActionOutcome?
  /// For a release that completed a click: what happened to the ``PointerClick``.
  public let click: ActionOutcome?
  /// For a press: what it did to the focus.
  public let focus: PointerFocus
  /// The modal scope that holds the focus, when the event landed outside it: everything outside
  /// is inert, so the event went to no node (``target`` is `nil`). A toolkit closes a popover on
  /// such a press.
  public let blockedBy: Node?
  /// For a primary click that no handler took: what the default action of the node it activated
  /// returned (ViewTreeActions reads it as `PointerResult.activation`).
  package let activated: Any?

  init(
    target: Node?, outcome: ActionOutcome?, click: ActionOutcome?, focus: PointerFocus,
    blockedBy: Node? = nil,
    activated: Any? = nil
  ) {
    self.target = target
    self.outcome = outcome
    self.click = click
    self.focus = focus
    self.blockedBy = blockedBy
    self.activated = activated
  }
}

/// What a press did to the focus.
public enum PointerFocus: CustomStringConvertible {
  /// Nothing: the event was no press, nothing under it can take focus, the node that could
  /// declares `focusOnPress: false`, or it has the focus already.
  case unchanged
  /// The press gave the focus to the node (``FocusChangeReason/pointer``).
  case moved(to: Node)
  /// The node that would take focus is outside the trapping scope that holds it (the node
  /// pressed, inside the scope, cannot take focus, and its nearest ancestor that can is outside);
  /// the press still went to the node pressed.
  case refused(Node, trap: Node)

  /// `unchanged`, `moved to window/list`, or `refused window/list (trap window/dialog)`.
  public var description: String {
    switch self {
    case .unchanged: "unchanged"
    case .moved(let node): "moved to \(node.path)"
    case .refused(let node, let trap): "refused \(node.path) (trap \(trap.path))"
    }
  }
}
