#if os(Linux)
  import TerminalKeys
  import TestSupport
  import Testing
  import ViewTree
  import ViewTreeActions

  // The pointer article's terminal app, between markers, run here on a pseudo-terminal
  // (`DocsCompileTests` checks that the article shows exactly this region).

  // In `RawTerminalTests`, which runs its tests one at a time: one terminal at a time can be raw
  // in a process, and a suite of its own ran beside them ("another RawTerminal is in raw mode").
  extension RawTerminalTests {
    @Test func theArticlesTerminalAppHandsKeysAndClicksToTheTree() throws {
      let pty = try PseudoTerminal()
      pty.resize(columns: 80, rows: 24)
      let tree = NodeTree("window") {
        Node("button").frame(NodeFrame(x: 0, y: 0, width: 10, height: 1)).focusable()
      }
      var status = ""
      var statuses: [String] = []
      var quitting = false
      var pasted: [String] = []
      func insert(_ text: String) { pasted.append(text) }
      func layOut(columns: Int, rows: Int) {
        tree.root.frame(NodeFrame(x: 0, y: 0, width: Double(columns), height: Double(rows)))
      }
      func redraw() {
        statuses.append(status)
        if tree.focusedNode?.id == "button" { quitting = true }
      }
      // The terminal the article's app reads and writes: here the pseudo-terminal, rather than
      // the process's own (`STDIN_FILENO`, `STDOUT_FILENO`).
      let (input, output) = (pty.terminal, pty.terminal)
      // A key nothing binds, then a click on the button, as the terminal reports them.
      pty.type(Array("x\u{1B}[<0;3;1M\u{1B}[<0;3;1m".utf8))
      var printed: [String] = []
      func print(_ value: Any) { printed.append("\(value)") }
      // pointer-terminal-app:begin
      do {
        let terminal = try RawTerminal(input: input, output: output, mouse: .motion)
        if let size = terminal.size { layOut(columns: size.columns, rows: size.rows) }
        let events = TerminalEvents(terminal, tree: tree)
        while !quitting, let event = events.next() {
          switch event {
          case .input(.key(let key)):
            status = "\(tree.firstResponder.handleKey(key))"  // what the key did, in a line
          case .input(.pointer(let pointer)):
            let result = tree.handlePointer(pointer)
            if let modal = result.blockedBy { status = "finish \(modal.path) first" }
          case .input(.paste(let text)):
            insert(text)
          case .input(.resize(let columns, let rows)):
            layOut(columns: columns, rows: rows)  // declares the new frames
          case .input, .keysTimedOut, .idle:
            break
          }
          redraw()
        }
      } catch {
        print("cannot read the terminal: \(error)")
      }
      // pointer-terminal-app:end
      #expect(printed.isEmpty)
      #expect(statuses.first == "x: no binding")
      #expect(tree.focusedNode?.id == "button")
    }
  }
#endif
