/// A key event as a keyboard reports it: a chord pressed, repeated while held, or released, with
/// the other keys the same physical key stands for on the user's layout.
///
/// A terminal that speaks the kitty keyboard protocol (see `TerminalKeyDecoder`) and a GUI
/// toolkit both report more than a chord: whether the key went down, repeats or came up, the
/// key it types with shift (`!` for shift+1), and the key of the standard (US) layout in the
/// same place (`c` for the Cyrillic `с`). A key press resolves its bindings (see
/// `Node.handleKey(_:)`) with the reported ``chord`` first, then each of ``alternates`` while
/// nothing is bound, so that `ctrl+c` fires on a Cyrillic layout and a binding of `!` fires for
/// shift+1.
///
/// ```swift
/// let event = KeyEvent(KeyChord(.character("с"), modifiers: .control), baseKey: .character("c"))
/// tree.firstResponder.handleKey(event)  // performs what ctrl+c is bound to
/// ```
public struct KeyEvent: Hashable, Sendable, CustomStringConvertible {
  /// Whether a key went down, repeats while held, or came up.
  public enum Kind: Hashable, Sendable {
    /// The key went down.
    case press
    /// The key is held, and the keyboard repeats it.
    case `repeat`
    /// The key came up.
    case release
  }

  /// The kinds of key event a binding takes (see `ModifierHost.bindKey(_:to:shownAs:passesModal:on:)`).
  public struct Kinds: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates kinds from raw bits.
    ///
    /// - Parameter rawValue: The bits: press 1, repeat 2, release 4.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A press.
    public static let press = Kinds(rawValue: 1)
    /// A repeat.
    public static let `repeat` = Kinds(rawValue: 2)
    /// A release.
    public static let release = Kinds(rawValue: 4)
    /// A press and its repeats: what a binding takes unless it says otherwise.
    public static let pressAndRepeat: Kinds = [.press, .repeat]

    /// Whether these kinds include `kind`.
    func includes(_ kind: Kind) -> Bool {
      switch kind {
      case .press: contains(.press)
      case .repeat: contains(.repeat)
      case .release: contains(.release)
      }
    }
  }

  /// The chord reported: the key with the modifiers held.
  public var chord: KeyChord
  /// Whether the key went down, repeats, or came up.
  public var kind: Kind
  /// The key typed with shift held, when the keyboard reports it and it differs from the key
  /// (`!` for the `1` key, `A` for `a`).
  public var shiftedKey: KeyChord.Key?
  /// The key of the standard (US) layout at the same place, when the keyboard reports it and it
  /// differs from the key (`c` for the Cyrillic `с`).
  public var baseKey: KeyChord.Key?
  /// The text the key types, when the keyboard reports it (kitty's associated text).
  public var text: String?

  /// Creates a key event.
  ///
  /// - Parameters:
  ///   - chord: The chord reported.
  ///   - kind: A press (the default), a repeat or a release.
  ///   - shiftedKey: The key typed with shift, if reported.
  ///   - baseKey: The key of the standard layout at the same place, if reported.
  ///   - text: The text the key types, if reported.
  public init(
    _ chord: KeyChord, kind: Kind = .press, shiftedKey: KeyChord.Key? = nil, baseKey: KeyChord.Key? = nil,
    text: String? = nil
  ) {
    self.chord = chord
    self.kind = kind
    self.shiftedKey = shiftedKey
    self.baseKey = baseKey
    self.text = text
  }

  /// The other chords the event stands for, in the order a key press tries them after
  /// ``chord``: the shifted key with shift folded into it (shift+1 with the shifted key `!` is
  /// `!`; a capital letter keeps its shift, as ``KeyChord`` stores capitals), then the base-layout
  /// key with the modifiers held. A chord equal to one before it is left out.
  public var alternates: [KeyChord] {
    var chords: [KeyChord] = []
    for index in 1..<3 {
      if let alternate = candidate(index) { chords.append(alternate) }
    }
    return chords
  }

  /// The chord tried in place `index` (0 the chord, 1 the shifted key, 2 the base key), or `nil`
  /// when there is none there, or it repeats one tried before.
  func candidate(_ index: Int) -> KeyChord? {
    switch index {
    case 0: return chord
    case 1:
      guard let shiftedKey, chord.modifiers.contains(.shift) else { return nil }
      let shifted = KeyChord(shiftedKey, modifiers: chord.modifiers.subtracting(.shift))
      return shifted == chord ? nil : shifted
    case 2:
      guard let baseKey else { return nil }
      let base = KeyChord(baseKey, modifiers: chord.modifiers)
      return base == chord || base == candidate(1) ? nil : base
    default: return nil
    }
  }

  /// `ctrl+c`, `ctrl+c (repeat)`, `a (release)`, with the alternates that were reported.
  public var description: String {
    var text = "\(chord)"
    switch kind {
    case .press: break
    case .repeat: text += " (repeat)"
    case .release: text += " (release)"
    }
    let others = alternates
    if !others.isEmpty { text += " [also " + others.map(\.description).joined(separator: ", ") + "]" }
    return text
  }
}
