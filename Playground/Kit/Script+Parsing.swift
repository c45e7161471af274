import Actions
import ViewTree
import ViewTreeActions

/// One step of a script: a key, or a mouse action on the screen the tour lays out (80 by 24).
public enum ScriptStep: Hashable, Sendable, CustomStringConvertible {
  /// A key press.
  case key(KeyChord)
  /// A click (press and release of the primary button) on the node with this id, where the screen
  /// draws it.
  case click(String)
  /// The wheel turned this many lines over the tree (down is positive).
  case wheel(Int)
  /// Text pasted (bracketed paste): `paste:TEXT`.
  case paste(String)
  /// An input method composing, then committing, text at the focus: `compose:TEXT`.
  case compose(String)
  /// The pending key sequence's timer running out: `wait`.
  case wait

  /// `tab`, `click:green`, `wheel:1`.
  public var description: String {
    switch self {
    case .key(let chord): "\(chord)"
    case .click(let id): "click:\(id)"
    case .wheel(let lines): "wheel:\(lines)"
    case .paste(let text): "paste:\(text)"
    case .compose(let text): "compose:\(text)"
    case .wait: "wait"
    }
  }
}

/// Why a script could not be read, and where.
public enum ScriptError: Error, CustomStringConvertible {
  /// A key that does not parse.
  case key(ParseError<InvalidKeyChord>)
  /// A step that is neither a key, `click:ID` nor `wheel:N`.
  case step(String)

  /// What went wrong.
  public var description: String {
    switch self {
    case .key(let error): "\(error)"
    case .step(let text):
      "'\(text)' is not a step: write a key, click:ID, wheel:N, paste:TEXT, compose:TEXT or wait"
    }
  }
}

/// Parses a script of steps separated by commas or spaces, such as `"tab, del, click:green,
/// wheel:1"`: key chords, clicks on a node by its id, turns of the wheel, pasted text
/// (`paste:TEXT`), an input method's composition (`compose:TEXT`), and the key sequence timer
/// running out (`wait`).
///
/// - Parameter script: The steps.
/// - Returns: The steps.
/// - Throws: ``ScriptError`` for a malformed step.
public func parseScript(_ script: String) throws(ScriptError) -> [ScriptStep] {
  var steps: [ScriptStep] = []
  for part in script.split(whereSeparator: { $0 == "," || $0 == " " }) {
    if part.hasPrefix("click:") {
      let id = part.dropFirst("click:".count)
      guard !id.isEmpty else { throw .step(String(part)) }
      steps.append(.click(String(id)))
    } else if part.hasPrefix("paste:") || part.hasPrefix("compose:") {
      let isPaste = part.hasPrefix("paste:")
      let text = String(part.drop { $0 != ":" }.dropFirst())
      guard !text.isEmpty else { throw .step(String(part)) }
      steps.append(isPaste ? .paste(text) : .compose(text))
    } else if part == "wait" {
      steps.append(.wait)
    } else if part.hasPrefix("wheel:") {
      guard let lines = Int(part.dropFirst("wheel:".count)) else { throw .step(String(part)) }
      steps.append(.wheel(lines))
    } else {
      do throws(ParseError<InvalidKeyChord>) {
        steps.append(.key(try KeyChord(parsing: String(part))))
      } catch {
        throw .key(error)
      }
    }
  }
  return steps
}
