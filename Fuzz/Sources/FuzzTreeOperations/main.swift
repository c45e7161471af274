import Actions
@_spi(Invariants) import ViewTree
import ViewTreeActions

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Set `FUZZ_TRACE=1` when replaying an input to print each operation.
let tracing = getenv("FUZZ_TRACE") != nil

// Interprets the input as a program over a tree: build nodes, add and remove modifiers and
// nodes (also from inside handlers), move focus, trigger, perform, request, press keys. After
// every step the tree's invariants must hold; any trap is a finding.

struct Ping: Action { var n: UInt8 }
struct Pong: Action { var n: UInt8 }
struct Ask: Request {
  typealias Result = Int
}
struct Failure: Error {}
struct NoopAction: ManagedAction {
  func perform(context: ActionContext) throws {}
}
struct PickyAction: ManagedAction {
  func validate(context: ActionContext) -> Validation {
    context.value(forKey: "ok", as: Bool.self) == true ? .enabled : .disabled
  }
  func perform(context: ActionContext) throws { throw Failure() }
}

/// The program's state. Handlers reach it weakly, so nothing outlives an input.
final class Machine {
  var bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  let manager = ActionManager()
  let tree = NodeTree("root") {}
  var nodes: [Node]

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    nodes = [tree.root]
    try! manager.register(NoopAction(), as: "Noop")
    try! manager.register(PickyAction(), as: "Picky")
    tree.root.actionManager(manager)
    try! tree.setReentrancyLimit(4)
  }

  func next() -> UInt8? {
    guard index < bytes.count else { return nil }
    defer { index += 1 }
    return bytes[index]
  }

  func node(_ byte: UInt8) -> Node { nodes[Int(byte) % nodes.count] }

  /// Runs one operation; returns `false` when the input is exhausted.
  func step(depth: Int = 0) -> Bool {
    guard let op = next(), let a = next(), let b = next() else { return false }
    if tracing {
      let line =
        "\(String(repeating: "  ", count: depth))op \(op % 13) a=\(node(a).label) b=\(node(b).label) "
        + "focus=\(tree.focusedNode?.path ?? "-") parents: "
        + nodes.map { "\($0.label)<\($0.parent?.label ?? "-")" }.joined(separator: " ") + "\n"
      // Unbuffered, so the lines before a crash are not lost.
      _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
    switch op % 13 {
    case 0:
      let child = Node("n\(nodes.count)")
      nodes.append(child)
      try? node(a).addChild(child)
    case 1: node(a).removeFromParent()
    case 2: try? node(b).addChild(node(a))
    case 3: addModifier(kind: b, to: node(a))
    case 4:
      let infos = node(a).modifiers
      if !infos.isEmpty { try? node(a).removeModifier(infos[Int(b) % infos.count].id) }
    case 5: focusStep(a, b, depth: depth)
    case 6:
      if b % 2 == 0 { node(a).trigger(Ping(n: b)) } else { node(a).trigger(Pong(n: b)) }
    case 7: tree.firstResponder.trigger(Ping(n: a))
    case 8: node(a).perform(["Noop", "Picky", "menu.Noop(x: 1)", "Broken(", "Missing", "Undo"][Int(b) % 6])
    case 9: _ = try? node(a).request(Ask())
    case 10:
      let chord = ["ctrl+s", "del", "f5", "shift+tab"][Int(b) % 4]
      if a % 2 == 0 {
        node(a).bindKey(chord, to: "Noop")
      } else if let parsed = try? KeyChord(parsing: chord) {
        tree.firstResponder.handleKey(parsed)
      }
    case 11: node(a).removeAllChildren()
    default: _ = tree.validateItems()
    }
    // A step run from inside a handler happens during a dispatch: only the structure is checked.
    let problems = tree.checkInvariants(idle: depth == 0)
    precondition(problems.isEmpty, "invariants broken after op \(op % 13) at depth \(depth): \(problems)")
    return true
  }

  /// Frames for direction moves, the hostile ones among them.
  static let frames: [NodeFrame?] = [
    nil, NodeFrame(x: 0, y: 0, width: 4, height: 1), NodeFrame(x: 4, y: 0, width: 4, height: 1),
    NodeFrame(x: 0, y: 2, width: 4, height: 1), NodeFrame(x: .nan, y: 1, width: 2, height: 1),
    NodeFrame(x: 1, y: 1, width: .infinity, height: 1), NodeFrame(x: 2, y: 2, width: -3, height: 0),
    NodeFrame(x: -.infinity, y: .nan, width: 0, height: 0),
  ]

  /// Focus: what nodes declare (focusability, frames, scopes, traps, autofocus, blocked
  /// subtrees), moves, and callbacks that move the focus or run further steps (removals among
  /// them) while a change is reported.
  func focusStep(_ a: UInt8, _ b: UInt8, depth: Int) {
    let moves: [FocusMove] = [.next, .previous, .left, .right, .up, .down]
    switch b % 12 {
    case 0: node(a).focusable().frame(Self.frames[Int(b / 12) % Self.frames.count])
    case 1: node(a).focusScope(a % 2 == 0 ? .group : .trap, autofocus: b % 3 == 0)
    case 2: tree.moveFocus(moves[Int(a) % moves.count])
    case 3: try? tree.focus(node(a))
    case 4: node(a).descendantsFocusable(b % 2 == 0)
    case 5: tree.clearFocus()
    case 6:
      // A callback that runs one more step of the program for every change it hears of.
      tree.onFocusChange = { [weak self] _ in _ = self?.step(depth: depth + 1) }
    case 7:
      // A callback that moves the focus itself, or removes the node that got it.
      tree.onFocusChange = { [weak self] change in
        guard let self, let new = change.new else { return }
        if a % 2 == 0 { new.removeFromParent() } else { try? self.tree.focus(self.node(a)) }
      }
    case 8: tree.onFocusChange = nil
    case 9: tree.focusFilter = b % 2 == 0 ? nil : { node in (node.id?.count ?? 0) % 2 == 0 }
    case 10: node(a).focusable(false)
    default: node(a).focusScope(.trap, defaultFocus: node(b).id, ordered: a % 2 == 0)
    }
  }

  func addModifier(kind: UInt8, to node: Node) {
    // A handler may run one more operation of the program: mutations during a dispatch.
    let nested: () -> Void = { [weak self] in _ = self?.step(depth: 1) }
    switch kind % 10 {
    case 0: node.onAction { _ in }
    case 1: node.handleAction(Ping.self) { _ in }
    case 2: node.receiveAction { _ in kind % 3 == 0 ? .handled : .unhandled }
    case 3: node.transformAction(Ping.self) { ping in Pong(n: ping.n) }
    case 4: node.captureAction(Pong.self) { _ in kind % 4 == 0 ? .handled : .unhandled }
    case 5: node.catchError { _ in if kind % 2 == 0 { throw Failure() } }
    case 6: node.handleAction(Pong.self) { _ in throw Failure() }
    case 7: node.onAction { _ in nested() }
    case 8: node.respond(to: Ask.self) { _ in Int(kind) }
    default: node.provideActionContext { context in context.set(kind % 2 == 0, forKey: "ok") }
    }
  }
}

/// libFuzzer's entry point: one input, run as a program of up to 200 tree operations.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTreeOperations(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let machine = Machine(UnsafeBufferPointer(start: data, count: count))
  var steps = 0
  while steps < 200, machine.step() { steps += 1 }
  return 0
}
