import ViewTree

/// How keys are written for their reader: a person, a web page's `aria-keyshortcuts`, or AT-SPI's
/// `GetKeyBinding`. One formatter for every reader, so that a footer and a screen reader never
/// disagree about a key.
///
/// ```swift
/// let keys = try KeySequence(parsing: "ctrl+shift+s")
/// keys.formatted(.display)  // "ctrl+shift+s"
/// keys.formatted(.aria)     // "Control+Shift+S"
/// keys.formatted(.atspi)    // "<Control><Shift>s"
/// ```
public enum KeyNotation: Hashable, Sendable {
  /// The canonical spelling a footer shows (``KeySequence/description``): `ctrl+k ctrl+s`.
  case display
  /// WAI-ARIA's `aria-keyshortcuts`: modifiers `Control`, `Alt`, `Shift`, `Meta`, then the key as
  /// the DOM names it (`S`, `ArrowUp`, `Space`, `Plus`), joined by `+`. ARIA has no form for a
  /// sequence of more than one chord.
  case aria
  /// AT-SPI's key strings, as GTK names accelerators: `<Control>s`, `Page_Up`; the chords of a
  /// sequence joined by `:` (as the "sequence" part of `GetKeyBinding` joins them).
  case atspi
}

extension KeySequence {
  /// The keys written in `notation`.
  ///
  /// - Parameter notation: Who reads them.
  /// - Returns: The text; `nil` when the notation cannot write them (a sequence in ARIA).
  public func formatted(_ notation: KeyNotation) -> String? {
    switch notation {
    case .display: description
    case .aria: chords.count == 1 ? chords[0].aria : nil
    case .atspi: chords.map(\.atspi).joined(separator: ":")
    }
  }
}

extension KeyChord {
  /// `Control+Shift+S`.
  fileprivate var aria: String {
    var parts: [String] = []
    if modifiers.contains(.control) { parts.append("Control") }
    if modifiers.contains(.alt) { parts.append("Alt") }
    if modifiers.contains(.shift) { parts.append("Shift") }
    if modifiers.contains(.meta) { parts.append("Meta") }
    parts.append(key.aria)
    return parts.joined(separator: "+")
  }

  /// `<Control><Shift>s`.
  fileprivate var atspi: String {
    var text = ""
    if modifiers.contains(.control) { text += "<Control>" }
    if modifiers.contains(.alt) { text += "<Alt>" }
    if modifiers.contains(.shift) { text += "<Shift>" }
    if modifiers.contains(.meta) { text += "<Meta>" }
    return text + key.atspi
  }
}

extension KeyChord.Key {
  /// The DOM's `key` value, with the separators ARIA reserves named (`Plus`, `Space`).
  fileprivate var aria: String {
    switch self {
    case .character("+"): "Plus"
    case .character(" "): "Space"
    case .character(let character): character.uppercased()
    case .function(let number): "F\(number)"
    default: Self.named[namedIndex!].aria
    }
  }

  /// GTK's key name, with the characters AT-SPI's strings use as separators named (`colon`,
  /// `semicolon`, `less`, `greater`).
  fileprivate var atspi: String {
    switch self {
    case .character(let character):
      switch character {
      case ":": "colon"
      case ";": "semicolon"
      case "<": "less"
      case ">": "greater"
      case "+": "plus"
      case "-": "minus"
      case "=": "equal"
      case ",": "comma"
      case ".": "period"
      case "/": "slash"
      case " ": "space"
      default: String(character)
      }
    case .function(let number): "F\(number)"
    default: Self.named[namedIndex!].atspi
    }
  }
}
