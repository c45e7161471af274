import PlaygroundKit
import TerminalKeys
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

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

    @Test func theEventSourceReadsKeysEscapeAndTheEndOfInput() throws {
      let pty = try PseudoTerminal()
      pty.resize(columns: 80, rows: 24)
      let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal)
      let events = TerminalEvents(terminal)
      // A key, a release (kitty), a lone Escape (a key once its wait passes), then the end.
      pty.type(Array("g".utf8) + Array("\u{1B}[103;1:3u".utf8) + [0x1B])
      var seen: [String] = []
      while let event = events.next() {
        seen.append(event.description)
        // Typed after the Escape was read on its own, so that it waited for its timeout.
        if seen.count == 3 { pty.type([0x13]) }
        if seen.count == 4 { pty.closeController() }
      }
      #expect(seen == ["g", "g (release)", "escape", "ctrl+s"])
      #expect(events.hasEnded)
      #expect(events.next() == nil)
    }

    @Test func theEventSourceReportsIdleAndResizesAndWaitsUntilADeadline() throws {
      let pty = try PseudoTerminal()
      pty.resize(columns: 80, rows: 24)
      let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal)
      let events = TerminalEvents(terminal, idle: .milliseconds(20))
      #expect(events.next()?.description == "idle")
      pty.resize(columns: 100, rows: 40)
      #expect(events.next()?.description == "resize 100x40")
      let quiet = TerminalEvents(terminal)
      let start = ContinuousClock.now
      #expect(quiet.next(until: start + .milliseconds(30)) == nil)
      #expect(ContinuousClock.now - start >= .milliseconds(30))
    }

    @Test func theEventSourceEndsATreesPendingKeysAtTheirDeadline() throws {
      let pty = try PseudoTerminal()
      let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal)
      var typed: [String] = []
      let tree = NodeTree("window") {
        Node("rename").focusable().takesText().bindKey("j k", to: "Leave")
          .handleAction(InsertText.self) { typed.append($0.text) }
      }
      tree.keySequenceTimeout = .milliseconds(40)
      try tree.focus(id: "rename")
      let events = TerminalEvents(terminal, tree: tree)
      pty.type(Array("j".utf8))
      guard case .input(.key(let key))? = events.next() else {
        Issue.record("no key")
        return
      }
      tree.firstResponder.handleKey(key)
      #expect(typed.isEmpty)
      let deadline = try #require(tree.pendingKeysDeadline)
      guard case .keysTimedOut(.cancelled(_, .timedOut, then: .replayed?))? = events.next() else {
        Issue.record("the pending j did not time out")
        return
      }
      #expect(ContinuousClock.now >= deadline)
      #expect(typed == ["j"])
    }

    @Test func theEventsAreAnAsyncSequenceThatEndsWithItsTask() async throws {
      let pty = try PseudoTerminal()
      let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal)
      pty.type(Array("ab".utf8))
      var seen: [String] = []
      for await event in TerminalEvents(terminal) {
        seen.append(event.description)
        if seen.count == 2 { break }
      }
      #expect(seen == ["a", "b"])
      // A cancelled task's sequence ends, with no input.
      let task = Task {
        var count = 0
        for await _ in TerminalEvents(terminal) { count += 1 }
        return count
      }
      task.cancel()
      #expect(await task.value == 0)
    }

    @Test func theArticlesLoopTypesKeysAndPastesIntoATextOwner() throws {
      // The TerminalKeys article shows the region (`DocsCompileTests` checks it).
      let pty = try PseudoTerminal()
      pty.resize(columns: 80, rows: 24)
      var typed: [String] = []
      var logged: [String] = []
      var frames: [String] = []
      let tree = NodeTree("window") {
        Node("name").focusable().takesText().handleAction(InsertText.self) { typed.append($0.text) }
      }
      try tree.focus(id: "name")
      tree.firstResponder.textCaret = NodeFrame(x: 3, y: 1, width: 1, height: 1)
      func layOut(columns: Int, rows: Int) { frames.append("\(columns)x\(rows)") }
      func log(_ result: KeyPressResult) { logged.append("\(result)") }
      let (input, output) = (pty.terminal, pty.terminal)
      // Two keys (kitty presses and a release), a paste, a resize; then the terminal hangs up.
      pty.type(Array("a\u{1B}[98u\u{1B}[98;1:3u\u{1B}[200~pasted\u{1B}[201~".utf8))
      var seen = 0
      func redraw() {
        seen += 1
        if seen == 4 { pty.resize(columns: 100, rows: 30) }
        if seen == 5 { pty.closeController() }
      }
      // terminal-events-loop:begin
      let terminal = try RawTerminal(input: input, output: output, keyboard: .standard, focusReporting: true)
      let events = TerminalEvents(terminal, tree: tree)
      while let event = events.next() {
        switch event {
        case .input(.key(let key)):
          tree.firstResponder.handleKey(key)
        case .input(.paste(let text)):
          tree.firstResponder.insertText(text, isPaste: true)
        case .input(.pointer(let pointer)):
          tree.handlePointer(pointer)
        case .input(.resize(let columns, let rows)):
          layOut(columns: columns, rows: rows)
        case .input(.focusOut):
          break  // keys held now may never report their release
        case .keysTimedOut(let result):
          log(result)  // a pending sequence ended: a text owner's prefix was typed
        case .input, .idle:
          break
        }
        redraw()
        terminal.placeCursor(at: tree.textCaret)  // where an input method opens its window
      }
      // terminal-events-loop:end
      #expect(typed == ["a", "b", "pasted"])
      #expect(frames == ["100x30"])
      #expect(logged.isEmpty)
    }

    @Test func keyboardEnhancementsAndFocusReportingArePushedAndUndone() throws {
      let pty = try PseudoTerminal()
      do {
        let terminal = try RawTerminal(
          input: pty.terminal, output: pty.terminal, keyboard: .standard, focusReporting: true)
        #expect(terminal.pushedKeyboardEnhancements == 1)
        terminal.pushKeyboardEnhancements(.reportAssociatedText)
        terminal.popKeyboardEnhancements()
        terminal.queryKeyboardEnhancements()
        terminal.placeCursor(at: NodeFrame(x: 4, y: 2, width: 1, height: 1))
        terminal.placeCursor(at: nil)
        _ = try pty.read(until: "\u{1B}[?25l")
        // Released: what was pushed is popped, focus reporting turned off.
      }
      let written = try pty.read(until: "\u{1B}[?1004l")
      #expect(written.contains("\u{1B}[<1u"))
    }

    @Test func bracketedPasteIsOnByDefaultAndTurnedOffOnRelease() throws {
      // Without mode 2004 a real terminal types a paste as keys: a pasted `dd` would run a `d`
      // binding twice.
      let pty = try PseudoTerminal()
      do {
        let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal)
        terminal.placeCursor(at: nil)
        let written = try pty.read(until: "\u{1B}[?25l")
        #expect(written.contains("\u{1B}[?2004h"))
      }
      _ = try pty.read(until: "\u{1B}[?2004l")
      do {
        let terminal = try RawTerminal(input: pty.terminal, output: pty.terminal, bracketedPaste: false)
        terminal.placeCursor(at: nil)
        let written = try pty.read(until: "\u{1B}[?25l")
        #expect(!written.contains("\u{1B}[?2004h"))
      }
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
