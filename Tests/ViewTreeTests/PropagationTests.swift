import TestSupport
import Testing
import ViewTree

/// The article "Propagation rules" (`ViewTree.docc/PropagationRules.md`), rules 2-6 and 8-10; rule 1 (the path snapshot) is in
/// `MutationDuringDispatchTests`, rule 7 (errors) in `ErrorPropagationTests`.
@Suite struct PropagationTests {
  @Test func captureRunsRootToTargetThenBubbleRunsTargetToRoot() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("middle") {
        Node("target")
          .captureAction { _ in
            log("capture target")
            return .unhandled
          }
          .onAction { _ in log("bubble target") }
      }
      .onAction { _ in log("bubble middle") }
      .captureAction { _ in
        log("capture middle")
        return .unhandled
      }
    }
    tree.root
      .onAction { _ in log("bubble root") }
      .captureAction { _ in
        log("capture root")
        return .unhandled
      }
    try #require(tree.node(id: "target")).trigger(Save())
    #expect(
      log.entries == [
        "capture root", "capture middle", "capture target", "bubble target", "bubble middle", "bubble root",
      ])
  }

  @Test func modifiersOnOneNodeRunInAttachmentOrder() throws {
    let log = Log()
    let tree = NodeTree("root") {}
    tree.root
      .captureAction { _ in
        log("capture 1")
        return .unhandled
      }
      .onAction { _ in log("observe 1") }
      .captureAction { _ in
        log("capture 2")
        return .unhandled
      }
      .receiveAction { _ in
        log("receive 2")
        return .unhandled
      }
      .onAction { _ in log("observe 3") }
    tree.firstResponder.trigger(Save())
    #expect(log.entries == ["capture 1", "capture 2", "observe 1", "receive 2", "observe 3"])
  }

  @Test func aCaptureThatHandlesStopsTheActionBeforeItBubbles() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("modal") {
        Node("button").handleAction(Save.self) { _ in log("button") }
      }
      .captureAction { action in action is Save ? .handled : .unhandled }
    }
    let button = try #require(tree.node(id: "button"))
    #expect(button.trigger(Save()).handlerID == "modal")
    #expect(log.entries.isEmpty)
    #expect(button.trigger(Open(path: "")).isHandled == false)
  }

  @Test func receiveHandledStopsLaterModifiersOnTheNodeAndAbove() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target")
        .receiveAction { _ in
          log("receive")
          return .handled
        }
        .onAction { _ in log("observer after receive") }
    }
    tree.root.onAction { _ in log("root") }
    let outcome = try #require(tree.node(id: "target")).trigger(Save())
    #expect(outcome.handlerID == "target")
    #expect(log.entries == ["receive"])
  }

  @Test func receiveUnhandledLetsTheActionGoOn() throws {
    let tree = NodeTree("root") {
      Node("target").receiveAction { _ in .unhandled }
    }
    tree.root.handleAction { _ in }
    #expect(try #require(tree.node(id: "target")).trigger(Save()).handlerID == "root")
  }

  @Test func handleStopsTheAction() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target")
        .handleAction { _ in log("handle") }
        .onAction { _ in log("after") }
    }
    tree.root.onAction { _ in log("root") }
    #expect(try #require(tree.node(id: "target")).trigger(Save()).handlerID == "target")
    #expect(log.entries == ["handle"])
  }

  @Test func transformedActionReachesLaterModifiersAndAncestors() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target")
        .onAction { action in log("before: \(action)") }
        .transformAction(Open.self) { open in Open(path: open.path + "/more") }
        .onAction { action in log("same node: \(action)") }
    }
    tree.root.handleAction(Open.self) { open in log("root: \(open.path)") }
    let trace = ActionTrace()
    let outcome = try #require(tree.node(id: "target")).trigger(Open(path: "/a"), tracing: trace)
    #expect(
      log.entries == [
        "before: Open(path: \"/a\")", "same node: Open(path: \"/a/more\")", "root: /a/more",
      ])
    #expect((outcome.finalAction as? Open)?.path == "/a/more")
    let transform = try #require(trace.steps.first { $0.modifier?.kind == .transform })
    #expect((transform.actionBefore as? Open)?.path == "/a")
    #expect((transform.actionAfter as? Open)?.path == "/a/more")
  }

  @Test func aTransformMayChangeTheActionsType() throws {
    let tree = NodeTree("root") {
      Node("target").transformAction(Save.self) { _ in Open(path: "saved") }
    }
    tree.root
      .handleAction(Save.self) { _ in Issue.record("the Save no longer exists above the transform") }
      .handleAction(Open.self) { _ in }
    let outcome = try #require(tree.node(id: "target")).trigger(Save())
    #expect(outcome.handlerID == "root")
    #expect((outcome.finalAction as? Open)?.path == "saved")
  }

  @Test func typedModifiersIgnoreOtherTypesWithoutCountingAVisit() throws {
    let tree = NodeTree("root") {
      Node("target")
        .handleAction(Open.self) { _ in }
        .receiveAction(Open.self) { _ in .handled }
        .captureAction(Open.self) { _ in .handled }
        .transformAction(Open.self) { _ in Save() }
        .onAction(Open.self) { _ in }
    }
    let trace = ActionTrace()
    let outcome = try #require(tree.node(id: "target")).trigger(Save(), tracing: trace)
    #expect(outcome.isHandled == false)
    #expect(trace.steps.isEmpty)
  }

  @Test func typedModifiersMatchProtocolsTheActionConformsTo() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target")
    }
    tree.root
      .onAction((any DocumentAction).self) { action in log("document action \(type(of: action))") }
      .handleAction((any DocumentAction).self) { _ in }
    let target = try #require(tree.node(id: "target"))
    #expect(target.trigger(Close()).handlerID == "root")
    #expect(target.trigger(Print()).handlerID == "root")
    #expect(target.trigger(Save()).isHandled == false)
    #expect(log.entries == ["document action Close", "document action Print"])
  }

  @Test func protocolAndClassMatchesStayRightAcrossManyActionTypes() throws {
    // The tree remembers what casts said per pair of types in a small table: more pairs than it
    // has slots, interleaved, must each still match exactly as a cast says.
    struct Tagged<Tag>: Action {}
    struct DocumentTagged<Tag>: DocumentAction {}
    let log = Log()
    let tree = NodeTree("root") { Node("target") }
    tree.root
      .onAction((any DocumentAction).self) { _ in log("document") }
      .onAction(BaseCommand.self) { _ in log("command") }
    let target = try #require(tree.node(id: "target"))
    // 80 action types of two kinds, made by nesting the generics, and four more.
    func variants<T>(_ type: T.Type, _ count: Int) -> [(any Action, String?)] {
      guard count > 0 else { return [] }
      return [(Tagged<T>(), nil), (DocumentTagged<T>(), "document")] + variants(Tagged<T>.self, count - 1)
    }
    func actions() -> [(any Action, String?)] {
      variants(Int.self, 40) + [
        (SpecialCommand(name: "s"), "command"), (BaseCommand(name: "b"), "command"), (Close(), "document"),
        (Save(), nil),
      ]
    }
    for round in 0..<3 {
      for (action, expected) in actions().shuffled() {
        log.entries.removeAll()
        target.trigger(action)
        #expect(log.entries == (expected.map { [$0] } ?? []), "round \(round): \(type(of: action))")
      }
    }
  }

  @Test func typedModifiersMatchSubclasses() throws {
    let log = Log()
    let tree = NodeTree("root") {}
    tree.root
      .onAction(SpecialCommand.self) { command in log("special \(command.name)") }
      .handleAction(BaseCommand.self) { command in log("base \(command.name)") }
    tree.firstResponder.trigger(SpecialCommand(name: "a"))
    tree.firstResponder.trigger(BaseCommand(name: "b"))
    #expect(log.entries == ["special a", "base a", "base b"])
  }

  @Test func liftEmbedsChildActionsInTheParentType() throws {
    var received: [AppAction] = []
    let tree = NodeTree("app") {
      Node("player") {
        Node("controls")
      }
      .liftAction(AppAction.movie)
    }
    tree.root.handleAction(AppAction.self) { action in received.append(action) }
    let controls = try #require(tree.node(id: "controls"))
    controls.trigger(MovieAction.play)
    controls.trigger(AppAction.quit)
    #expect(received == [.movie(.play), .quit])
  }

  @Test func observersSeeActionsButCannotStopOrChangeThem() throws {
    var observed: [String] = []
    let tree = NodeTree("root") {
      Node("target").onAction { action in observed.append("\(action)") }
    }
    tree.root.handleAction(Ping.self) { ping in #expect(ping.count == 1) }
    let outcome = try #require(tree.node(id: "target")).trigger(Ping(count: 1))
    #expect(outcome.handlerID == "root")
    #expect(observed == ["Ping(count: 1)"])
  }

  @Test func theTraceRecordsEveryStepAndTheStepObserverSeesThem() throws {
    let tree = NodeTree("root") {
      Node("target")
        .onAction { _ in }
        .transformAction(Save.self) { _ in Open(path: "x") }
        .handleAction(Save.self) { _ in }
    }
    tree.root
      .captureAction { _ in .unhandled }
      .handleAction(Open.self) { _ in }
    var observed: [String] = []
    tree.stepObserver = { step in observed.append(step.description) }
    let trace = ActionTrace()
    try #require(tree.node(id: "target")).trigger(Save(), tracing: trace)
    let expected = [
      "capture root captureAction: passed",
      "bubble root/target onAction: passed",
      "bubble root/target transformAction(Save): transformed Save() -> Open(path: \"x\")",
      "bubble root handleAction(Open): handled",
    ]
    #expect(trace.steps.map(\.description) == expected)
    #expect(observed == expected)
    #expect(trace.steps.map(\.phase) == [.capture, .bubble, .bubble, .bubble])
  }

  @Test func aHandlerThatTriggersRunsTheNestedActionToCompletionFirst() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("middle") {
        Node("target")
      }
      .onAction(Save.self) { _ in log("outer continues at middle") }
    }
    let target = try #require(tree.node(id: "target"))
    let trigger = target.triggerAction
    target.onAction(Save.self) { _ in
      log("outer at target")
      let nested = trigger(Open(path: "nested"))
      log("nested \(nested.isHandled ? "handled" : "unhandled")")
    }
    tree.root
      .handleAction(Open.self) { _ in log("nested handled at root") }
      .handleAction(Save.self) { _ in log("outer handled at root") }
    var levels: [Int] = []
    tree.stepObserver = { levels.append($0.nestingLevel) }
    target.trigger(Save())
    #expect(
      log.entries == [
        "outer at target", "nested handled at root", "nested handled", "outer continues at middle",
        "outer handled at root",
      ])
    // A step is recorded when its modifier returns, so the nested dispatch's step comes first.
    #expect(levels == [1, 0, 0, 0])
  }

  @Test func aCycleOfHandlersRetriggeringEachOtherEndsAtTheLimit() throws {
    let tree = NodeTree("root") {
      Node("target")
    }
    let target = try #require(tree.node(id: "target"))
    let trigger = target.triggerAction
    var pings = 0
    var refusals: [ActionOutcome] = []
    // Ping and Save re-trigger each other forever.
    target.handleAction(Ping.self) { _ in
      pings += 1
      let outcome = trigger(Save())
      if case .notDispatched = outcome { refusals.append(outcome) }
    }
    tree.root.handleAction(Save.self) { _ in
      let outcome = trigger(Ping(count: 0))
      if case .notDispatched = outcome { refusals.append(outcome) }
    }
    let outcome = target.trigger(Ping(count: 0))
    #expect(outcome.handlerID == "target")
    #expect(pings == 32)
    #expect(refusals.count == 1)
    guard case .notDispatched(.reentrancyLimit(64)) = refusals.first else {
      Issue.record("expected the 65th nested dispatch to be refused")
      return
    }

    try tree.setReentrancyLimit(4)
    pings = 0
    target.trigger(Ping(count: 0))
    #expect(pings == 2)
  }

  @Test func outcomeNamesTheHandlerAndTheFinalAction() throws {
    let tree = NodeTree("root") {
      Node("target")
    }
    tree.root.handleAction(Open.self) { _ in }
    let outcome = try #require(tree.node(id: "target")).trigger(Open(path: "p"))
    guard case .handled(let node, let action) = outcome else {
      Issue.record("expected handled, got \(outcome)")
      return
    }
    #expect(node === tree.root)
    #expect((action as? Open)?.path == "p")
    #expect(outcome.description == "handled by root: Open(path: \"p\")")
    #expect(outcome.error == nil)
  }
}
