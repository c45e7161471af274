/// How a menu item or button for an action should look: enabled, visible, its title, a
/// one-sentence summary, and its check state.
///
/// Unknown identifiers validate as ``unavailable`` (disabled and hidden).
public struct Validation: Hashable, Sendable, CustomStringConvertible {
  /// The check state of an item that can be checked.
  public enum State: String, Hashable, Sendable {
    /// Unchecked.
    case off
    /// Checked.
    case on
    /// Partly checked (a selection where some items have the property).
    case mixed
  }

  /// Whether the action can be performed now.
  public var isEnabled: Bool
  /// Whether items for the action should be shown.
  public var isVisible: Bool
  /// The title items should show, or `nil` to keep their own.
  public var title: String?
  /// One sentence saying what the action does, for a tooltip, a palette or assistive technology
  /// (AT-SPI's `GetDescription`); `nil` when there is none.
  public var summary: String?
  /// The check state, or `nil` for items that are not checkable.
  public var state: State?

  /// Creates a validation.
  public init(
    isEnabled: Bool = true, isVisible: Bool = true, title: String? = nil, summary: String? = nil,
    state: State? = nil
  ) {
    self.isEnabled = isEnabled
    self.isVisible = isVisible
    self.title = title
    self.summary = summary
    self.state = state
  }

  // NB: computed, not stored: a stored static is copied out of a global after a `swift_once`
  // check, while these are built in place, and every validation that keeps the default starts
  // from one of them.

  /// Enabled and visible.
  public static var enabled: Validation { Validation() }
  /// Visible but disabled.
  public static var disabled: Validation { Validation(isEnabled: false) }
  /// Disabled and hidden: what unknown identifiers validate as.
  public static var unavailable: Validation { Validation(isEnabled: false, isVisible: false) }

  /// A description such as `enabled, visible, "Undo Delete Row", on` (without the summary).
  public var description: String {
    var parts = [isEnabled ? "enabled" : "disabled", isVisible ? "visible" : "hidden"]
    if let title { parts.append("\"\(title)\"") }
    if let state { parts.append(state.rawValue) }
    return parts.joined(separator: ", ")
  }
}
