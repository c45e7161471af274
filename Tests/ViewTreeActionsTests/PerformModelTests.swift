import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

// A randomized comparison of perform and validate through a tree with a reference model of the
// adapter's rules: the request bubbles from its start to the nearest manager unless a capture or
// receive modifier stops it; that manager reads the providers of the nodes the request passed,
// nearest first, as they are when it reaches each node (a node cut from the tree, or providers
// removed by a nearer provider, give nothing); the nearest value of a key wins, lists collect
// every value. The model is plain arrays of parents and providers; the library gets the same tree
// as nodes. Seeded and reproducible: a failure prints the seed and the case.

/// The value a provider sets: the nearest one wins.
private enum NearestKey: ActionContextKey {
  static let defaultValue = ""
}

/// What a provider does besides providing, when the manager runs it.
private enum ProviderEffect: CustomStringConvertible {
  case none
  /// Removes the providers of a node.
  case removeProviders(node: Int)
  /// Removes a node (with its subtree) from its parent.
  case detach(node: Int)

  var description: String {
    switch self {
    case .none: ""
    case .removeProviders(let node): " removing n\(node)'s providers"
    case .detach(let node): " detaching n\(node)"
    }
  }
}

/// One random tree and request.
private struct PerformCase: CustomStringConvertible {
  /// Node 0 is the root; every other node's parent comes before it.
  var parent: [Int]
  /// Each node's providers: the effect each has besides providing.
  var providers: [[ProviderEffect]]
  /// Whether the node carries a manager that knows `Act`.
  var manager: [Bool]
  /// Whether the node carries a manager at all (`Act` unknown to it when `manager` is false).
  var hasManager: [Bool]
  /// A capture modifier that blocks every request, or a receive modifier that stops it.
  var blocksInCapture: [Bool]
  var stopsInBubble: [Bool]
  var start: Int

  static func random(using generator: inout SplitMix64) -> PerformCase {
    let count = Int.random(in: 1...9, using: &generator)
    var parent = [-1]
    for index in 1..<max(count, 1) { parent.append(Int.random(in: 0..<index, using: &generator)) }
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
    var providers: [[ProviderEffect]] = []
    for _ in 0..<count {
      var list: [ProviderEffect] = []
      for _ in 0..<Int.random(in: 0...2, using: &generator) {
        let target = Int.random(in: 0..<count, using: &generator)
        let roll = Int.random(in: 0..<10, using: &generator)
        list.append(
          roll == 0 ? .removeProviders(node: target) : roll == 1 && target > 0 ? .detach(node: target) : .none
        )
      }
      providers.append(list)
    }
    let hasManager = (0..<count).map { $0 == 0 ? chance(80) : chance(25) }
    let manager = hasManager.map { $0 && chance(85) }
    return PerformCase(
      parent: parent, providers: providers, manager: manager, hasManager: hasManager,
      blocksInCapture: (0..<count).map { _ in chance(5) },
      stopsInBubble: (0..<count).map { index in !hasManager[index] && chance(8) },
      start: Int.random(in: 0..<count, using: &generator))
  }

  var description: String {
    (0..<parent.count).map { index in
      var text = "n\(index) (parent \(parent[index]))"
      if hasManager[index] { text += manager[index] ? " manager" : " manager without Act" }
      if blocksInCapture[index] { text += " capture-blocks" }
      if stopsInBubble[index] { text += " receive-stops" }
      for (position, effect) in providers[index].enumerated() { text += " provider\(position)\(effect)" }
      return text
    }.joined(separator: "\n") + "\nstart n\(start)"
  }
}

/// The reference: the rules as plain loops over arrays.
private final class PerformModel {
  var parent: [Int]
  var providers: [[ProviderEffect]]
  let spec: PerformCase

  init(_ spec: PerformCase) {
    self.spec = spec
    parent = spec.parent
    providers = spec.providers
  }

  func isAttached(_ node: Int) -> Bool {
    var current = node
    while current != 0 {
      current = parent[current]
      if current < 0 { return false }
    }
    return true
  }

  /// What validating `Act` from the start gives, described: a validation is all a caller gets,
  /// and it is `unavailable` wherever a perform would not be answered.
  func validate() -> String {
    let performed = run(validating: true)
    return performed.hasPrefix("validated") ? "validated\(performed.drop { $0 != ":" })" : "unavailable"
  }

  /// What performing (or validating) `Act` from the start gives, described.
  func run(validating: Bool) -> String {
    var path: [Int] = []
    var node = spec.start
    while node >= 0 {
      path.append(node)
      node = parent[node]
    }
    for index in path.reversed() where spec.blocksInCapture[index] { return "stopped at n\(index)" }
    for (position, index) in path.enumerated() {
      if spec.stopsInBubble[index] { return "stopped at n\(index)" }
      guard spec.hasManager[index] else { continue }
      var nearest = ""
      var list: [String] = []
      for passed in path[...position] where isAttached(passed) {
        for (number, effect) in providers[passed].enumerated() {
          let value = "n\(passed).\(number)"
          if nearest.isEmpty { nearest = value }
          list.append(value)
          switch effect {
          case .none: break
          case .removeProviders(let target): providers[target] = []
          case .detach(let target): parent[target] = -1
          }
        }
      }
      guard spec.manager[index] else {
        return validating ? "unavailable at n\(index)" : "unknown at n\(index)"
      }
      return "\(validating ? "validated" : "performed") at n\(index): \(nearest) \(list)"
    }
    return "no manager"
  }
}

/// The same case as nodes, managers and providers.
private final class PerformLibraryRun {
  let nodes: [Node]
  let tree: NodeTree
  /// What the action saw, set when it is performed or validated.
  var seen = ""

  init(_ spec: PerformCase) {
    nodes = (0..<spec.parent.count).map { Node("n\($0)") }
    for index in 1..<max(nodes.count, 1) { try! nodes[spec.parent[index]].addChild(nodes[index]) }
    tree = try! NodeTree(root: nodes[0])
    for (index, node) in nodes.enumerated() {
      for (number, effect) in spec.providers[index].enumerated() {
        let value = "n\(index).\(number)"
        node.provideActionContext { [unowned self] context in
          context[NearestKey.self] = value
          context.append(value, to: "all")
          switch effect {
          case .none: break
          case .removeProviders(let target): nodes[target].removeActionContextProviders()
          case .detach(let target): _ = nodes[target].removeFromParent()
          }
        }
      }
      if spec.blocksInCapture[index] { node.captureAction((any ManagedActionRequest).self) { _ in .handled } }
      if spec.stopsInBubble[index] { node.receiveAction((any ManagedActionRequest).self) { _ in .handled } }
      if spec.hasManager[index] {
        let manager = ActionManager()
        if spec.manager[index] { try! manager.register(Act(run: self)) }
        node.actionManager(manager)
      }
    }
  }

  struct Act: ManagedAction {
    unowned let run: PerformLibraryRun
    func validate(context: ActionContext) -> Validation {
      run.seen = "\(context[NearestKey.self]) \(context.values(in: "all", as: String.self))"
      return .enabled
    }
    func perform(context: ActionContext) throws {}
  }

  func describe(_ result: RequestResult<PerformResult>) -> String {
    switch result {
    case .answered(.performed, let manager): "performed at \(manager.id!): \(seen)"
    case .answered(.unknown, let manager): "unknown at \(manager.id!)"
    case .answered(let other, let manager): "\(other) at \(manager.id!)"
    case .unanswered(.handled(let node, _)): "stopped at \(node.id!)"
    case .unanswered(.unhandled): "no manager"
    case .unanswered(let outcome): "\(outcome)"
    }
  }

  func describe(_ validation: Validation) -> String {
    validation == .unavailable
      ? "unavailable" : validation == .enabled ? "validated: \(seen)" : "\(validation)"
  }
}

@Suite struct PerformModelTests {
  @Test(arguments: [1, 2, 3, 0xC0FFEE] as [UInt64])
  @MainActor func performAndValidateAgreeWithTheReferenceModel(seed: UInt64) async {
    var generator = SplitMix64(seed: seed)
    var compared = 0
    for caseNumber in 0..<1_000 {
      let spec = PerformCase.random(using: &generator)
      let expected = PerformModel(spec).run(validating: false)
      let synchronous = PerformLibraryRun(spec)
      let awaited = PerformLibraryRun(spec)
      // In a synchronous closure, `perform` is the synchronous one.
      let performSynchronously = { synchronous.nodes[spec.start].perform("menu.Act") }
      let results = [
        ("perform", synchronous.describe(performSynchronously())),
        ("awaited perform", awaited.describe(await awaited.nodes[spec.start].perform("menu.Act"))),
      ]
      // A validation stops where a perform does, and builds the same context.
      let validating = PerformLibraryRun(spec)
      let expectedValidation = PerformModel(spec).validate()
      let validated = validating.describe(validating.nodes[spec.start].validate("menu.Act"))
      for (entryPoint, actual) in results + [("validate", validated)] {
        let wanted = entryPoint == "validate" ? expectedValidation : expected
        if actual != wanted {
          Issue.record(
            """
            Seed \(seed), case \(caseNumber), \(entryPoint) differs from the model.
            \(spec)
            model:   \(wanted)
            library: \(actual)
            """)
          return
        }
        compared += 1
      }
    }
    #expect(compared == 3_000)
  }
}
