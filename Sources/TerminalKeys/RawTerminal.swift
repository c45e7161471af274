import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A terminal in raw mode, for a key-reading loop: bytes arrive as typed, unechoed and unbuffered;
/// each read waits at most a timeout, so that a lone Escape can be told from the start of a
/// sequence; end of input is told apart from a timeout; and the terminal's settings come back
/// when the loop is done.
///
/// Creating one saves the input terminal's settings and switches it to raw mode. They are restored
/// by ``restore()``, when the value is released, when the process exits, and when it is ended by
/// SIGINT, SIGTERM or SIGHUP (the handler restores the terminal, then lets the signal end the
/// process as it would have). In raw mode Ctrl-C is a key press (`ctrl+c`), not a signal.
///
/// ```swift
/// let terminal = try RawTerminal()
/// var decoder = TerminalKeyDecoder()
/// while true {
///   switch terminal.read(timeout: .milliseconds(50)) {
///   case .bytes(let bytes): handle(decoder.feed(bytes))
///   case .timedOut: handle(decoder.flush())  // a lone ESC was the Escape key
///   case .endOfInput: return
///   }
/// }
/// ```
///
/// One terminal at a time is raw: the signal handlers restore it from process-wide state.
public final class RawTerminal {
  /// Which mouse events the terminal reports (xterm's modes), always in the SGR form (mode 1006),
  /// which ``TerminalKeyDecoder`` reads as `TerminalInput.pointer`.
  public enum MouseReporting: Hashable, Sendable {
    /// None: the terminal keeps the mouse for selecting text.
    case off
    /// Presses, releases and the wheel (mode 1000).
    case buttons
    /// Those, and motion while a button is down: drags (mode 1002).
    case drags
    /// Those, and every motion: hover (mode 1003).
    case motion

    /// The sequence that turns this reporting on.
    var enable: String {
      switch self {
      case .off: ""
      case .buttons: "\u{1B}[?1000h\u{1B}[?1006h"
      case .drags: "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"
      case .motion: "\u{1B}[?1000h\u{1B}[?1003h\u{1B}[?1006h"
      }
    }

    /// The sequence that turns every mode off, whichever was on.
    static let disable = Array("\u{1B}[?1006l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1000l".utf8)
  }

  /// What a read gave.
  public enum ReadResult: Hashable, Sendable {
    /// Bytes the terminal sent (at least one).
    case bytes([UInt8])
    /// Nothing arrived within the timeout, or a signal (such as SIGWINCH on a resize) cut the wait
    /// short: the loop may flush a held Escape, redraw, and read again.
    case timedOut
    /// The input ended: the terminal hung up or was closed. Nothing more will come.
    case endOfInput
  }

  /// The file descriptor read from.
  public let input: Int32
  /// The file descriptor written to.
  public let output: Int32
  private var isRaw = true
  private var buffer = [UInt8](repeating: 0, count: 256)
  /// What restoring writes but for popping the keyboard enhancements pushed.
  private var leaveModes: [UInt8] = []
  /// How many sets of keyboard enhancements this terminal pushed and has not popped.
  public private(set) var pushedKeyboardEnhancements = 0

  /// Switches the terminal on `input` to raw mode.
  ///
  /// - Parameters:
  ///   - input: The terminal read from: standard input by default.
  ///   - output: The terminal written to: standard output by default.
  ///   - alternateScreen: Whether to switch `output` to the alternate screen with the cursor
  ///     hidden, as full-screen programs do; restoring switches back.
  ///   - mouse: Which mouse events the terminal reports (none by default); restoring turns the
  ///     reporting off, also when a signal ends the process.
  ///   - keyboard: The kitty keyboard protocol's enhancements to push (none by default; see
  ///     ``pushKeyboardEnhancements(_:)``); restoring pops them, also when a signal ends the
  ///     process. A terminal that does not speak the protocol ignores them.
  ///   - focusReporting: Whether the terminal reports gaining and losing the focus
  ///     (`TerminalInput.focusIn`, `.focusOut`; mode 1004); restoring turns it off.
  ///   - bracketedPaste: Whether the terminal marks pasted text (mode 2004, on by default), so
  ///     that it arrives as one `TerminalInput.paste` rather than as typed keys: without it a
  ///     pasted `dd` is two presses of `d`, which run whatever `d` is bound to. Restoring turns
  ///     it off, also when a signal ends the process.
  /// - Throws: ``TerminalError/notATerminal(fileDescriptor:)`` when `input` is not a terminal (a
  ///   pipe or a file: read it as bytes instead), ``TerminalError/alreadyRaw`` when another
  ///   `RawTerminal` is raw, ``TerminalError/systemCall(_:errno:)`` when the terminal refuses.
  public init(
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, alternateScreen: Bool = false,
    mouse: MouseReporting = .off, keyboard: KeyboardEnhancements = [], focusReporting: Bool = false,
    bracketedPaste: Bool = true
  ) throws(TerminalError) {
    guard isatty(input) == 1 else { throw .notATerminal(fileDescriptor: input) }
    var attributes = termios()
    guard tcgetattr(input, &attributes) == 0 else { throw .systemCall("tcgetattr", errno: errno) }
    guard !rawIsActive.exchange(true, ordering: .acquiringAndReleasing) else { throw .alreadyRaw }
    // Written before any handler that reads them is installed.
    saved.attributes = attributes
    saved.input = input
    saved.output = output
    // What restoring writes, from a signal handler too: bracketed paste and mouse reporting off,
    // then the screen.
    saved.leaveSequence =
      (bracketedPaste ? Array("\u{1B}[?2004l".utf8) : [])
      + (mouse == .off ? [] : MouseReporting.disable) + (alternateScreen ? leaveAlternateScreen : [])
    leaveModes = saved.leaveSequence
    if focusReporting { leaveModes = Array("\u{1B}[?1004l".utf8) + leaveModes }
    // The handlers come first: a signal between raw mode and its handler would end the process
    // with the terminal left raw.
    let replacedHandlers = restoredSignals.map { signal($0, restoringHandler) }
    var raw = attributes
    // Raw input: no echo, no line buffering, no signals from keys, no translation; reads return
    // as soon as one byte is there (the timeout comes from `poll`, so it works on any descriptor).
    cfmakeraw(&raw)
    guard tcsetattr(input, TCSANOW, &raw) == 0 else {
      let code = errno
      for (signalNumber, handler) in zip(restoredSignals, replacedHandlers) { signal(signalNumber, handler) }
      rawIsActive.store(false, ordering: .releasing)
      throw .systemCall("tcsetattr", errno: code)
    }
    self.input = input
    self.output = output
    installExitHandler()
    if alternateScreen { write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J") }
    if mouse != .off { write(mouse.enable) }
    if bracketedPaste { write("\u{1B}[?2004h") }
    if focusReporting {
      updateLeaveSequence()
      write("\u{1B}[?1004h")
    }
    if !keyboard.isEmpty { pushKeyboardEnhancements(keyboard) }
  }

  deinit { restore() }

  /// Waits up to `timeout` for input and reads what is there.
  ///
  /// - Parameter timeout: How long to wait; 50 to 100 ms tells a lone Escape from a sequence on
  ///   local and remote terminals alike.
  /// - Returns: The bytes read, ``ReadResult/timedOut``, or ``ReadResult/endOfInput``.
  public func read(timeout: Duration) -> ReadResult {
    var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
    let (seconds, attoseconds) = timeout.components
    // `poll` takes milliseconds in an Int32, where a negative number waits forever.
    let milliseconds: Int32 =
      seconds < 0
      ? 0 : seconds >= 2_000_000 ? .max : Int32(seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
    let ready = poll(&descriptor, 1, max(0, milliseconds))
    if ready == 0 || (ready < 0 && errno == EINTR) { return .timedOut }
    if ready < 0 { return .endOfInput }
    while true {
      let count = systemRead(input, into: &buffer)
      if count > 0 { return .bytes(Array(buffer[0..<count])) }
      if count < 0, errno == EINTR { continue }
      if count < 0, errno == EAGAIN { return .timedOut }
      // 0 is the end of the input; an error (EIO once the terminal hung up) ends it too.
      return .endOfInput
    }
  }

  /// Writes `text` to the output, all of it unless the output fails.
  ///
  /// - Parameter text: What to write, escape sequences included.
  public func write(_ text: String) {
    writeAll(Array(text.utf8), to: output)
  }

  /// Pushes a set of the kitty keyboard protocol's enhancements onto the terminal's stack
  /// (`ESC [ > flags u`): a terminal that speaks the protocol reports keys as they ask from now
  /// on (see ``KeyboardEnhancements``), one that does not ignores it. Restoring pops every set
  /// pushed, also when a signal ends the process.
  ///
  /// - Parameter enhancements: The enhancements.
  public func pushKeyboardEnhancements(_ enhancements: KeyboardEnhancements) {
    write("\u{1B}[>\(enhancements.rawValue)u")
    pushedKeyboardEnhancements += 1
    updateLeaveSequence()
  }

  /// Pops the set of keyboard enhancements pushed last (`ESC [ < u`); nothing when none is.
  public func popKeyboardEnhancements() {
    guard pushedKeyboardEnhancements > 0 else { return }
    write("\u{1B}[<u")
    pushedKeyboardEnhancements -= 1
    updateLeaveSequence()
  }

  /// Asks the terminal which keyboard enhancements are on (`ESC [ ? u`): a terminal that speaks
  /// the kitty protocol replies, and the reply comes as
  /// `TerminalInput.keyboardEnhancements` among the input; one that does not, does not reply.
  public func queryKeyboardEnhancements() { write("\u{1B}[?u") }

  /// Shows the terminal's cursor at `caret`'s top-left cell (columns and rows from 0, as frames
  /// in cells are), where an input method opens its window; hides it for `nil`. What a terminal
  /// app calls after drawing, with `NodeTree.textCaret`.
  ///
  /// - Parameter caret: The caret, in cells, or `nil`.
  public func placeCursor(at caret: NodeFrame?) {
    guard let caret, caret.isFinite, caret.x >= 0, caret.y >= 0, caret.x < 1e6, caret.y < 1e6 else {
      write("\u{1B}[?25l")
      return
    }
    write("\u{1B}[\(Int(caret.y) + 1);\(Int(caret.x) + 1)H\u{1B}[?25h")
  }

  /// What restoring writes: the pushed enhancements popped, then the modes turned off.
  private func updateLeaveSequence() {
    let pop = pushedKeyboardEnhancements > 0 ? Array("\u{1B}[<\(pushedKeyboardEnhancements)u".utf8) : []
    // The handlers read it: the signals they handle wait while it changes.
    var blocked = sigset_t()
    var previous = sigset_t()
    sigemptyset(&blocked)
    for signalNumber in restoredSignals { sigaddset(&blocked, signalNumber) }
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    saved.leaveSequence = pop + leaveModes
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }

  /// The output terminal's size in columns and rows, or `nil` when it cannot be read.
  public var size: (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Restores the terminal's settings (and leaves the alternate screen) now, and sets SIGINT,
  /// SIGTERM and SIGHUP back to their default actions (not to handlers the program had installed
  /// before: install those again after restoring); later calls, and the release of the value, do
  /// nothing more.
  public func restore() {
    guard isRaw else { return }
    isRaw = false
    for signalNumber in restoredSignals { signal(signalNumber, SIG_DFL) }
    var attributes = saved.attributes
    _ = tcsetattr(input, TCSANOW, &attributes)
    if !saved.leaveSequence.isEmpty { writeAll(saved.leaveSequence, to: output) }
    pushedKeyboardEnhancements = 0
    rawIsActive.store(false, ordering: .releasing)
  }

  private func installExitHandler() {
    if !saved.exitHandlerInstalled {
      saved.exitHandlerInstalled = true
      atexit {
        if rawIsActive.load(ordering: .acquiring) { restoreFromSignal() }
      }
    }
  }
}

/// Why a ``RawTerminal`` could not be set up.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file descriptor is not a terminal (a pipe or a file); read it as plain bytes.
  case notATerminal(fileDescriptor: Int32)
  /// Another ``RawTerminal`` is raw; restore it first.
  case alreadyRaw
  /// A system call failed, with its `errno`.
  case systemCall(String, errno: Int32)

  /// What went wrong, in words.
  public var description: String {
    switch self {
    case .notATerminal(let descriptor):
      "file descriptor \(descriptor) is not a terminal; read it as bytes, without raw mode"
    case .alreadyRaw: "another RawTerminal is in raw mode; restore it first"
    case .systemCall(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
    }
  }
}

// MARK: - Process-wide state for the signal handlers

// NB: a C signal handler captures nothing, so what it restores lives in process-wide state:
// written by `RawTerminal.init` before the handlers are installed, and only read while they are.
// `rawIsActive` lets one terminal at a time be raw, so that no two write it. The values live in a
// class instance rather than in global variables of C struct type, which AddressSanitizer's
// instrumentation of Swift globals reported as overflowing when assigned.
private let rawIsActive = Atomic<Bool>(false)

private final class SavedTerminal: @unchecked Sendable {
  var attributes = termios()
  var input: Int32 = -1
  var output: Int32 = -1
  var leaveSequence: [UInt8] = []
  var exitHandlerInstalled = false
}

private let saved = SavedTerminal()

private let restoredSignals = [SIGINT, SIGTERM, SIGHUP]
private let leaveAlternateScreen = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// The handler of SIGINT, SIGTERM and SIGHUP while a terminal is raw: restores the terminal, then
/// ends the process with the signal, as if it had not been caught.
private let restoringHandler: @convention(c) (Int32) -> Void = { number in
  restoreFromSignal()
  signal(number, SIG_DFL)
  raise(number)
}

/// Restores the terminal from a signal handler or at exit, with async-signal-safe calls only.
private func restoreFromSignal() {
  var attributes = saved.attributes
  _ = tcsetattr(saved.input, TCSANOW, &attributes)
  let leave = saved.leaveSequence
  if !leave.isEmpty { _ = systemWrite(saved.output, leave) }
}

/// Writes every byte of `bytes` to `descriptor`, unless it fails.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
  var remaining = bytes
  while !remaining.isEmpty {
    let written = systemWrite(descriptor, remaining)
    if written < 0, errno == EINTR { continue }
    if written <= 0 { return }
    remaining.removeFirst(written)
  }
}

// The C library's read and write, named apart from `RawTerminal`'s own methods.
private func systemRead(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
  #if canImport(Glibc)
    Glibc.read(descriptor, &buffer, buffer.count)
  #else
    Darwin.read(descriptor, &buffer, buffer.count)
  #endif
}

private func systemWrite(_ descriptor: Int32, _ bytes: [UInt8]) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, bytes, bytes.count)
  #else
    Darwin.write(descriptor, bytes, bytes.count)
  #endif
}
