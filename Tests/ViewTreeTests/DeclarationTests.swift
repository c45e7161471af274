import TestSupport
import Testing
import ViewTree

@Suite struct DeclarationTests {
  @Test func aDeclarationBuildsTheTreeItDeclares() {
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("a").handleAction(Save.self) { _ in }
        NodeDeclaration {
          NodeDeclaration("c")
        }
      }.requiresHandling())
    #expect(
      tree.root.treeDescription()
        == Node("root") {
          Node("a").handleAction(Save.self) { _ in }
          Node { Node("c") }
        }.requiresHandling().treeDescription())
    #expect(tree.root.requiresHandling)
    #expect(tree.node(id: "a")!.trigger(Save()).handlerID == "a")
  }

  /// A node and a declaration read and set the same things the same way, so code generic over
  /// `ModifierHost` sees what it set.
  @Test func aNodeAndADeclarationReadWhatTheyWereGivenAlike() {
    func configured<Host: ModifierHost>(_ host: consuming Host) -> Host {
      host.settingAttachment(NoteKey.self, to: "note").requiresHandling()
    }
    let declaration = configured(NodeDeclaration("d"))
    #expect(declaration[attachment: NoteKey.self] == "note")
    #expect(declaration.requiresHandling)
    #expect(!NodeDeclaration("plain").requiresHandling(false).requiresHandling)
    let node = configured(Node("n"))
    #expect(node[attachment: NoteKey.self] == "note")
    #expect(node.requiresHandling)
    let updated = Node("d")
    updated.update(to: declaration)
    #expect(updated[attachment: NoteKey.self] == "note")
    #expect(updated.requiresHandling)
  }

  /// The children the two control-flow tests below declare, in order.
  static func controlFlowIDs(_ flag: Bool) -> [String?] {
    let branch: [String?] = flag ? ["if", "then", "case true"] : ["else", "case false", "case false 2"]
    let pairs: [String?] = ["pair0a"] + (flag ? ["pair0b"] : []) + ["pair0c", "pair1a", "pair1b", "pair1c"]
    let start: [String?] = ["first", "row0", "row1", "row2"] + branch
    return start + ["optional", "array0", "array1", "available"] + pairs + ["last"]
  }

  @Test func theBuilderTakesEveryControlFlowFormInOrder() {
    func ids(_ declaration: NodeDeclaration) -> [String?] { declaration.children.map(\.id) }
    let extra: NodeDeclaration? = NodeDeclaration("optional")
    let missing: NodeDeclaration? = nil
    for flag in [true, false] {
      let declaration = NodeDeclaration("root") {
        NodeDeclaration("first")
        for index in 0..<3 { NodeDeclaration("row\(index)") }
        for _ in 0..<0 { NodeDeclaration("never") }
        if flag { NodeDeclaration("if") }
        if flag { NodeDeclaration("then") } else { NodeDeclaration("else") }
        switch flag {
        case true: NodeDeclaration("case true")
        case false:
          NodeDeclaration("case false")
          NodeDeclaration("case false 2")
        }
        extra
        missing
        [NodeDeclaration("array0"), NodeDeclaration("array1")]
        if #available(macOS 10.15, *) { NodeDeclaration("available") }
        for index in 0..<2 {
          NodeDeclaration("pair\(index)a")
          if flag || index == 1 { NodeDeclaration("pair\(index)b") }
          [NodeDeclaration("pair\(index)c")]
        }
        NodeDeclaration("last")
      }
      #expect(ids(declaration) == Self.controlFlowIDs(flag))
    }
    #expect(NodeDeclaration("empty") {}.children.isEmpty)
    #expect(ids(NodeDeclaration { NodeDeclaration("only") }) == ["only"])
  }

  @Test func theNodeBuilderTakesTheSameFormsInTheSameOrder() {
    let extra: Node? = Node("optional")
    let missing: Node? = nil
    for flag in [true, false] {
      let root = Node("root") {
        Node("first")
        for index in 0..<3 { Node("row\(index)") }
        for _ in 0..<0 { Node("never") }
        if flag { Node("if") }
        if flag { Node("then") } else { Node("else") }
        switch flag {
        case true: Node("case true")
        case false:
          Node("case false")
          Node("case false 2")
        }
        extra
        missing
        [Node("array0"), Node("array1")]
        if #available(macOS 10.15, *) { Node("available") }
        for index in 0..<2 {
          Node("pair\(index)a")
          if flag || index == 1 { Node("pair\(index)b") }
          [Node("pair\(index)c")]
        }
        Node("last")
      }
      #expect(root.children.map(\.id) == Self.controlFlowIDs(flag))
      #expect(root.children.allSatisfy { $0.parent === root })
    }
    #expect(Node("empty") {}.children.isEmpty)
    #expect(Node { Node("only") }.children.map(\.id) == ["only"])
  }

  @Test func modifierQueriesAndRemovalAgreeOnNodesAndDeclarations() throws {
    let log = Log()
    func declare() -> NodeDeclaration {
      NodeDeclaration("leaf")
        .onAction { _ in log("observe") }
        .handleAction(Save.self) { _ in log("first save") }
        .onAction(Open.self) { _ in log("observe open") }
        .handleAction(Save.self) { _ in log("second save") }
        .handleAction(Open.self) { _ in log("open") }
    }
    let declaration = declare()
    #expect(declaration.hasModifier(.handle, matching: Save.self))
    #expect(declaration.hasModifier(.handle, matching: Open.self))
    #expect(!declaration.hasModifier(.observe, matching: Save.self))
    let trimmed = declaration.removingModifiers(.handle, matching: Save.self)
    #expect(!trimmed.hasModifier(.handle, matching: Save.self))
    #expect(trimmed.hasModifier(.observe, matching: Open.self))
    let node = Node(declaring: trimmed)
    #expect(node.modifiers.map(\.kind) == [.observe, .observe, .handle])
    #expect(
      node.modifiers.map { $0.actionType.map(ObjectIdentifier.init) } == [
        nil, ObjectIdentifier(Open.self), ObjectIdentifier(Open.self),
      ])
    let tree = try NodeTree(root: node)
    #expect(!node.trigger(Save()).isHandled)
    #expect(node.trigger(Open(path: "p")).isHandled)
    #expect(log.entries == ["observe", "observe", "observe open", "open"])
    // Five modifiers again: the update attaches them, in order, and the first Save handler answers.
    log.entries.removeAll()
    node.update(to: declare())
    #expect(node.modifiers.count == 5)
    #expect(node.trigger(Save()).isHandled)
    #expect(log.entries == ["observe", "first save"])
    node.removingModifiers(.handle, matching: Save.self)
    #expect(node.modifiers.map(\.kind) == [.observe, .observe, .handle])
    #expect(!node.hasModifier(.handle, matching: Save.self))
    withExtendedLifetime(tree) {}
  }

  @Test func updatingSwapsClosuresInPlaceWhenTheShapeIsTheSame() {
    let log = Log()
    func declare(_ label: String) -> NodeDeclaration {
      NodeDeclaration("root") {
        NodeDeclaration("leaf").handleAction(Open.self) { [log] open in log("\(label) \(open.path)") }
          .onAction { [log] _ in log("\(label) saw") }
      }
    }
    let tree = NodeTree(declaring: declare("first"))
    let leaf = tree.node(id: "leaf")!
    let ids = leaf.modifiers.map(\.id)
    tree.update(to: declare("second"))
    #expect(tree.node(id: "leaf") === leaf)
    #expect(leaf.modifiers.map(\.id) == ids)
    #expect(leaf.modifiers.count == 2)
    leaf.trigger(Open(path: "x"))
    // Declaration order is dispatch order; only the new closures run.
    #expect(log.entries == ["second x"])
    tree.firstResponder.trigger(Save())
    #expect(log.entries == ["second x"])
  }

  @Test func everyClosureOfALongModifierListIsSwappedInOrder() {
    // Two modifiers are kept inline in a declaration and the rest in a list: both are swapped.
    let log = Log()
    func declare(_ label: String) -> NodeDeclaration {
      NodeDeclaration("leaf")
        .onAction { [log] _ in log("\(label) 1") }
        .onAction(Open.self) { [log] _ in log("\(label) 2") }
        .onAction { [log] _ in log("\(label) 3") }
        .receiveAction(Open.self) { [log] _ in
          log("\(label) 4")
          return .unhandled
        }
        .handleAction(Open.self) { [log] _ in log("\(label) 5") }
    }
    let tree = NodeTree(declaring: declare("first"))
    let ids = tree.root.modifiers.map(\.id)
    for render in 0..<3 {
      tree.update(to: declare("render \(render)"))
      #expect(tree.root.modifiers.map(\.id) == ids)
      log.entries = []
      #expect(tree.root.trigger(Open(path: "p")).isHandled)
      #expect(log.entries == (1...5).map { "render \(render) \($0)" })
    }
  }

  @Test func updatingReplacesModifiersWhoseShapeChanged() {
    let tree = NodeTree(declaring: NodeDeclaration("root").handleAction(Save.self) { _ in })
    let before = tree.root.modifiers.map(\.id)
    tree.update(
      to: NodeDeclaration("root").onAction { _ in }.handleAction(Open.self) { _ in }.catchError { _ in })
    #expect(tree.root.modifiers.map(\.kind) == [.observe, .handle, .catchError])
    #expect(Set(tree.root.modifiers.map(\.id)).isDisjoint(with: before))
    #expect(!tree.root.trigger(Save()).isHandled)
    #expect(tree.root.trigger(Open(path: "p")).isHandled)
    tree.update(to: NodeDeclaration("root"))
    #expect(tree.root.modifiers.isEmpty)
  }

  @Test func childrenAreMatchedByIDThenByPositionAndKeepTheirIdentity() throws {
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("a")
        NodeDeclaration()
        NodeDeclaration("b").focusable()
        NodeDeclaration()
      })
    let a = tree.node(id: "a")!
    let b = tree.node(id: "b")!
    let firstUnnamed = tree.root.children[1]
    let secondUnnamed = tree.root.children[3]
    try tree.focus(b)
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("b")
        NodeDeclaration("new")
        NodeDeclaration()
        NodeDeclaration("a")
      })
    let children = tree.root.children
    #expect(children.map(\.id) == ["b", "new", nil, "a"])
    #expect(children[0] === b)
    #expect(children[2] === firstUnnamed)
    #expect(children[3] === a)
    #expect(secondUnnamed.parent == nil)
    #expect(tree.focusedNode === b)
    #expect(tree.contains(children[1]))
  }

  @Test func removingTheFocusedNodeMovesFocusToItsParent() throws {
    let tree = NodeTree(
      declaring: NodeDeclaration("root") {
        NodeDeclaration("list") { NodeDeclaration("row").focusable() }.focusable()
      })
    try tree.focus(id: "row")
    weak let row = tree.node(id: "row")
    tree.update(to: NodeDeclaration("root") { NodeDeclaration("list").focusable() })
    #expect(tree.focusedNode === tree.node(id: "list"))
    #expect(row == nil)
  }

  @Test func repeatedIDsAreMatchedInOrder() {
    let tree = NodeTree(
      declaring: NodeDeclaration {
        NodeDeclaration("row")
        NodeDeclaration("row")
      })
    let rows = tree.root.children
    tree.update(
      to: NodeDeclaration {
        NodeDeclaration("row")
        NodeDeclaration("other")
        NodeDeclaration("row")
      })
    #expect(tree.root.children[0] === rows[0])
    #expect(tree.root.children[2] === rows[1])
  }

  @Test func anUpdateDuringADispatchFromTheNodeItRemovesIsSafe() {
    let tree = NodeTree(declaring: NodeDeclaration("root"))
    let log = Log()
    tree.update(
      to: NodeDeclaration("root") {
        NodeDeclaration("leaf").handleAction(Save.self) { [unowned tree] _ in
          tree.update(to: NodeDeclaration("root").handleAction(Save.self) { _ in log("root") })
          log("leaf")
        }
      }.onAction { _ in log("old observer") })
    let outcome = tree.node(id: "leaf")!.trigger(Save())
    #expect(outcome.handlerID == "leaf")
    #expect(log.entries == ["leaf"])
    #expect(tree.root.children.isEmpty)
    #expect(tree.root.trigger(Save()).handlerID == "root")
  }

  @Test func aDeepDeclarationUpdatesWithoutRecursion() {
    var declaration = NodeDeclaration("leaf")
    for level in 0..<5_000 { declaration = NodeDeclaration("n\(level)") { declaration } }
    let tree = NodeTree(declaring: declaration)
    let leaf = tree.node(id: "leaf")!
    tree.update(to: declaration)
    #expect(tree.node(id: "leaf") === leaf)
    #expect(leaf.depth == 5_000)
  }

  @Test func aDeclarationRespondsAndReportsADuplicateResponder() throws {
    struct Lookup: Request { typealias Result = Int }
    let declaration = NodeDeclaration("root").respond(to: Lookup.self) { _ in 42 }
    let twice = declaration.respond(to: Lookup.self) { _ in 1 }
    #expect(
      twice.problems.map { $0 as? ViewTreeError } == [
        .duplicateResponder(requestType: "Lookup", node: "declaration root")
      ])
    let tree = NodeTree(declaring: declaration)
    #expect(try tree.root.request(Lookup()) == 42)
  }

  @Test func aDeclarationsProblemsReachANodeWithNoAttachments() throws {
    struct Ask: Request { typealias Result = Int }
    let declaration = NodeDeclaration("n")
      .respond(to: Ask.self, with: { _ in 1 }).respond(to: Ask.self, with: { _ in 2 })
    #expect(declaration.problems.count == 1)

    // Through a node made from it, a tree made from it, and an update.
    #expect(Node(declaring: declaration).problems.count == 1)
    let tree = NodeTree(declaring: declaration)
    #expect(tree.root.problems.count == 1)
    var reported: [String] = []
    tree.onProblem = { problem, node in reported.append("\(node.label): \(problem)") }
    let plain = NodeTree(declaring: NodeDeclaration("n"))
    plain.onProblem = tree.onProblem
    plain.update(to: declaration)
    #expect(plain.root.problems.count == 1)
    tree.update(to: declaration)
    #expect(reported.count == 2)
    #expect(reported.allSatisfy { $0.hasPrefix("n: ") })

    // The first responder is the one applied.
    #expect(try plain.root.request(Ask()) == 1)

    // A later declaration without the problem clears it.
    plain.update(to: NodeDeclaration("n"))
    #expect(plain.root.problems.isEmpty)
    #expect(throws: (any Error).self) { try plain.root.request(Ask()) }
  }
}

/// A miniature declarative toolkit: views with a `body`, state that changes, and a renderer that
/// re-declares the whole tree after every change, as SwiftUI-like toolkits do.
@MainActor
@Suite struct MiniToolkitTests {
  struct Increment: Action {}
  struct Rename: Action { var name: String }

  final class Model {
    var count = 0
    var names: [String] = ["a", "b", "c"]
  }

  protocol View { func body(_ model: Model) -> NodeDeclaration }

  struct Row: View {
    let name: String
    func body(_ model: Model) -> NodeDeclaration {
      NodeDeclaration(name).focusable().handleAction(Rename.self) { rename in
        if let index = model.names.firstIndex(of: name) { model.names[index] = rename.name }
      }
    }
  }

  struct Window: View {
    func body(_ model: Model) -> NodeDeclaration {
      // The handler captures the count as of this render: it must be the latest one that runs.
      let seen = model.count
      return NodeDeclaration("window") {
        for name in model.names { Row(name: name).body(model) }
      }
      .handleAction(Increment.self) { _ in model.count = seen + 1 }
    }
  }

  @Test func handlersSeeTheLatestStateAndNothingIsDuplicatedOrLeaked() throws {
    let model = Model()
    let tree = NodeTree(declaring: Window().body(model))
    let render = { tree.update(to: Window().body(model)) }
    try tree.focus(id: "b")
    let focused = tree.focusedNode
    var released: [() -> Node?] = []
    for round in 0..<100 {
      let outcome = tree.firstResponder.trigger(Increment())
      #expect(outcome.handlerID == "window")
      #expect(model.count == round + 1)
      // A row comes and goes every other render.
      if round % 2 == 0 {
        model.names.append("extra")
      } else {
        weak let extra = tree.node(id: "extra")
        released.append { extra }
        model.names.removeAll { $0 == "extra" }
      }
      render()
      #expect(tree.root.modifiers.count == 1)
      #expect(tree.root.children.allSatisfy { $0.modifiers.count == 1 })
      #expect(tree.focusedNode === focused)
    }
    #expect(model.count == 100)
    #expect(tree.root.children.map(\.id) == ["a", "b", "c"])
    #expect(released.allSatisfy { $0() == nil })
  }

  @Test func anUnchangedRenderKeepsEveryNodeAndModifier() {
    let model = Model()
    let tree = NodeTree(declaring: Window().body(model))
    var snapshot: [(Node, [ModifierID])] = []
    tree.root.walkSubtree { snapshot.append(($0, $0.modifiers.map(\.id))) }
    for _ in 0..<100 { tree.update(to: Window().body(model)) }
    var after: [(Node, [ModifierID])] = []
    tree.root.walkSubtree { after.append(($0, $0.modifiers.map(\.id))) }
    #expect(after.count == snapshot.count)
    for (old, new) in zip(snapshot, after) {
      #expect(old.0 === new.0)
      #expect(old.1 == new.1)
    }
  }

  @Test func renamingThroughTheTreeReRendersTheRow() {
    let model = Model()
    let tree = NodeTree(declaring: Window().body(model))
    tree.node(id: "b")!.trigger(Rename(name: "z"))
    tree.update(to: Window().body(model))
    #expect(tree.root.children.map(\.id) == ["a", "z", "c"])
    #expect(tree.node(id: "z")!.trigger(Rename(name: "y")).handlerID == "z")
    #expect(model.names == ["a", "y", "c"])
  }
}

@Suite struct ModifierFormTests {
  @Test func everyModifierButLiftRespondAndCatchHasValuelessTypedForms() {
    let log = Log()
    let tree = NodeTree("root") {
      Node("leaf")
        .captureAction(Save.self) { _ in
          log("capture")
          return .unhandled
        }
        .onAction(Save.self) { _ in log("observe") }
        .receiveAction(Save.self) { _ in
          log("receive")
          return .unhandled
        }
        .transformAction(Save.self) { _ in
          log("transform")
          return Open(path: "p")
        }
        .handleAction(Open.self) { _ in log("handle") }
    }
    #expect(tree.node(id: "leaf")!.trigger(Save()).finalAction is Open)
    #expect(log.entries == ["capture", "observe", "receive", "transform", "handle"])
  }

  @Test func valuelessFormsOfClassAndProtocolTypesMatchSubclassesAndConformingTypes() {
    let log = Log()
    let leaf = Node("leaf")
      .captureAction(BaseCommand.self) { _ in
        log("capture base")
        return .unhandled
      }
      .onAction((any DocumentAction).self) { _ in log("observe document") }
      .receiveAction(BaseCommand.self) { _ in
        log("receive base")
        return .unhandled
      }
      .onAction(SpecialCommand.self) { _ in log("observe special") }
      .handleAction((any DocumentAction).self) { _ in log("handle document") }
      .handleAction(BaseCommand.self) { _ in log("handle base") }
    let tree = NodeTree("root") { leaf }
    #expect(leaf.trigger(SpecialCommand(name: "x")).isHandled)
    #expect(log.entries == ["capture base", "receive base", "observe special", "handle base"])
    log.entries.removeAll()
    #expect(leaf.trigger(BaseCommand(name: "y")).isHandled)
    #expect(log.entries == ["capture base", "receive base", "handle base"])
    log.entries.removeAll()
    #expect(leaf.trigger(Close()).isHandled)
    #expect(log.entries == ["observe document", "handle document"])
    log.entries.removeAll()
    #expect(!leaf.trigger(Save()).isHandled)
    #expect(log.entries.isEmpty)
    withExtendedLifetime(tree) {}
  }
}
