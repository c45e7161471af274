import Actions
import ViewTree

/// A key with modifiers, such as `ctrl+s`, `shift+tab`, `f5` or `alt+enter`.
///
/// Parse chords from text with ``init(parsing:)``: modifiers and a key joined by `+`; modifier
/// and key names in any case. A capital letter is that letter with shift, as a terminal reports a
/// typed capital: `D` is `shift+d`, `ctrl+S` is `ctrl+shift+s` (and `shift+D` is `shift+d` too).
/// The canonical spelling (``description``) writes letters in lowercase and lists modifiers as
/// `ctrl+alt+shift+meta`.
///
/// | modifiers | spellings |
/// | --- | --- |
/// | control | `ctrl`, `control` |
/// | alt | `alt`, `option`, `opt` |
/// | shift | `shift` |
/// | meta | `meta`, `cmd`, `command`, `super`, `win` |
///
/// Keys: a single character (`s`, `5`, `/`, `é`, also when written with a combining accent), or
/// `enter` (`return`), `tab`, `escape` (`esc`), `space`, `backspace`, `delete` (`del`), `insert`
/// (`ins`), `home`, `end`, `pageup` (`pgup`), `pagedown` (`pgdn`), `up`, `down`, `left`, `right`,
/// `plus` (the `+` key), and `f1` to `f24`. Whitespace and control characters are not keys.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
  /// A key that is not a modifier.
  public enum Key: Hashable, Sendable {
    /// A key that types a character (a capital is stored as its lowercase letter with shift),
    /// which may be made of several Unicode scalars (`é` written as `e` and a combining accent, a
    /// flag).
    case character(Character)
    /// Enter (return).
    case enter
    /// Tab.
    case tab
    /// Escape.
    case escape
    /// Space.
    case space
    /// Backspace.
    case backspace
    /// Delete (forward delete).
    case delete
    /// Insert.
    case insert
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// A function key, 1 to 24.
    case function(Int)
  }

  /// The modifiers held.
  public let modifiers: KeyModifiers
  /// The key pressed.
  public let key: Key

  /// Creates a chord; a capital letter is stored as the lowercase letter with shift
  /// (`KeyChord(.character("D"))` is `shift+d`), as a terminal reports a typed capital.
  public init(_ key: Key, modifiers: KeyModifiers = []) {
    // A letter whose lowercase form is another single character is a capital (`ß` is not: its
    // lowercase is itself; `İ` is kept as it is: its lowercase is two characters).
    if case .character(let character) = key, character.isUppercase {
      let lowered = String(character).lowercased()
      if lowered.count == 1, let lower = lowered.first, lower != character {
        self.key = .character(lower)
        self.modifiers = modifiers.union(.shift)
        return
      }
    }
    self.key = key
    self.modifiers = modifiers
  }

  /// Parses a chord such as `"ctrl+shift+s"`.
  ///
  /// - Parameter text: The chord.
  /// - Throws: `ParseError<InvalidKeyChord>`, with the offset of the offending part.
  public init(parsing text: String) throws(ParseError<InvalidKeyChord>) {
    self = try KeyChordParser.parse(text)
  }

  /// The canonical spelling, such as `ctrl+shift+s`.
  public var description: String {
    var parts: [String] = []
    if modifiers.contains(.control) { parts.append("ctrl") }
    if modifiers.contains(.alt) { parts.append("alt") }
    if modifiers.contains(.shift) { parts.append("shift") }
    if modifiers.contains(.meta) { parts.append("meta") }
    parts.append(key.name)
    return parts.joined(separator: "+")
  }
}

extension KeyChord.Key {
  /// The keys that are neither characters nor function keys, in the order a listing puts them
  /// (after the characters), each with its names in every notation and the other names the
  /// parser takes: the one table of key names, so that a key is added in one line.
  static let named: [(key: KeyChord.Key, name: String, aliases: [String], aria: String, atspi: String)] = [
    (.enter, "enter", ["return"], "Enter", "Return"),
    (.tab, "tab", [], "Tab", "Tab"),
    (.escape, "escape", ["esc"], "Escape", "Escape"),
    (.space, "space", [], "Space", "space"),
    (.backspace, "backspace", [], "Backspace", "BackSpace"),
    (.delete, "delete", ["del"], "Delete", "Delete"),
    (.insert, "insert", ["ins"], "Insert", "Insert"),
    (.home, "home", [], "Home", "Home"),
    (.end, "end", [], "End", "End"),
    (.pageUp, "pageup", ["pgup"], "PageUp", "Page_Up"),
    (.pageDown, "pagedown", ["pgdn"], "PageDown", "Page_Down"),
    (.up, "up", [], "ArrowUp", "Up"),
    (.down, "down", [], "ArrowDown", "Down"),
    (.left, "left", [], "ArrowLeft", "Left"),
    (.right, "right", [], "ArrowRight", "Right"),
  ]

  /// Each named key by its name and its aliases, lowercased: what the parser looks up.
  static let byName: [String: KeyChord.Key] = {
    var names: [String: KeyChord.Key] = ["plus": .character("+")]
    for row in named {
      names[row.name] = row.key
      for alias in row.aliases { names[alias] = row.key }
    }
    return names
  }()

  /// The key's row in `named`; `nil` for a character or a function key.
  var namedIndex: Int? { Self.named.firstIndex { $0.key == self } }

  /// The key's canonical name.
  public var name: String {
    switch self {
    case .character("+"): "plus"
    case .character(let character): String(character)
    case .function(let number): "f\(number)"
    default: Self.named[namedIndex!].name
    }
  }
}

/// Why a key chord or sequence could not be parsed (see ``KeyChord/init(parsing:)``).
public enum InvalidKeyChord: ParseErrorReason {
  /// The text is empty.
  case empty
  /// A part between `+` signs is empty (`ctrl++s`, `ctrl+`).
  case emptyPart
  /// A part before the last is not a modifier.
  case unknownModifier(String)
  /// The same modifier appears twice.
  case duplicateModifier(String)
  /// The last part is not a key.
  case unknownKey(String)

  /// `key chord`.
  public static var subject: String { "key chord" }

  /// What went wrong, for messages.
  public var message: String {
    switch self {
    case .empty: "expected a key"
    case .emptyPart: "expected a modifier or key between '+' signs"
    case .unknownModifier(let part): "'\(quoted(part))' is not a modifier (ctrl, alt, shift, meta)"
    case .duplicateModifier(let part): "the modifier '\(quoted(part))' appears twice"
    case .unknownKey(let part): "'\(quoted(part))' is not a key"
    }
  }
}

enum KeyChordParser {
  static func parse(_ text: String) throws(ParseError<InvalidKeyChord>) -> KeyChord {
    if text.isEmpty { throw ParseError<InvalidKeyChord>(text: text, offset: 0, reason: .empty) }
    // Each part before a "+" is checked as a modifier as soon as it ends, so that malformed text
    // is rejected after reading up to its first mistake, with no list of parts.
    var modifiers: KeyModifiers = []
    var start = text.utf8.startIndex
    var offset = 0
    for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "+") {
      let part = Substring(text.utf8[start..<index])
      try addModifier(part, at: offset, in: text, to: &modifiers)
      start = text.utf8.index(after: index)
      offset = text.utf8.distance(from: text.utf8.startIndex, to: start)
    }
    let last = Substring(text.utf8[start...])
    if last.isEmpty { throw ParseError<InvalidKeyChord>(text: text, offset: offset, reason: .emptyPart) }
    guard let key = key(named: last) else {
      throw ParseError<InvalidKeyChord>(text: text, offset: offset, reason: .unknownKey(String(last)))
    }
    return KeyChord(key, modifiers: modifiers)
  }

  /// Adds the modifier `part` names to `modifiers`, or throws the error for it.
  private static func addModifier(
    _ part: Substring, at offset: Int, in text: String, to modifiers: inout KeyModifiers
  ) throws(ParseError<InvalidKeyChord>) {
    if part.isEmpty { throw ParseError<InvalidKeyChord>(text: text, offset: offset, reason: .emptyPart) }
    // No modifier name is longer than 7 bytes; a longer part is not lowercased to find that out.
    guard part.utf8.count <= 7, let modifier = modifier(named: part.lowercased()) else {
      throw ParseError<InvalidKeyChord>(text: text, offset: offset, reason: .unknownModifier(String(part)))
    }
    if modifiers.contains(modifier) {
      throw ParseError<InvalidKeyChord>(text: text, offset: offset, reason: .duplicateModifier(String(part)))
    }
    modifiers.insert(modifier)
  }

  static func modifier(named name: String) -> KeyModifiers? {
    switch name {
    case "ctrl", "control": .control
    case "alt", "option", "opt": .alt
    case "shift": .shift
    case "meta", "cmd", "command", "super", "win": .meta
    default: nil
    }
  }

  static func key(named name: Substring) -> KeyChord.Key? {
    // A single character, however many scalars make it, that is not whitespace or a control.
    if let character = name.first, name.index(after: name.startIndex) == name.endIndex,
      !character.unicodeScalars.contains(where: {
        $0.properties.isWhitespace || $0.properties.generalCategory == .control
      })
    {
      return .character(character)
    }
    // No key name is longer than 9 bytes ("backspace"); a longer name is not lowercased.
    guard name.utf8.count <= 9 else { return nil }
    let lowered = name.lowercased()
    if let key = KeyChord.Key.byName[lowered] { return key }
    guard lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...24).contains(number),
      !lowered.dropFirst().hasPrefix("0")
    else { return nil }
    return .function(number)
  }
}
