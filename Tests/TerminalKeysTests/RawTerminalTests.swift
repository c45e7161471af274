import PlaygroundKit
import TerminalKeys
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

// raw-terminal-loop:begin
/// What the read loop below hands its caller.
enum TerminalEvent: Equatable {
  /// A key press, a paste or, with mouse reporting on, a pointer event.
  case input(TerminalInput)
  /// No byte came for the loop's `idle` time: the caller's clock, to cancel a pending key
  /// sequence that waited long enough (`tree.cancelPendingKeys()`) or to redraw.
  case idle
  /// The window's size changed; redraw to fit.
  case resized(columns: Int, rows: Int)
}

/// Reads what the terminal sends, in raw mode, and passes each event to `handle` until `handle`
/// returns `false` or the input ends; `mouse` says which mouse events the terminal reports. The
/// terminal is restored however the loop ends, and also if the process is stopped by SIGINT,
/// SIGTERM or SIGHUP.
func runTerminal(
  input: Int32 = 0, output: Int32 = 1, idle: Duration = .milliseconds(50),
  mouse: RawTerminal.MouseReporting = .off, handle: (TerminalEvent) -> Bool
) throws {
  let terminal = try RawTerminal(input: input, output: output, mouse: mouse)
  defer { terminal.restore() }
  var decoder = TerminalKeyDecoder()
  var size = terminal.size
  while true {
    var events: [TerminalEvent]
    switch terminal.read(timeout: idle) {
    case .bytes(let bytes): events = decoder.feed(bytes).map { .input($0) }
    // Nothing more came: a lone ESC held this long was the Escape key; then the pause itself.
    case .timedOut: events = decoder.flush().map { .input($0) } + [.idle]
    // The terminal hung up or was closed (not a timeout: a raw read never returns 0 for that).
    case .endOfInput: return
    }
    // Asked after every read, so a resize shows within `idle` without a signal handler.
    if let now = terminal.size, now.columns != size?.columns || now.rows != size?.rows {
      size = now
      events.append(.resized(columns: now.columns, rows: now.rows))
    }
    for event in events where !handle(event) { return }
  }
}
// raw-terminal-loop:end

#if os(Linux)
  import Foundation
  import Glibc

  /// A pseudo-terminal: the side a program reads as its terminal, and the side a terminal emulator
  /// writes the user's keys to.
  final class PseudoTerminal {
    let controller: Int32
    let terminal: Int32

    init() throws {
      // NB: glibc's `posix_openpt`, `unlockpt` and `ptsname` are not visible to Swift, so the
      // multiplexer is opened and unlocked by hand, with Linux's ioctl numbers (TIOCSPTLCK,
      // TIOCGPTN), whose macros are not imported either.
      controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      try #require(controller >= 0)
      var unlock: Int32 = 0
      try #require(ioctl(controller, UInt(0x4004_5431), &unlock) == 0)
      var number: UInt32 = 0
      try #require(ioctl(controller, UInt(0x8004_5430), &number) == 0)
      terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
      try #require(terminal >= 0)
    }

    /// Types `bytes` as the user would.
    func type(_ bytes: [UInt8]) { _ = write(controller, bytes, bytes.count) }

    func closeController() { close(controller) }

    /// Reads what the program wrote until `text` appears, for at most five seconds; returns all
    /// it read.
    func read(until text: String) throws -> String {
      var output: [UInt8] = []
      for _ in 0..<500 {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var descriptor = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 10) > 0 {
          let count = Glibc.read(controller, &buffer, buffer.count)
          if count > 0 { output += buffer[0..<count] }
        }
        let decoded = String(decoding: output, as: UTF8.self)
        if decoded.contains(text) { return decoded }
      }
      Issue.record("the program did not write \(text.debugDescription)")
      return String(decoding: output, as: UTF8.self)
    }

    /// Sets the window size, as a terminal emulator does when its window is resized.
    func resize(columns: UInt16, rows: UInt16) {
      var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
      _ = ioctl(controller, UInt(TIOCSWINSZ), &size)
    }

    /// The terminal's local flags.
    var localFlags: tcflag_t {
      var attributes = termios()
      _ = tcgetattr(terminal, &attributes)
      return attributes.c_lflag
    }

    var isCanonicalWithEcho: Bool {
      localFlags & tcflag_t(ICANON) != 0 && localFlags & tcflag_t(ECHO) != 0
    }

    deinit {
      close(terminal)
      close(controller)
    }
  }

  /// Starts the Playground, the test bundle's neighbour, on `pty`'s terminal as its standard input
  /// and output; returns its process id.
  func spawnPlayground(on pty: PseudoTerminal) throws -> pid_t {
    let playground = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("Playground").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pty.terminal, 0)
    posix_spawn_file_actions_adddup2(&actions, pty.terminal, 1)
    // The child starts with no signal blocked: the test's thread may block SIGTERM, as thread
    // pools do, and a child inherits the mask.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var child: pid_t = 0
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(playground), nil]
    defer { for argument in arguments { free(argument) } }
    try #require(posix_spawn(&child, playground, &actions, &attributes, arguments, environ) == 0)
    return child
  }

  // One suite, run serially: one terminal at a time can be raw in a process.
  @Suite(.serialized) struct RawTerminalTests {
    @Test func rawModeIsEnteredAndRestoredOnce() throws {
      let pty = try PseudoTerminal()
      #expect(pty.isCanonicalWithEcho)
      do {
        let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal)
        #expect(pty.localFlags & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(throws: TerminalError.alreadyRaw) { try RawTerminal(input: pty.terminal) }
        terminal.restore()
        #expect(pty.isCanonicalWithEcho)
        // Restored: another may be raw now.
        let second = try RawTerminal(input: pty.terminal)
        #expect(!pty.isCanonicalWithEcho)
        _ = second
      }
      // Released without `restore()`: restored all the same.
      #expect(pty.isCanonicalWithEcho)
    }

    @Test func aReadTellsBytesATimeoutAndTheEndOfInputApart() throws {
      let pty = try PseudoTerminal()
      let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal)
      #expect(terminal.read(timeout: .milliseconds(20)) == .timedOut)
      pty.type([0x61, 0x1B])
      #expect(terminal.read(timeout: .seconds(5)) == .bytes([0x61, 0x1B]))
      #expect(terminal.read(timeout: .milliseconds(20)) == .timedOut)
      pty.closeController()
      #expect(terminal.read(timeout: .seconds(5)) == .endOfInput)
    }

    @Test func aPipeIsNotATerminal() throws {
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      defer { for end in ends { close(end) } }
      #expect(throws: TerminalError.notATerminal(fileDescriptor: ends[0])) { try RawTerminal(input: ends[0]) }
      #expect(TerminalError.notATerminal(fileDescriptor: 7).description.contains("not a terminal"))
    }

    @Test func theArticlesLoopReadsKeysUntilTheInputEnds() throws {
      try expectReadmeShows(
        marker: "raw-terminal-loop", imports: ["import TerminalKeys"],
        document: "Sources/TerminalKeys/TerminalKeys.docc/TerminalKeys.md")
      let pty = try PseudoTerminal()
      pty.resize(columns: 80, rows: 24)
      // Keys, a lone Escape (a key once the timeout passes), ctrl+s, then the input ends.
      pty.type(Array("g".utf8) + [0x1B])
      var seen: [String] = []
      try runTerminal(input: pty.terminal, output: pty.terminal) { event in
        guard case .input(let input) = event else { return true }
        seen.append(input.description)
        // Typed after the Escape was read on its own, so that it waited for its timeout.
        if input == .key(KeyEvent(KeyChord(.escape))) { pty.type([0x13]) }
        if input == .key(KeyEvent(KeyChord(.character("s"), modifiers: .control))) { pty.closeController() }
        return true
      }
      #expect(seen == ["g", "escape", "ctrl+s"])

      // Returning false ends the loop too.
      let second = try PseudoTerminal()
      second.type(Array("xyz".utf8))
      var count = 0
      try runTerminal(input: second.terminal, output: second.terminal) { _ in
        count += 1
        return count < 2
      }
      #expect(count == 2)
      #expect(second.isCanonicalWithEcho)
    }

    @Test func theArticlesLoopHandsPausesAndResizesToItsCaller() throws {
      let pty = try PseudoTerminal()
      pty.resize(columns: 80, rows: 24)
      var events: [TerminalEvent] = []
      try runTerminal(input: pty.terminal, output: pty.terminal, idle: .milliseconds(20)) { event in
        events.append(event)
        switch event {
        // The first pause: the window grows; the loop says so, then a key ends it.
        case .idle where events.count == 1: pty.resize(columns: 100, rows: 40)
        case .resized: pty.type(Array("q".utf8))
        case .input: return false
        case .idle: break
        }
        return true
      }
      #expect(events.first == .idle)
      #expect(events.contains(.resized(columns: 100, rows: 40)))
      #expect(events.last == .input(.key(KeyEvent(KeyChord(.character("q"))))))
      #expect(events.filter { if case .resized = $0 { true } else { false } }.count == 1)
    }

    @Test func thePlaygroundTakesRealMouseReports() throws {
      // The Playground on a pseudo-terminal of 80 by 24, as a user's terminal runs it: it turns
      // mouse reporting on; a click on the editor's line (SGR reports, 1-based cells) focuses the
      // editor; it turns reporting off when it quits.
      let pty = try PseudoTerminal()
      pty.resize(columns: 80, rows: 24)
      let demo = EditorDemo()
      Screen(width: 80, height: 24).layOut(demo)
      let editor = try #require(demo.tree.node(id: "editor").flatMap { demo.location(of: $0) })
      let cell = "\(Int(editor.x) + 1);\(Int(editor.y) + 1)"
      let child = try spawnPlayground(on: pty)
      var screen = try pty.read(until: "focus: list")
      #expect(screen.contains("\u{1B}[?1003h"), "mouse reporting (all motion) turned on")
      #expect(screen.contains("\u{1B}[?1006h"), "in the SGR form")
      pty.type(Array("\u{1B}[<0;\(cell)M\u{1B}[<0;\(cell)m".utf8))
      screen = try pty.read(until: "focus: editor")
      #expect(screen.contains("focus -> editor (pointer)"))
      pty.type(Array("q".utf8))
      screen = try pty.read(until: "\u{1B}[?1000l")
      var status: Int32 = 0
      _ = waitpid(child, &status, 0)
      #expect(status == 0)
      #expect(screen.contains("\u{1B}[?1006l"))
    }

    @Test func aSignalThatEndsTheProcessRestoresTheTerminalFirst() throws {
      // The Playground, in a process of its own on the pseudo-terminal, puts it in raw mode with
      // `RawTerminal`; SIGTERM must end it by the signal, after restoring the terminal. (A
      // separate process rather than a fork of this one: a forked child of a threaded test process
      // does not get its signals under ThreadSanitizer.)
      let pty = try PseudoTerminal()
      let child = try spawnPlayground(on: pty)
      // Its output is read, so that it never blocks writing; raw mode shows in the settings.
      var isRaw = false
      for _ in 0..<500 where !isRaw {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var descriptor = pollfd(fd: pty.controller, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 10) > 0 { _ = read(pty.controller, &buffer, buffer.count) }
        isRaw = !pty.isCanonicalWithEcho
      }
      kill(child, SIGTERM)
      var status: Int32 = 0
      _ = waitpid(child, &status, 0)
      #expect(isRaw, "the Playground entered raw mode")
      #expect(status & 0x7F == SIGTERM, "the Playground ended by the signal")
      #expect(pty.isCanonicalWithEcho)
      // The handler also turned mouse reporting off before the signal ended the process.
      _ = try pty.read(until: "\u{1B}[?1000l")
    }
  }
#endif
