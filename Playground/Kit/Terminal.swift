import TerminalKeys
import ViewTreeActions

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a keymap file (see `Keymap(parsing:source:)`), keeping the lines that read well.
///
/// - Parameter path: The file's path.
/// - Returns: The keymap, with the issues of the lines it could not read.
/// - Throws: ``KeymapFileError`` when the file cannot be read.
public func readKeymap(at path: String) throws(KeymapFileError) -> Keymap {
  guard let file = fopen(path, "r") else {
    throw KeymapFileError(path: path, reason: String(cString: strerror(errno)))
  }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    bytes.append(contentsOf: buffer[0..<count])
    if count < buffer.count { break }
  }
  if ferror(file) != 0 { throw KeymapFileError(path: path, reason: "read error") }
  return Keymap(parsing: String(decoding: bytes, as: UTF8.self), source: path)
}

/// A keymap file that could not be read.
public struct KeymapFileError: Error, CustomStringConvertible {
  /// The file's path.
  public let path: String
  /// Why it could not be read.
  public let reason: String

  /// `cannot read PATH: REASON`.
  public var description: String { "cannot read \(path): \(reason)" }
}

/// Runs the demo interactively in a terminal: raw mode, the alternate screen, a redraw on every
/// key press and on resize. ``RawTerminal`` restores the terminal on `q`, on Ctrl-C (a key press in
/// raw mode), on SIGINT, SIGTERM and SIGHUP, and when the input ends.
public final class InteractiveSession {
  /// Whether standard input and output are both terminals.
  public static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  private let demo: EditorDemo

  /// Creates a session.
  /// A session with `keymap` as the user keymap, if any.
  public init(keymap: Keymap? = nil) { demo = EditorDemo(keymap: keymap) }

  /// Runs until the user quits or the input ends.
  ///
  /// - Throws: ``TerminalError`` when standard input cannot be put in raw mode.
  public func run() throws(TerminalError) {
    let terminal = try RawTerminal(
      alternateScreen: true, mouse: .motion, keyboard: .standard, focusReporting: true)
    defer { terminal.restore() }
    // The source times out the tree's pending keys (a second, as vim waits) and says so.
    let events = TerminalEvents(terminal, tree: demo.tree)
    draw(on: terminal)
    while !demo.wantsToQuit, let event = events.next() {
      switch event {
      case .input(.key(let key)): demo.press(key)
      case .input(.paste(let text)): demo.paste(text)
      case .input(.pointer(let pointer)): demo.pointer(pointer)
      case .keysTimedOut(let result): demo.keysTimedOut(result)
      case .input(.focusIn), .input(.focusOut), .input(.keyboardEnhancements), .input(.resize), .idle: break
      }
      draw(on: terminal)
    }
  }

  private func draw(on terminal: RawTerminal) {
    let (columns, rows) = terminal.size ?? (80, 24)
    let lines = Screen(width: columns, height: rows).render(demo, styled: true)
    terminal.write("\u{1B}[H" + lines.joined(separator: "\r\n") + "\u{1B}[J")
    // The terminal's cursor on the rename box's caret, where an input method opens its window.
    terminal.placeCursor(at: demo.tree.textCaret)
  }
}
