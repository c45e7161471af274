import Synchronization
import TerminalKeys
import ViewTreeActions

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// NB: the terminal state the signal handlers restore lives in globals, because a C signal handler
// cannot capture anything. `savedAttributes` is written once, before any handler is installed, and
// only read afterwards; `resized` is an atomic that the SIGWINCH handler sets and the loop clears.
nonisolated(unsafe) private var savedAttributes = termios()
private let resized = Atomic<Bool>(false)
private let leaveScreen: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Restores the terminal from a signal handler, with async-signal-safe calls only.
private func restoreFromSignal() {
  _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedAttributes)
  leaveScreen.withUnsafeBufferPointer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// Runs the demo interactively in a terminal: raw mode, the alternate screen, a redraw on every
/// key press and on resize. The terminal is restored on `q`, on Ctrl-C, on SIGINT, SIGTERM and
/// SIGHUP, and when the loop ends with an error.
public final class InteractiveSession {
  /// Whether standard input and output are both terminals.
  public static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  private let demo = EditorDemo()
  private var decoder = TerminalKeyDecoder()
  private var isRaw = false

  /// Creates a session.
  public init() {}

  /// Runs until the user quits.
  public func run() {
    enterRawMode()
    defer { restore() }
    var needsDraw = true
    var buffer = [UInt8](repeating: 0, count: 64)
    while !demo.wantsToQuit {
      if resized.exchange(false, ordering: .relaxed) { needsDraw = true }
      if needsDraw {
        draw()
        needsDraw = false
      }
      let count = read(STDIN_FILENO, &buffer, buffer.count)
      if count < 0 {
        if errno == EINTR { continue }
        break
      }
      // A read that timed out (0.1 s) with bytes held: a lone Escape was the Escape key.
      let inputs = count == 0 ? (decoder.isWaiting ? decoder.flush() : []) : decoder.feed(buffer[0..<count])
      for input in inputs {
        switch input {
        case .key(let chord): demo.press(chord)
        case .paste(let text): demo.paste(text)
        }
        needsDraw = true
      }
    }
  }

  private func enterRawMode() {
    _ = tcgetattr(STDIN_FILENO, &savedAttributes)
    var raw = savedAttributes
    cfmakeraw(&raw)
    // Reads return after 0.1 s without input, so the loop notices a resize.
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 1
    }
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    isRaw = true
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber) { number in
        restoreFromSignal()
        _exit(128 + number)
      }
    }
    signal(SIGWINCH) { _ in resized.store(true, ordering: .relaxed) }
    emit("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
  }

  private func restore() {
    guard isRaw else { return }
    isRaw = false
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedAttributes)
    emit("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { signal(signalNumber, SIG_DFL) }
  }

  private func draw() {
    let (columns, rows) = Self.size()
    let lines = Screen(width: columns, height: rows).render(demo, styled: true)
    emit("\u{1B}[H" + lines.joined(separator: "\r\n") + "\u{1B}[J")
  }

  /// The terminal's size, or 80 by 24 when it cannot be read.
  static func size() -> (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return (80, 24)
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  private func emit(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBufferPointer { buffer in
        write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written <= 0 { return }
      offset += written
    }
  }
}
