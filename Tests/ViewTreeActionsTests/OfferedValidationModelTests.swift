import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

private enum FirstKey: ActionContextKey {
  static let defaultValue = ""
}

private enum SecondKey: ActionContextKey {
  static let defaultValue = 0
}

/// An action whose validation shows everything its context holds: the provided values, the
/// sender and the identifier's arguments, so that two validations agree only if they saw the same.
private struct Revealing: ManagedAction {
  func validate(context: ActionContext) -> Validation {
    let sender: String =
      switch context.sender {
      case let node as Node: "node \(node.path)"
      case let binding as KeyBinding: "binding \(binding)"
      case is ActionManager: "manager"
      default: "other \(type(of: context.sender))"
      }
    let first = context[FirstKey.self]
    let second = context[SecondKey.self]
    return Validation(
      isEnabled: (first.count + second) % 3 != 0,
      title: "\(first) \(second) \(sender) \(context.identifier.text)")
  }
  func perform(context: ActionContext) throws {}
}

/// The list of what a node offers validates its entries against the providers it gathered once:
/// each must equal what a separate validation from the entry's sender gives, whatever the tree.
@Suite struct OfferedValidationModelTests {
  /// A random tree of up to 30 nodes with providers, items, bindings, one or two managers (or
  /// none), and now and then a modifier that sees validation requests (so that each must be sent).
  func randomTree(_ random: inout SplitMix64) throws -> (NodeTree, [Node]) {
    let names = ["Save", "Open", "Close", "Zoom(level: 2)", "menu.Save", "Find", "Unknown"]
    let managers = (0..<2).map { _ in ActionManager() }
    for manager in managers {
      for name in ["Save", "Open", "Close", "Zoom", "Find"] where Bool.random(using: &random) {
        try manager.register(Revealing(), as: name)
      }
    }
    let root = Node("n0")
    var nodes = [root]
    for index in 1..<Int.random(in: 2...30, using: &random) {
      let node = Node("n\(index)")
      try nodes.randomElement(using: &random)!.addChild(node)
      nodes.append(node)
    }
    var keys = 0
    for (index, node) in nodes.enumerated() {
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1: node.provideActionContext { $0[FirstKey.self] = "p\(index)" }
      case 2: node.provideActionContext { $0[SecondKey.self] = index }
      case 3:
        node.provideActionContext {
          $0[FirstKey.self] = "q\(index)"
          $0[SecondKey.self] = index * 2
        }
      default: break
      }
      if Int.random(in: 0..<4, using: &random) == 0 {
        node.actionItem(names.randomElement(using: &random)!)
      }
      for _ in 0..<Int.random(in: 0...2, using: &random) {
        keys += 1
        node.bindKey(
          "ctrl+\(Character(UnicodeScalar(UInt8(97 + keys % 26))))", to: names.randomElement(using: &random)!)
      }
      switch Int.random(in: 0..<30, using: &random) {
      case 0: node.onAction { _ in }
      case 1: node.captureAction((any ManagedActionRequest).self) { _ in .unhandled }
      case 2: node.onAction(ValidationRequest.self) { _ in }
      default: break
      }
    }
    if Bool.random(using: &random) { root.actionManager(managers[0]) }
    if Bool.random(using: &random) { nodes.randomElement(using: &random)!.actionManager(managers[1]) }
    return (try NodeTree(root: root), nodes)
  }

  @Test func eachEntryValidatesAsASeparateValidationFromItsSenderWould() throws {
    var random = SplitMix64(seed: 49)
    var compared = 0
    for _ in 0..<300 {
      let (tree, nodes) = try randomTree(&random)
      let start = nodes.randomElement(using: &random)!
      for entry in tree.offeredActions(at: start) {
        let first = entry.offers[0]
        let expected: Validation
        switch first.source {
        case .item: expected = start.validate(entry.identifier, sender: first.node)
        case .binding: expected = start.validate(entry.identifier, sender: first.binding)
        case .manager: expected = start.validate(entry.identifier)
        case .focusMove: continue
        }
        #expect(entry.validation == expected, "\(entry.identifier) from \(start.path) in\n\(tree.root)")
        compared += 1
      }
    }
    // The trees offered something to compare.
    #expect(compared > 1_000)
  }

  /// An action that runs `change` on its first validation, then reveals what it sees.
  private struct Changing: ManagedAction {
    let change: () -> Void
    func validate(context: ActionContext) -> Validation {
      change()
      return Revealing().validate(context: context)
    }
    func perform(context: ActionContext) throws {}
  }

  @Test func aValidationThatChangesThePathIsSeenByTheNext() throws {
    let manager = ActionManager()
    let tree = NodeTree("root") {
      Node("panel") {
        Node("leaf").bindKey("ctrl+a", to: "Change").bindKey("ctrl+b", to: "Open").bindKey(
          "ctrl+c", to: "Close")
      }
      .provideActionContext { $0[FirstKey.self] = "panel" }
    }
    let panel = try #require(tree.node(id: "panel"))
    var changed = false
    try manager.register(
      Changing { [unowned panel] in
        guard !changed else { return }
        changed = true
        // The panel stops providing, and a new provider below it provides something else.
        panel.removeActionContextProviders()
        panel.children[0].provideActionContext { $0[SecondKey.self] = 7 }
      }, as: "Change")
    try manager.register(Revealing(), as: "Open")
    try manager.register(Revealing(), as: "Close")
    tree.root.actionManager(manager)
    let leaf = try #require(tree.node(id: "leaf"))
    let titles = tree.offeredActions(at: leaf, includingRegistered: false)
      .filter { $0.offers[0].source == .binding }.map { $0.validation.title ?? "" }
    #expect(
      titles == [
        "panel 0 binding ctrl+a -> Change (on root/panel/leaf) Change",
        " 7 binding ctrl+b -> Open (on root/panel/leaf) Open",
        " 7 binding ctrl+c -> Close (on root/panel/leaf) Close",
      ])
  }
}
