/// The modifier keys held during a key press or a pointer event: control, alt, shift and meta.
///
/// Key chords (`KeyChord` in ViewTreeActions) and pointer actions (``PointerAction``) carry the
/// same set, so a binding and a click read modifiers the same way.
public struct KeyModifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The raw bits.
  public let rawValue: UInt8
  /// Creates modifiers from raw bits.
  ///
  /// - Parameter rawValue: The bits: control 1, alt 2, shift 4, meta 8.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Control.
  public static let control = KeyModifiers(rawValue: 1)
  /// Alt (option).
  public static let alt = KeyModifiers(rawValue: 2)
  /// Shift.
  public static let shift = KeyModifiers(rawValue: 4)
  /// Meta (command, super).
  public static let meta = KeyModifiers(rawValue: 8)

  /// The keys held, in the order chords write them: `[ctrl, shift]`, or `[]` for none.
  public var description: String {
    let names = [(Self.control, "ctrl"), (.alt, "alt"), (.shift, "shift"), (.meta, "meta")]
    return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
  }
}
