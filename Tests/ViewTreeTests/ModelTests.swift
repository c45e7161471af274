import TestSupport
import Testing
@_spi(Invariants) import ViewTree

// A randomized comparison of the library with a reference model of the propagation rules (the
// article "Propagation rules", `ViewTree.docc/PropagationRules.md`). The model is deliberately simple (recursive, copying, no caching) so that it is obviously
// right; thousands of random trees, modifier mixes, mutations during dispatch and nested triggers
// must give the same events and outcomes in both. Seeded and reproducible: a failure prints the
// seed and the case.

// Both action types are requests (answered by nobody in the model), so that the request entry
// points can send them too.
struct ModelA: Request, CustomStringConvertible {
  typealias Result = Int
  var n: Int
  var description: String { "A\(n)" }
}

struct ModelB: Request, CustomStringConvertible {
  typealias Result = Int
  var n: Int
  var description: String { "B\(n)" }
}

struct ModelError: Error, CustomStringConvertible {
  var origin: String
  var description: String { "E(\(origin))" }
}

/// A value of either model action type.
enum ModelValue: Equatable, CustomStringConvertible {
  case a(Int)
  case b(Int)

  var action: any Action {
    switch self {
    case .a(let n): ModelA(n: n)
    case .b(let n): ModelB(n: n)
    }
  }

  init(_ action: any Action) {
    if let a = action as? ModelA { self = .a(a.n) } else { self = .b((action as! ModelB).n) }
  }

  /// What a transform turns it into.
  var transformed: ModelValue {
    switch self {
    case .a(let n): .b(n + 1)
    case .b(let n): .a(n + 1)
    }
  }

  var description: String {
    switch self {
    case .a(let n): "A\(n)"
    case .b(let n): "B\(n)"
    }
  }
}

enum ModelKind: CaseIterable {
  case capture, receive, transform, handle, observe, catchError
}

enum TypeSelection: CaseIterable {
  case any, a, b

  func matches(_ value: ModelValue) -> Bool {
    switch (self, value) {
    case (.any, _), (.a, .a), (.b, .b): true
    default: false
    }
  }
}

enum Effect: CustomStringConvertible {
  case detach(node: Int)
  case removeModifier(node: Int, index: Int)
  case addObserver(node: Int)
  case trigger(from: Int, value: ModelValue)

  var description: String {
    switch self {
    case .detach(let node): "detach n\(node)"
    case .removeModifier(let node, let index): "remove modifier \(index) of n\(node)"
    case .addObserver(let node): "add observer to n\(node)"
    case .trigger(let node, let value): "trigger \(value) from n\(node)"
    }
  }
}

struct ModifierSpec: CustomStringConvertible {
  var id: Int
  var kind: ModelKind
  var type: TypeSelection
  var handles: Bool
  var throwsError: Bool
  var effect: Effect?

  var description: String {
    var text = "m\(id) \(kind) \(type)"
    if handles { text += " handles" }
    if throwsError { text += " throws" }
    if let effect { text += " [\(effect)]" }
    return text
  }
}

struct ModelCase: CustomStringConvertible {
  var parents: [Int]  // parents[i] for node i > 0; parents[0] is unused
  var modifiers: [[ModifierSpec]]
  var start: Int
  var value: ModelValue
  var limit: Int

  var description: String {
    var lines = ["trigger \(value) from n\(start), reentrancy limit \(limit)"]
    for node in modifiers.indices {
      let parent = node == 0 ? "root" : "child of n\(parents[node])"
      lines.append("  n\(node) (\(parent)): " + modifiers[node].map(\.description).joined(separator: "; "))
    }
    return lines.joined(separator: "\n")
  }

  static func random(using generator: inout SplitMix64) -> ModelCase {
    let count = Int.random(in: 1...7, using: &generator)
    var parents = [0]
    for node in 1..<max(count, 1) { parents.append(Int.random(in: 0..<node, using: &generator)) }
    var nextID = 0
    var modifiers: [[ModifierSpec]] = []
    for _ in 0..<count {
      var list: [ModifierSpec] = []
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        let kind = ModelKind.allCases.randomElement(using: &generator)!
        var effect: Effect?
        if Int.random(in: 0..<4, using: &generator) == 0 {
          let node = Int.random(in: 0..<count, using: &generator)
          switch Int.random(in: 0..<4, using: &generator) {
          case 0: effect = .detach(node: node)
          case 1: effect = .removeModifier(node: node, index: Int.random(in: 0..<3, using: &generator))
          case 2: effect = .addObserver(node: node)
          default:
            let value: ModelValue = Bool.random(using: &generator) ? .a(100) : .b(200)
            effect = .trigger(from: node, value: value)
          }
        }
        list.append(
          ModifierSpec(
            id: nextID, kind: kind, type: TypeSelection.allCases.randomElement(using: &generator)!,
            handles: Bool.random(using: &generator),
            throwsError: Int.random(in: 0..<5, using: &generator) == 0,
            effect: effect))
        nextID += 1
      }
      modifiers.append(list)
    }
    return ModelCase(
      parents: parents, modifiers: modifiers, start: Int.random(in: 0..<count, using: &generator),
      value: Bool.random(using: &generator) ? .a(1) : .b(2), limit: Int.random(in: 1...3, using: &generator))
  }
}

/// The reference model: plain arrays, a recursive dispatch, snapshots by copying.
final class Model {
  var parent: [Int?]
  var modifiers: [[(spec: ModifierSpec, serial: Int)]]
  var nextSerial = 0
  var log: [String] = []
  let limit: Int
  var depth = 0

  init(_ spec: ModelCase) {
    parent = spec.parents.enumerated().map { $0.offset == 0 ? nil : $0.element }
    modifiers = []
    limit = spec.limit
    for list in spec.modifiers {
      modifiers.append(list.map { (spec: $0, serial: take()) })
    }
  }

  func take() -> Int {
    defer { nextSerial += 1 }
    return nextSerial
  }

  func isAttached(_ node: Int) -> Bool {
    var current: Int? = node
    while let each = current {
      if each == 0 { return true }
      current = parent[each]
    }
    return false
  }

  func isPresent(_ serial: Int, on node: Int) -> Bool { modifiers[node].contains { $0.serial == serial } }

  func perform(_ effect: Effect?) {
    switch effect {
    case nil: break
    case .detach(let node): if node != 0 { parent[node] = nil }
    case .removeModifier(let node, let index):
      if modifiers[node].indices.contains(index) { modifiers[node].remove(at: index) }
    case .addObserver(let node):
      modifiers[node].append(
        (
          ModifierSpec(
            id: 1000 + nextSerial, kind: .observe, type: .any, handles: false, throwsError: false),
          take()
        ))
    case .trigger(let node, let value):
      let outcome = dispatch(value, from: node)
      log.append("nested from n\(node): \(outcome)")
    }
  }

  /// The article's rules 1-10, as directly as they can be written.
  func dispatch(_ start: ModelValue, from target: Int) -> String {
    var path = [target]
    while let up = parent[path[path.count - 1]] { path.append(up) }
    guard path.last == 0 else { return "not dispatched: the node is not in a rooted NodeTree" }
    guard depth < limit else {
      return "not dispatched: the reentrancy limit (\(limit) nested dispatches) was reached"
    }
    depth += 1
    defer { depth -= 1 }
    let snapshot = path.map { modifiers[$0] }
    var value = start

    func propagate(_ error: String, from index: Int, after serial: Int) -> String {
      var error = error
      var thrower = path[index]
      for position in index..<path.count {
        let node = path[position]
        for (spec, modifierSerial) in snapshot[position] where spec.kind == .catchError {
          if position == index, modifierSerial <= serial { continue }
          guard isPresent(modifierSerial, on: node) else { continue }
          guard isAttached(node) else { break }
          log.append("n\(node) m\(spec.id) catch sees \(error)")
          perform(spec.effect)
          if spec.throwsError {
            error = "E(n\(node) m\(spec.id))"
            thrower = node
          } else {
            return "caught \(error) by n\(node), thrown by n\(thrower)"
          }
        }
      }
      return "failed \(error) at n\(thrower)"
    }

    for position in path.indices.reversed() {
      let node = path[position]
      for (spec, serial) in snapshot[position] where spec.kind == .capture {
        guard spec.type.matches(value), isPresent(serial, on: node) else { continue }
        guard isAttached(node) else { break }
        log.append("n\(node) m\(spec.id) capture sees \(value)")
        perform(spec.effect)
        if spec.throwsError { return propagate("E(n\(node) m\(spec.id))", from: position, after: serial) }
        if spec.handles { return "handled by n\(node): \(value)" }
      }
    }
    for position in path.indices {
      let node = path[position]
      for (spec, serial) in snapshot[position] where ![.capture, .catchError].contains(spec.kind) {
        guard spec.type.matches(value), isPresent(serial, on: node) else { continue }
        guard isAttached(node) else { break }
        log.append(
          spec.id >= 1000
            ? "n\(node) added observer sees \(value)" : "n\(node) m\(spec.id) \(spec.kind) sees \(value)")
        perform(spec.effect)
        if spec.throwsError, spec.kind != .observe {
          return propagate("E(n\(node) m\(spec.id))", from: position, after: serial)
        }
        switch spec.kind {
        case .receive where spec.handles, .handle: return "handled by n\(node): \(value)"
        case .transform: value = value.transformed
        default: break
        }
      }
    }
    return "unhandled: \(value)"
  }
}

/// The same case on the library: the modifiers log what they see and perform the same effects.
final class LibraryRun {
  let tree: NodeTree
  let nodes: [Node]
  var log: [String] = []

  init(_ spec: ModelCase) {
    nodes = spec.modifiers.indices.map { Node("n\($0)").focusable() }
    for node in 1..<nodes.count { try! nodes[spec.parents[node]].addChild(nodes[node]) }
    tree = try! NodeTree(root: nodes[0])
    try! tree.setReentrancyLimit(spec.limit)
    for (index, list) in spec.modifiers.enumerated() {
      for modifier in list { attach(modifier, to: index) }
    }
  }

  func describe(_ outcome: ActionOutcome) -> String {
    switch outcome {
    case .handled(let node, let action): "handled by \(node.id!): \(ModelValue(action))"
    case .unhandled(let action): "unhandled: \(ModelValue(action))"
    case .caught(let error, let node, let thrower): "caught \(error) by \(node.id!), thrown by \(thrower.id!)"
    case .failed(let error, let thrower): "failed \(error) at \(thrower.id!)"
    case .notDispatched(let reason): "not dispatched: \(reason)"
    }
  }

  func perform(_ effect: Effect?) {
    switch effect {
    case nil: break
    case .detach(let node): nodes[node].removeFromParent()
    case .removeModifier(let node, let index):
      let infos = nodes[node].modifiers
      if infos.indices.contains(index) { try! nodes[node].removeModifier(infos[index].id) }
    case .addObserver(let node):
      nodes[node].onAction { [weak self] action in
        self?.log.append("n\(node) added observer sees \(ModelValue(action))")
      }
    case .trigger(let node, let value):
      let outcome = nodes[node].trigger(value.action)
      log.append("nested from n\(node): \(describe(outcome))")
    }
  }

  /// Logs that a modifier saw an action, performs its effect, and throws if it is a thrower.
  func sees(_ label: String, _ spec: ModifierSpec, _ kind: String, _ action: any Action) throws {
    log.append("\(label) \(kind) sees \(ModelValue(action))")
    perform(spec.effect)
    if spec.throwsError, spec.kind != .observe { throw ModelError(origin: label) }
  }

  func attach(_ spec: ModifierSpec, to index: Int) {
    let node = nodes[index]
    let label = "n\(index) m\(spec.id)"
    // The modifiers reach this run weakly: nodes own their modifiers, and this run owns the nodes.
    let see: (String, any Action) throws -> Void = { [weak self] kind, action in
      try self?.sees(label, spec, kind, action)
    }
    let decision: ActionDisposition = spec.handles ? .handled : .unhandled
    switch (spec.kind, spec.type) {
    case (.capture, .any):
      node.captureAction {
        try see("capture", $0)
        return decision
      }
    case (.capture, .a):
      node.captureAction(ModelA.self) {
        try see("capture", $0)
        return decision
      }
    case (.capture, .b):
      node.captureAction(ModelB.self) {
        try see("capture", $0)
        return decision
      }
    case (.receive, .any):
      node.receiveAction {
        try see("receive", $0)
        return decision
      }
    case (.receive, .a):
      node.receiveAction(ModelA.self) {
        try see("receive", $0)
        return decision
      }
    case (.receive, .b):
      node.receiveAction(ModelB.self) {
        try see("receive", $0)
        return decision
      }
    case (.transform, .any):
      node.transformAction {
        try see("transform", $0)
        return ModelValue($0).transformed.action
      }
    case (.transform, .a):
      node.transformAction(ModelA.self) {
        try see("transform", $0)
        return ModelValue($0).transformed.action
      }
    case (.transform, .b):
      node.transformAction(ModelB.self) {
        try see("transform", $0)
        return ModelValue($0).transformed.action
      }
    case (.handle, .any): node.handleAction { try see("handle", $0) }
    case (.handle, .a): node.handleAction(ModelA.self) { try see("handle", $0) }
    case (.handle, .b): node.handleAction(ModelB.self) { try see("handle", $0) }
    case (.observe, .any): node.onAction { try? see("observe", $0) }
    case (.observe, .a): node.onAction(ModelA.self) { try? see("observe", $0) }
    case (.observe, .b): node.onAction(ModelB.self) { try? see("observe", $0) }
    case (.catchError, _):
      node.catchError { [weak self] error in
        guard let self else { return }
        log.append("\(label) catch sees \(error)")
        perform(spec.effect)
        if spec.throwsError { throw ModelError(origin: label) }
      }
    }
  }
}

/// The ways to start a dispatch. Every one runs the same engine, so each must give the model's
/// events and outcome; the traced ones run the engine's recording path.
enum EntryPoint: String, CaseIterable {
  case trigger, triggerAwaited, send, sendAwaited, request, requestAwaited
  case triggerTraced, triggerAwaitedTraced, requestTraced

  /// Dispatches `value` from node `start` of `run` this way.
  @MainActor
  func dispatch(_ value: ModelValue, from start: Int, in run: LibraryRun) async -> ActionOutcome {
    let node = run.nodes[start]
    switch self {
    case .trigger:
      let trigger = { node.trigger(value.action) }
      return trigger()
    case .triggerAwaited:
      return await node.trigger(value.action)
    case .send:
      try? run.tree.focus(node)
      let send = { run.tree.firstResponder.trigger(value.action) }
      return send()
    case .sendAwaited:
      try? run.tree.focus(node)
      return await run.tree.firstResponder.trigger(value.action)
    case .request, .requestAwaited:
      // Nobody answers the model's requests: the outcome is what the dispatch did.
      switch (value, self) {
      case (.a(let n), .request):
        let request = { node.send(ModelA(n: n), tracing: nil).modelOutcome }
        return request()
      case (.b(let n), .request):
        let request = { node.send(ModelB(n: n), tracing: nil).modelOutcome }
        return request()
      case (.a(let n), _): return await node.send(ModelA(n: n), tracing: nil).modelOutcome
      case (.b(let n), _): return await node.send(ModelB(n: n), tracing: nil).modelOutcome
      }
    case .triggerTraced:
      let trigger = { node.trigger(value.action, tracing: ActionTrace()) }
      return trigger()
    case .triggerAwaitedTraced:
      return await node.trigger(value.action, tracing: ActionTrace())
    case .requestTraced:
      let request = {
        switch value {
        case .a(let n): node.send(ModelA(n: n), tracing: ActionTrace()).modelOutcome
        case .b(let n): node.send(ModelB(n: n), tracing: ActionTrace()).modelOutcome
        }
      }
      return request()
    }
  }
}

@Suite struct ModelTests {
  static let seeds: [UInt64] = [1, 2, 3, 0xC0FFEE, 0xBADC0DE]

  @Test(arguments: seeds)
  @MainActor func everyEntryPointAgreesWithTheReferenceModel(seed: UInt64) async {
    var generator = SplitMix64(seed: seed)
    var compared = 0
    for caseNumber in 0..<1_000 {
      let spec = ModelCase.random(using: &generator)
      let model = Model(spec)
      let expected = model.dispatch(spec.value, from: spec.start)
      for entryPoint in EntryPoint.allCases {
        let library = LibraryRun(spec)
        let outcome = await entryPoint.dispatch(spec.value, from: spec.start, in: library)
        let actual = library.describe(outcome)
        let problems = library.tree.checkInvariants()
        if actual != expected || library.log != model.log || !problems.isEmpty {
          Issue.record(
            """
            Seed \(seed), case \(caseNumber), entry point \(entryPoint.rawValue) differs from the model.
            \(spec)
            model outcome:   \(expected)
            library outcome: \(actual)
            model events:
              \(model.log.joined(separator: "\n  "))
            library events:
              \(library.log.joined(separator: "\n  "))
            invariants: \(problems.isEmpty ? "hold" : problems.joined(separator: "; "))
            """)
          return
        }
        compared += 1
      }
    }
    #expect(compared == 1_000 * EntryPoint.allCases.count)
  }
}

extension RequestResult {
  /// What the dispatch did, to compare with the model, whose requests have no responder: an
  /// answer shows as its node's handling of a value the model never produces, so that it fails
  /// the comparison.
  var modelOutcome: ActionOutcome {
    switch self {
    case .unanswered(let outcome): outcome
    case .answered(_, let node): .handled(by: node, action: UnexpectedAnswer())
    }
  }
}

/// Stands for an answer the model did not expect.
struct UnexpectedAnswer: Action {}
