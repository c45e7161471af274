@_spi(Invariants) import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Set `FUZZ_TRACE=1` when replaying an input to print each operation.
let tracing = getenv("FUZZ_TRACE") != nil

// Interprets the input as a program over a tree with frames: pointer events at places the input
// picks (presses, releases, moves, the wheel), frames, z-indices, hit behaviours, focus and
// scrollables declared or taken away, nodes added, moved and removed, captures set and released,
// and handlers that remove their node, move the focus, capture the pointer, declare the tree anew
// or route another event while one is routed. After every step the tree's invariants hold (the
// hover flags mark the hovered node's path, the capture is in the tree); any trap is a finding.

/// The program's state. Handlers reach it weakly, so nothing outlives an input.
final class Machine {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  let tree = NodeTree("root") {}
  var nodes: [Node]
  var time = ContinuousClock.now

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    nodes = [tree.root]
    tree.root.frame(NodeFrame(x: 0, y: 0, width: 16, height: 16))
  }

  func next() -> UInt8? {
    guard index < bytes.count else { return nil }
    defer { index += 1 }
    return bytes[index]
  }

  func node(_ byte: UInt8) -> Node { nodes[Int(byte) % nodes.count] }

  /// A point on a 16-by-16 grid, or just off it.
  func location(_ byte: UInt8) -> PointerLocation {
    PointerLocation(x: Double(byte & 0x0F) - 0.5 + Double(byte >> 7), y: Double((byte >> 4) & 0x07) * 2)
  }

  /// A frame from a byte: small, overlapping, sometimes empty or not finite.
  func frame(_ byte: UInt8) -> NodeFrame? {
    switch byte % 8 {
    case 0: nil
    case 1: NodeFrame(x: .nan, y: 0, width: 4, height: 4)
    case 2: NodeFrame(x: Double(byte % 5), y: Double(byte % 7), width: 0, height: 3)
    default:
      NodeFrame(
        x: Double(byte % 11), y: Double(byte % 13), width: Double(1 + byte % 9), height: Double(1 + byte % 6))
    }
  }

  /// Runs one operation; returns `false` when the input is exhausted.
  func step(depth: Int = 0) -> Bool {
    guard let op = next(), let a = next(), let b = next() else { return false }
    if tracing {
      let line = "\(String(repeating: "  ", count: depth))op \(op % 12) a=\(node(a).label) b=\(b)\n"
      _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
    time = time.advanced(by: .milliseconds(Int(b % 4) * 200))
    let button = PointerButton(1 + Int(a % 3))
    switch op % 12 {
    case 0: tree.handlePointer(PointerInput(.move, at: location(b), time: time))
    case 1: tree.handlePointer(PointerInput(.press(button), at: location(b), time: time))
    case 2: tree.handlePointer(PointerInput(.release(button), at: location(b), time: time))
    case 3:
      let delta = Double(Int(a % 3) - 1)
      tree.handlePointer(
        PointerInput(.wheel(deltaX: a & 4 == 0 ? 0 : delta, deltaY: delta), at: location(b), time: time))
    case 4:
      let child = Node("n\(nodes.count)").frame(frame(b), zIndex: Int(b % 3) - 1)
      nodes.append(child)
      try? node(a).addChild(child)
    case 5: node(a).removeFromParent()
    case 6: try? node(b).addChild(node(a))
    case 7:
      let behaviours: [HitBehavior] = [.opaque, .translucent, .deferToChild]
      node(a).frame(frame(b), zIndex: Int(b % 5) - 2, hitBehavior: behaviours[Int(b / 8) % 3])
    case 8:
      switch b % 4 {
      case 0: node(a).focusable(focusOnPress: b & 4 == 0)
      case 1: node(a).focusScope(b & 4 == 0 ? .group : .trap, autofocus: b & 8 != 0)
      case 2: node(a).descendantsFocusable(b & 4 == 0)
      default: node(a).scrollable(b & 4 == 0 ? .vertical : .horizontal) { _ in b & 8 == 0 }
      }
    case 9:
      if b % 2 == 0 { try? tree.setPointerCapture(node(a)) } else { tree.releasePointerCapture() }
    case 10: addHandler(kind: b, to: node(a), depth: depth)
    default: node(a).removeAllChildren()
    }
    if tracing {
      let line = "  -> hovered \(tree.hoveredNode?.label ?? "-")\n\(tree.root.treeDescription())\n"
      _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
    // A step run from inside a handler happens during a dispatch: only the structure is checked.
    let problems = tree.checkInvariants(idle: depth == 0)
    if !problems.isEmpty {
      // A release build's precondition drops its message; say what broke before trapping.
      let line = "invariants broken after op \(op % 12) at depth \(depth): \(problems)\n"
      _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
      preconditionFailure()
    }
    return true
  }

  func addHandler(kind: UInt8, to node: Node, depth: Int) {
    // A handler may run one more operation of the program: a change while the pointer is routed.
    let nested: () -> Void = { [weak self] in if depth < 3 { _ = self?.step(depth: depth + 1) } }
    switch kind % 8 {
    case 0: node.handleAction(PointerPress.self) { [weak node] _ in node?.removeFromParent() }
    case 1: node.onAction { _ in nested() }
    case 2: node.handleAction(PointerEnter.self) { _ in nested() }
    case 3: node.handleAction(PointerLeave.self) { [weak node] _ in node?.removeFromParent() }
    case 4:
      node.handleAction(PointerPress.self) { [weak self, weak node] _ in
        guard let self, let node else { return }
        try? self.tree.setPointerCapture(node)
      }
    case 5:
      node.handleAction(PointerClick.self) { [weak self] _ in self?.tree.update(to: NodeDeclaration("root")) }
    case 6:
      node.handleAction(PointerOver.self) { [weak self, weak node] _ in
        guard let self, let node else { return }
        try? self.tree.focus(node)
      }
    default: node.captureAction { _ in kind % 3 == 0 ? .handled : .unhandled }
    }
  }
}

/// libFuzzer's entry point: one input, run as a program of up to 200 operations.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPointerSequences(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let machine = Machine(UnsafeBufferPointer(start: data, count: count))
  var steps = 0
  while steps < 200, machine.step() { steps += 1 }
  return 0
}
