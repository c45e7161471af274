import ViewTree
import ViewTreeActions

/// What ``TerminalEvents`` hands its reader.
public enum TerminalEvent: CustomStringConvertible {
  /// What the terminal sent: a key event, a paste, a pointer event, the focus coming or going, a
  /// reply, or a new size (`TerminalInput.resize`, which the source finds itself).
  case input(TerminalInput)
  /// The tree's pending key sequence waited past its deadline (see
  /// `NodeTree.pendingKeysDeadline`): the source ended it with `NodeTree.pendingKeysTimedOut()`,
  /// which replayed a text owner's prefix, and this is what that did.
  case keysTimedOut(KeyPressResult)
  /// Nothing came for the source's `idle` time: a moment to redraw a clock or a spinner.
  case idle

  /// The input, `keys timed out: …`, or `idle`.
  public var description: String {
    switch self {
    case .input(let input): "\(input)"
    case .keysTimedOut(let result): "keys timed out: \(result)"
    case .idle: "idle"
    }
  }
}

/// The events of a terminal in raw mode, decoded, one at a time: the read loop a terminal app
/// would otherwise write, with the waits it needs.
///
/// It reads the terminal (``RawTerminal``), decodes what comes (``TerminalKeyDecoder``: key
/// events, pastes, mouse reports, focus reports), gives up on a lone `ESC` after
/// `escapeTimeout` (it was the Escape key), reports a new size when the terminal's changes, and,
/// given a tree, ends the tree's pending key sequence when its deadline passes (see
/// ``TerminalEvent/keysTimedOut(_:)``). Read it as an asynchronous sequence, which ends at the
/// end of input or when its task is cancelled, or call ``next()`` from a synchronous loop.
///
/// ```swift
/// let terminal = try RawTerminal(keyboard: .standard, focusReporting: true)
/// for await event in TerminalEvents(terminal, tree: tree) {
///   switch event {
///   case .input(.key(let key)): tree.firstResponder.handleKey(key)
///   case .input(.paste(let text)): tree.firstResponder.insertText(text, isPaste: true)
///   case .input(.pointer(let pointer)): tree.handlePointer(pointer)
///   case .input(.resize(let columns, let rows)): layOut(columns: columns, rows: rows)
///   case .input, .keysTimedOut, .idle: break
///   }
///   redraw()
///   terminal.placeCursor(at: tree.textCaret)
/// }
/// ```
///
/// Events come in the order the terminal sent them, each once. The source holds the tree it is
/// given, and reads on the task that iterates it: use it from the tree's isolation. A read
/// blocks that task's thread while it waits (for at most 100 ms at a time when iterated
/// asynchronously, so that a cancellation ends the sequence soon): run it on a thread of its
/// own, or on the main actor of a program that only waits for the terminal.
public final class TerminalEvents: AsyncSequence {
  /// The terminal read.
  public let terminal: RawTerminal
  /// The tree whose pending key sequence the source times out, if any.
  public let tree: NodeTree?
  private let escapeTimeout: Duration
  private let idle: Duration?
  private var decoder = TerminalKeyDecoder()
  private var queued: [TerminalEvent] = []
  private var queuedStart = 0
  private var size: (columns: Int, rows: Int)?
  private var lastEvent = ContinuousClock.now
  private var ended = false

  /// A source of `terminal`'s events.
  ///
  /// - Parameters:
  ///   - terminal: A terminal in raw mode.
  ///   - tree: The tree whose pending key sequence the source ends at its deadline, or `nil`.
  ///   - escapeTimeout: How long a lone `ESC` waits for the rest of a sequence before it is the
  ///     Escape key: 50 ms by default, enough on local and remote terminals alike.
  ///   - idle: After how long without input the source reports ``TerminalEvent/idle``; `nil`
  ///     (the default) for never.
  public init(
    _ terminal: RawTerminal, tree: NodeTree? = nil, escapeTimeout: Duration = .milliseconds(50),
    idle: Duration? = nil
  ) {
    self.terminal = terminal
    self.tree = tree
    self.escapeTimeout = escapeTimeout
    self.idle = idle
    size = terminal.size
  }

  /// Whether the input ended and every event before its end was handed over: ``next()`` returns
  /// `nil` from now on.
  public var hasEnded: Bool { ended && queuedStart >= queued.count }

  /// The next event, waiting for it as long as it takes; `nil` once the input ended.
  ///
  /// - Returns: The event, or `nil` at the end of input.
  public func next() -> TerminalEvent? { next(until: nil) }

  /// The next event, waiting for it until `deadline` at the latest.
  ///
  /// - Parameter deadline: When to give up waiting, or `nil` to wait as long as it takes.
  /// - Returns: The event; `nil` at the end of input (``hasEnded`` says so), or when `deadline`
  ///   passed with none.
  public func next(until deadline: ContinuousClock.Instant?) -> TerminalEvent? {
    while true {
      if queuedStart < queued.count {
        let event = queued[queuedStart]
        queuedStart += 1
        if queuedStart == queued.count { (queued, queuedStart) = ([], 0) }
        return event
      }
      if ended { return nil }
      let now = ContinuousClock.now
      if let deadline, now >= deadline { return nil }
      // The first of: the caller's deadline, the tree's, a held ESC's, the idle report's.
      var wake = deadline
      func earliest(_ instant: ContinuousClock.Instant?) {
        guard let instant else { return }
        wake = wake.map { Swift.min($0, instant) } ?? instant
      }
      earliest(tree?.pendingKeysDeadline)
      if decoder.isWaiting { earliest(now + escapeTimeout) }
      if let idle { earliest(lastEvent + idle) }
      // Woken at least every quarter second, to see a new size without a signal handler.
      let timeout = Swift.min(
        wake.map { Swift.max(.zero, $0 - now) } ?? .milliseconds(250), .milliseconds(250))
      read(timeout: timeout)
    }
  }

  /// Reads once, waiting at most `timeout`, and queues what it makes.
  private func read(timeout: Duration) {
    switch terminal.read(timeout: timeout) {
    case .bytes(let bytes):
      queue(decoder.feed(bytes))
    case .timedOut:
      let now = ContinuousClock.now
      if decoder.isWaiting { queue(decoder.flush()) }
      if let tree, let due = tree.pendingKeysDeadline, now >= due, let result = tree.pendingKeysTimedOut() {
        queued.append(.keysTimedOut(result))
      }
    case .endOfInput:
      queue(decoder.flush())
      ended = true
    }
    if let now = terminal.size, now.columns != size?.columns || now.rows != size?.rows {
      size = now
      queued.append(.input(.resize(columns: now.columns, rows: now.rows)))
    }
    // Idle only when nothing at all happened: a new size is an event too.
    if let idle, queued.isEmpty, !ended, ContinuousClock.now >= lastEvent + idle { queued.append(.idle) }
    if !queued.isEmpty { lastEvent = .now }
  }

  private func queue(_ inputs: [TerminalInput]) {
    queued.append(contentsOf: inputs.map { .input($0) })
  }

  /// The events, read on the task that iterates them, until the input ends or the task is
  /// cancelled.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let source: TerminalEvents

    /// The next event, or `nil` at the end of input or once the task is cancelled.
    nonisolated(nonsending) public mutating func next() async -> TerminalEvent? {
      while !Task.isCancelled {
        // Short waits, so that a cancellation ends the sequence soon.
        if let event = source.next(until: .now + .milliseconds(100)) { return event }
        if source.hasEnded { return nil }
        await Task.yield()
      }
      return nil
    }
  }

  /// Iterates the events.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}
