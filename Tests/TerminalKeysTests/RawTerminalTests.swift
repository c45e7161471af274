import TerminalKeys
import TestSupport
import Testing
import ViewTreeActions

// raw-terminal-loop:begin
/// Reads what the terminal on `input` sends, in raw mode, and passes each key press or paste to
/// `handle` until `handle` returns `false` or the input ends. The terminal is restored however
/// the loop ends, and also if the process is stopped by SIGINT, SIGTERM or SIGHUP.
func readKeys(from input: Int32, handle: (TerminalInput) -> Bool) throws {
  let terminal = try RawTerminal(input: input)
  defer { terminal.restore() }
  var decoder = TerminalKeyDecoder()
  while true {
    let inputs: [TerminalInput]
    switch terminal.read(timeout: .milliseconds(50)) {
    case .bytes(let bytes): inputs = decoder.feed(bytes)
    // Nothing more came: a lone ESC held this long was the Escape key.
    case .timedOut: inputs = decoder.flush()
    // The terminal hung up or was closed (not a timeout: a raw read never returns 0 for that).
    case .endOfInput: return
    }
    for input in inputs where !handle(input) { return }
  }
}
// raw-terminal-loop:end

#if os(Linux)
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
      // Keys, a lone Escape (a key once the timeout passes), ctrl+s, then the input ends.
      pty.type(Array("g".utf8) + [0x1B])
      var seen: [String] = []
      try readKeys(from: pty.terminal) { input in
        seen.append(input.description)
        // Typed after the Escape was read on its own, so that it waited for its timeout.
        if input == .key(KeyChord(.escape)) { pty.type([0x13]) }
        if input == .key(KeyChord(.character("s"), modifiers: .control)) { pty.closeController() }
        return true
      }
      #expect(seen == ["g", "escape", "ctrl+s"])

      // Returning false ends the loop too.
      let second = try PseudoTerminal()
      second.type(Array("xyz".utf8))
      var count = 0
      try readKeys(from: second.terminal) { _ in
        count += 1
        return count < 2
      }
      #expect(count == 2)
      #expect(second.isCanonicalWithEcho)
    }

    @Test func aSignalThatEndsTheProcessRestoresTheTerminalFirst() throws {
      let pty = try PseudoTerminal()
      let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal)
      #expect(!pty.isCanonicalWithEcho)
      // A child process inherits the handler and the terminal; the signal ends it after the
      // handler restored the terminal (only async-signal-safe calls happen in the child).
      let child = fork()
      if child == 0 {
        // The test's thread may block the signal, as thread pools do; the child unblocks it.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        raise(SIGTERM)
        _exit(0)
      }
      try #require(child > 0)
      var status: Int32 = 0
      _ = waitpid(child, &status, 0)
      #expect(status & 0x7F == SIGTERM, "the child ended by the signal, not by exiting")
      #expect(pty.isCanonicalWithEcho)
      terminal.restore()
    }
  }
#endif
