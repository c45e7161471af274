import Actions
import Dispatch
@_spi(Invariants) import ViewTree
import ViewTreeActions

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Set `FUZZ_TRACE=1` when replaying an input to print each operation.
let tracing = getenv("FUZZ_TRACE") != nil

// Interprets the input as a program over two trees and two managers, aimed at what user code may
// do while the library runs it: every kind of closure the library calls (a handler, a transform,
// a capture, a catch, a responder, a context provider, a managed action, an undo step) may run
// another operation of the program, which may move nodes between the trees, adopt a tree's root
// into the other, drop a tree, replace a manager, undo, or dispatch again, synchronously or
// awaited, and cancel awaited dispatches. The pointer (frames, presses, moves, the wheel, capture,
// hover handlers), focus filters and scopes (traps, which are modal, and neighbour repairs),
// inactive branches, batched updates and the offered list run inside those closures too, and
// call back into the program from theirs. After every top-level step both trees' invariants must
// hold; any trap or sanitizer report is a finding.

struct Ping: Action { var n: UInt8 }
struct Pong: Action { var n: UInt8 }
struct Ask: Request {
  typealias Result = Int
}
struct Failure: Error {}

/// A managed action that runs one more operation of the program, then registers an undo step that
/// does too.
struct StepAction: ManagedAction {
  let nested: () -> Void
  func perform(context: ActionContext) throws {
    nested()
    context.undoHistory.register(named: "Step", undo: nested, redo: nested)
  }
}

/// An asynchronous managed action that yields, then runs one more operation.
struct AwaitAction: AsyncManagedAction {
  let nested: () -> Void
  nonisolated(nonsending) func perform(context: ActionContext) async throws {
    await Task.yield()
    nested()
  }
}

/// Lets the harness wait for an awaited dispatch from libFuzzer's synchronous entry point. Only
/// one thread touches the machine at a time: the entry point blocks while the task runs.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
}

/// An awaited operation, which lets go of the machine before the waiting thread is woken: the
/// task itself is released a moment after that, on its own thread, and if it still held the
/// machine then, LeakSanitizer's check at the end of the input could run while the managers were
/// alive but no longer weakly referenced, and report the side table their reference counts point
/// to in an encoded form that it cannot follow.
final class Work {
  private var machine: Machine?
  private var body: ((Machine) async -> Void)?

  init(machine: Machine, body: @escaping (Machine) async -> Void) {
    self.machine = machine
    self.body = body
  }

  func run() async {
    if let machine, let body { await body(machine) }
    machine = nil
    body = nil
  }
}

/// The program's state. Closures reach it weakly, so nothing outlives an input.
final class Machine {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var trees: [NodeTree]
  var managers: [ActionManager] = [ActionManager(), ActionManager()]
  var nodes: [Node]
  /// How deep operations run inside one another (a closure running an operation).
  var depth = 0
  /// Declarations kept after they were applied, or without applying them.
  var kept: [NodeDeclaration] = []
  /// The views' handles, at most six; dropping one detaches its node.
  var handles: [NodeHandle] = []

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    trees = [NodeTree("a") {}, NodeTree("b") {}]
    nodes = trees.map(\.root)
    for (tree, manager) in zip(trees, managers) {
      register(in: manager)
      tree.root.actionManager(manager)
      try! tree.setReentrancyLimit(4)
    }
  }

  func register(in manager: ActionManager) {
    try! manager.setReentrancyLimit(4)
    try! manager.register(StepAction { [weak self] in self?.nested() }, as: "Step")
    try! manager.register(AwaitAction { [weak self] in self?.nested() }, as: "Await")
  }

  func next() -> UInt8? {
    guard index < bytes.count else { return nil }
    defer { index += 1 }
    return bytes[index]
  }

  func node(_ byte: UInt8) -> Node { nodes[Int(byte) % nodes.count] }
  func tree(_ byte: UInt8) -> NodeTree { trees[Int(byte) % trees.count] }

  /// Runs one more operation from inside a closure the library called, at most three levels deep.
  func nested() {
    guard depth < 3 else { return }
    depth += 1
    defer { depth -= 1 }
    _ = step()
  }

  /// Waits for an awaited operation. Called only at the top level: inside a closure the library
  /// is running, the waiting thread would be the one the closure runs on.
  func waitFor(_ body: @escaping (Machine) async -> Void, cancelling: Bool = false) {
    guard depth == 0 else { return }
    let done = DispatchSemaphore(value: 0)
    let work = Unchecked(value: Work(machine: self, body: body))
    let task = Task {
      await work.value.run()
      done.signal()
    }
    if cancelling { task.cancel() }
    done.wait()
  }

  /// Runs one operation; returns `false` when the input is exhausted.
  func step() -> Bool {
    guard let op = next(), let a = next(), let b = next() else { return false }
    if tracing {
      let indent = String(repeating: "  ", count: depth)
      let line = "\(indent)op \(op % 33) a=\(node(a).path) b=\(node(b).path) (bytes \(a), \(b))\n"
      _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
    switch op % 33 {
    case 0:
      let child = Node("n\(nodes.count)")
      nodes.append(child)
      try? node(a).insertChild(child, at: Int(b) % (node(a).children.count + 1))
    case 1: try? node(a).addChild(node(b))  // may move between trees, or adopt a root
    case 2:
      let parent = node(a)
      let count = parent.children.count
      if count > 0 { try? parent.moveChild(from: Int(b) % count, to: Int(b / 2) % count) }
    case 3: node(a).removeFromParent()
    case 4: node(a).removeAllChildren()
    case 5:
      // Drop a tree and make a new one on a fresh root; the old nodes live on, outside any tree.
      let slot = Int(a) % trees.count
      let tree = NodeTree("t\(nodes.count)") {}
      tree.root.actionManager(managers[slot])
      try? tree.setReentrancyLimit(4)
      nodes.append(tree.root)
      let old = trees[slot]
      trees[slot] = tree
      if b % 2 == 1 {
        // And forget the old tree's nodes: when this runs inside a closure of a dispatch in that
        // tree, the tree may be freed while the dispatch runs.
        for index in nodes.indices where nodes[index].root === old.root { nodes[index] = Node("f\(index)") }
      }
    case 6: addModifier(kind: b, to: node(a))
    case 7:
      let infos = node(a).modifiers
      if !infos.isEmpty { try? node(a).removeModifier(infos[Int(b) % infos.count].id) }
    case 8:
      // Focus, declared on the spot, and moves: Tab, Shift-Tab, or a direction (no frames).
      try? tree(b).focus(node(a).focusable())
      tree(b).moveFocus([.next, .previous, .left, .down][Int(a % 4)])
    case 9: if b % 2 == 0 { node(a).trigger(Ping(n: b)) } else { node(a).trigger(Pong(n: b)) }
    case 10:
      let target = node(a)
      waitFor({ _ in _ = await target.trigger(Ping(n: b)) }, cancelling: b % 3 == 0)
    case 11: _ = try? node(a).request(Ask())
    case 12:
      let target = node(a)
      waitFor({ _ in _ = try? await target.request(Ask()) }, cancelling: b % 3 == 0)
    case 13: node(a).perform(["Step", "Await", "Undo", "Redo", "Missing", "Broken("][Int(b) % 6])
    case 14:
      let target = node(a)
      let identifier = ["Await", "Step", "Undo"][Int(b) % 3]
      waitFor({ _ in _ = await target.perform(identifier) }, cancelling: b % 4 == 0)
    case 15: _ = tree(a).validateItems()
    case 16: node(a).actionItem(["Step", "Await", "Undo"][Int(b) % 3])
    case 17:
      let chord = ["ctrl+s", "del", "f5"][Int(b) % 3]
      if a % 2 == 0 {
        node(a).bindKey(chord, to: "Step")
      } else if let parsed = try? KeyChord(parsing: chord) {
        tree(b).firstResponder.handleKey(parsed)
      }
    case 18:
      let tree = tree(a)
      waitFor({ _ in _ = await tree.firstResponder.handleKey(KeyChord(.delete)) })
    case 19:
      // Replace or swap a manager while it may be performing.
      if b % 2 == 0 {
        let manager = ActionManager()
        register(in: manager)
        managers[Int(a) % managers.count] = manager
        node(a).actionManager(manager)
      } else {
        node(a).actionManager(managers[Int(b / 2) % managers.count])
      }
    case 20:
      let history = managers[Int(a) % managers.count].undoHistory
      switch b % 5 {
      case 0: _ = try? history.undo()
      case 1: _ = try? history.redo()
      case 2: history.removeAll()
      case 3: history.beginGroup(named: "g")
      default: _ = try? history.endGroup()
      }
    case 21:
      managers[Int(a) % managers.count].undoHistory.register(
        named: "u", undo: { [weak self] in self?.nested() }, redo: { [weak self] in self?.nested() })
    case 22: tree(a).firstResponder.trigger(Pong(n: b))
    case 23: _ = tree(a).firstResponder.validate("Step")
    case 24: pointer(a, b)
    case 25: declare(a, b)
    case 26: useHandle(a, b)
    case 27: frame(a, b)
    case 28: focusHooks(a, b)
    case 29: offered(a, b)
    case 30:
      // A batched update: the repairs and the hover wait for its end.
      tree(a).performUpdates {
        nested()
        if b % 2 == 0 { nested() }
      }
    case 31: scope(a, b)
    case 32:
      // A branch hidden or shown, with the pointer or the focus maybe inside.
      node(a).isActive = b % 2 == 0
    default:
      // Re-declare a node: its modifiers go, its children become 0 to 3 declared ones, some
      // matched by id, each watching attach and detach.
      let nested: () -> Void = { [weak self] in self?.nested() }
      let target = node(a)
      target.update(
        to: NodeDeclaration(target.id) {
          for index in 0..<Int(b % 4) {
            NodeDeclaration(index % 2 == 0 ? "n\(index)" : nil).onAttach { _ in nested() }.onDetach { _ in
              nested()
            }
          }
        })
    }
    // A step run from inside a closure happens during a dispatch: only the structure is checked.
    for tree in trees {
      let problems = tree.checkInvariants(idle: depth == 0)
      if !problems.isEmpty {
        // Written out first: a release build's precondition keeps no message.
        let report = "invariants broken after op \(op % 33) at depth \(depth): \(problems)\n"
        _ = report.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        preconditionFailure(report)
      }
    }
    return true
  }

  /// Builds a random declaration (deep, wide or with problems), applies it to a node or keeps it,
  /// and sometimes applies or drops one kept earlier: a toolkit keeps its last declaration to
  /// compare with, and releasing a deep one must not recurse.
  func declare(_ a: UInt8, _ b: UInt8) {
    let nested: () -> Void = { [weak self] in self?.nested() }
    var declaration = NodeDeclaration("d\(b)")
    switch b % 4 {
    case 0:
      // A chain, up to 60,000 deep when `a` is large.
      let depth = a > 200 ? Int(a - 200) * 1_100 : Int(a % 8)
      for level in 0..<depth {
        let child = declaration
        declaration = NodeDeclaration(level % 3 == 0 ? "c\(level)" : nil) { child }
      }
    case 1:
      // Wide, some children with ids that repeat.
      declaration = NodeDeclaration("w\(b)") {
        for index in 0..<(Int(a) * 4) {
          NodeDeclaration(index % 5 == 0 ? "r\(index % 3)" : nil).onAction { _ in nested() }
        }
      }
    case 2:
      // With problems: a second responder for one request type and a chord that does not parse.
      declaration = NodeDeclaration("p\(b)") { NodeDeclaration("q").onDetach { _ in nested() } }
        .respond(to: Ask.self) { _ in 1 }.respond(to: Ask.self) { _ in 2 }
        .bindKey(a % 2 == 0 ? "ctrl+" : "ctrl+s", to: "Step")
    default:
      declaration = NodeDeclaration("h\(b)").handleAction(Ping.self) { _ in nested() }
        .onAttach { _ in nested() }
    }
    switch a % 4 {
    case 0: kept.append(declaration)
    case 1:
      node(b).update(to: declaration)
      kept.append(declaration)
    case 2: if !kept.isEmpty { node(b).update(to: kept[Int(a) % kept.count]) }
    default: node(b).update(to: declaration)
    }
    // At most four kept; the oldest is released.
    if kept.count > 4 { kept.removeFirst() }
  }

  /// Per-view updates: makes, updates, places, detaches and drops view handles, whose nodes the
  /// other operations then use too. A handle dropped from inside a closure detaches its node
  /// during a dispatch.
  func useHandle(_ a: UInt8, _ b: UInt8) {
    let nested: () -> Void = { [weak self] in self?.nested() }
    if handles.isEmpty || b % 6 == 0 {
      handles.append(NodeHandle())
      if handles.count > 6 { handles.removeFirst() }
    }
    let handle = handles[Int(a) % handles.count]
    let others = handles.enumerated().filter { $0.offset % 2 == Int(b) % 2 }.map(\.element)
    switch b % 8 {
    case 0, 1:
      // The view renders: its modifiers, a plain child, and slots for some views (maybe itself).
      handle.update(
        to: NodeDeclaration("v\(a % 4)") {
          NodeDeclaration("plain")
          for other in others { NodeDeclaration.slot(other) }
        }
        .handleAction(Ping.self) { _ in nested() }.onDetach { _ in nested() })
    case 2:
      // A node places views by slot, or keeps a child unchanged.
      node(a).update(
        to: NodeDeclaration(node(a).id) {
          for other in others { NodeDeclaration.slot(other) }
          if a % 3 == 0 { NodeDeclaration.unchanged("n0") }
        })
    case 3: handle.detach()
    case 4: if !handles.isEmpty { handles.remove(at: Int(a) % handles.count) }
    case 6:
      // The view places itself under another view (maybe itself, or one inside it), by an order
      // or after the others.
      let parent = handles[Int(b / 8) % handles.count]
      handle.place(in: parent, order: a % 4 == 0 ? nil : [Int(a % 3), Int(b % 5)])
    case 7:
      // A branch hidden or shown: out of every dispatch while the rest goes on.
      node(a).isActive.toggle()
    default:
      // A whole-tree update with declarations bound to handles, or a mismatched one.
      node(a).update(to: NodeDeclaration("bound").bound(to: handle).onAttach { _ in nested() })
      _ = handle.triggerAction(Ping(n: b))
    }
    if let made = handle.node { nodes.append(made) }
  }

  /// Routes a pointer event in a tree, at a point of a 16 by 16 grid.
  func pointer(_ a: UInt8, _ b: UInt8) {
    let tree = tree(a)
    let location = PointerLocation(x: Double(b % 16), y: Double(b / 16))
    let button = PointerButton([1, 1, 2, 3][Int(a / 2) % 4])
    switch a % 6 {
    case 0: tree.handlePointer(PointerInput(.press(button), at: location))
    case 1: tree.handlePointer(PointerInput(.release(button), at: location))
    case 2, 3: tree.handlePointer(PointerInput(.move, at: location))
    case 4: tree.handlePointer(PointerInput(.wheel(deltaX: 0, deltaY: b % 2 == 0 ? 1 : -1), at: location))
    default: try? tree.setPointerCapture(node(b))
    }
  }

  /// Declares a frame on a node (or takes it away), with a zIndex and a hit behavior; and
  /// sometimes handlers of the pointer that run the program.
  func frame(_ a: UInt8, _ b: UInt8) {
    let nested: () -> Void = { [weak self] in self?.nested() }
    let target = node(a)
    if b % 9 == 0 {
      target.frame(nil)
      return
    }
    target.frame(
      NodeFrame(x: Double(b % 8), y: Double(b / 32), width: Double(1 + b % 9), height: Double(1 + b % 5)),
      zIndex: Int(b % 3) - 1, hitBehavior: [.opaque, .translucent, .deferToChild][Int(a % 3)])
    switch b % 5 {
    case 0: target.onAction(PointerEnter.self) { _ in nested() }
    case 1: target.handleAction(PointerClick.self) { _, _ in nested() }
    case 2:
      target.scrollable { _ in
        nested()
        return true
      }
    case 3: target.onAction(PointerLeave.self) { _ in nested() }
    default: break
    }
  }

  /// A focus filter or an `onFocusChange` that runs the program, or neither.
  func focusHooks(_ a: UInt8, _ b: UInt8) {
    let nested: () -> Void = { [weak self] in self?.nested() }
    let tree = tree(a)
    switch b % 4 {
    case 0:
      tree.focusFilter = { node in
        nested()
        return node.id?.hasSuffix("3") != true
      }
    case 1: tree.onFocusChange = { _ in nested() }
    case 2:
      tree.focusFilter = nil
      tree.onFocusChange = nil
    default: try? tree.focus(node(b).focusable())
    }
  }

  /// A scope on a node: a group that repairs to a neighbour, a trap (modal while it holds the
  /// focus), with autofocus; or a node that makes its descendants unfocusable.
  func scope(_ a: UInt8, _ b: UInt8) {
    let target = node(a)
    switch b % 4 {
    case 0: target.focusScope(.group, repair: .neighbor)
    case 1: target.focusScope(.trap, autofocus: b % 8 == 1)
    case 2: target.descendantsFocusable(b % 3 == 0)
    default: target.bindKey("f5", to: "Step", passesModal: b % 2 == 1)
    }
  }

  /// What a node offers, and its views: the list, the footer, the palette, which-key, the menus.
  func offered(_ a: UInt8, _ b: UInt8) {
    let tree = tree(a)
    switch b % 5 {
    case 0: _ = tree.offeredActions(at: node(b), itemsIn: tree.root)
    case 1: _ = tree.firstResponder.bindingsInEffect()
    case 2: _ = CommandPalette(from: node(b)).matches("s")
    case 3: _ = tree.pendingKeys?.validatedContinuations()
    default: _ = tree.validateItems(in: node(b))
    }
  }

  func addModifier(kind: UInt8, to node: Node) {
    let nested: () -> Void = { [weak self] in self?.nested() }
    switch kind % 14 {
    case 0: node.onAction { _ in nested() }
    case 1: node.handleAction(Ping.self) { _ in nested() }
    case 2:
      node.receiveAction { _ in
        nested()
        return kind % 3 == 0 ? .handled : .unhandled
      }
    case 3:
      node.transformAction(Ping.self) { ping in
        nested()
        return Pong(n: ping.n)
      }
    case 4:
      node.captureAction { _ in
        nested()
        return kind % 4 == 0 ? .handled : .unhandled
      }
    case 5:
      node.catchError { _ in
        nested()
        if kind % 2 == 0 { throw Failure() }
      }
    case 6:
      node.handleAction(Pong.self) { _ in
        nested()
        throw Failure()
      }
    case 7:
      node.respond(to: Ask.self) { _ in
        nested()
        return Int(kind)
      }
    case 8: node.provideActionContext { _ in nested() }
    case 9:
      node.handleAction(Pong.self) { (_: Pong) async throws in
        await Task.yield()
        nested()
      }
    case 10:
      node.transformAction((any ManagedActionRequest).self) { request in
        nested()
        return request.identifier == "Step" ? request.redirected(to: "Undo") : request
      }
    case 12: node.onAttach { _ in nested() }
    case 13: node.onDetach { _ in nested() }
    default:
      node.captureAction((any ManagedActionRequest).self) { _ in
        nested()
        return .unhandled
      }
    }
  }
}

/// libFuzzer's entry point: one input, run as a program of up to 150 operations.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTreeMutations(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let machine = Machine(UnsafeBufferPointer(start: data, count: count))
  var steps = 0
  while steps < 150, machine.step() { steps += 1 }
  return 0
}
