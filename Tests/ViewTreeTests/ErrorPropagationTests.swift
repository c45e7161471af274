import TestSupport
import Testing
import ViewTree

/// The article "Propagation rules" (`ViewTree.docc/PropagationRules.md`), rule 7: thrown errors stop the action and travel outward to `catchError` modifiers.
@Suite struct ErrorPropagationTests {
  @Test func anErrorIsCaughtTwoLevelsUp() throws {
    let tree = NodeTree("root") {
      Node("middle") {
        Node("target").handleAction(Save.self) { _ in throw TestError(name: "disk full") }
      }
    }
    var caught: [TestError] = []
    tree.root.catchError(TestError.self) { error in caught.append(error) }
    let target = try #require(tree.node(id: "target"))
    let outcome = target.trigger(Save())
    guard case .caught(let error, let catcher, let thrower) = outcome else {
      Issue.record("expected caught, got \(outcome)")
      return
    }
    #expect(error as? TestError == TestError(name: "disk full"))
    #expect(catcher === tree.root)
    #expect(thrower === target)
    #expect(caught == [TestError(name: "disk full")])
  }

  @Test func onlyCatchModifiersAttachedAfterTheThrowingOneOnItsNodeSeeTheError() throws {
    let log = Log()
    let tree = NodeTree("root") {}
    tree.root
      .catchError { _ in log("attached before") }
      .handleAction(Save.self) { _ in throw TestError(name: "x") }
      .catchError { _ in log("attached after") }
    let outcome = tree.firstResponder.trigger(Save())
    #expect(log.entries == ["attached after"])
    #expect(outcome.error as? TestError == TestError(name: "x"))
  }

  @Test func aThrownErrorStopsTheActionFromBubbling() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("target").receiveAction { _ in throw TestError(name: "receive") }
    }
    tree.root
      .onAction { _ in log("root saw the action") }
      .catchError { _ in log("root caught") }
    try #require(tree.node(id: "target")).trigger(Save())
    #expect(log.entries == ["root caught"])
  }

  @Test func aCatchMayRethrowAnotherErrorOutward() throws {
    let tree = NodeTree("root") {
      Node("middle") {
        Node("target").transformAction { _ in throw TestError(name: "inner") }
      }
      .catchError(TestError.self) { _ in throw OtherError() }
    }
    tree.root.catchError(OtherError.self) { _ in }
    let outcome = try #require(tree.node(id: "target")).trigger(Save())
    guard case .caught(let error, let catcher, let thrower) = outcome else {
      Issue.record("expected caught, got \(outcome)")
      return
    }
    #expect(error is OtherError)
    #expect(catcher === tree.root)
    #expect(thrower.id == "middle")
  }

  @Test func anUncaughtErrorFailsTheDispatchAndNamesTheThrower() throws {
    let tree = NodeTree("root") {
      Node("target").handleAction { _ in throw TestError(name: "nobody catches") }
    }
    tree.root.catchError(OtherError.self) { _ in Issue.record("wrong error type caught") }
    var unhandledCalls = 0
    tree.onUnhandled = { _, _ in unhandledCalls += 1 }
    let outcome = try #require(tree.node(id: "target")).trigger(Save())
    guard case .failed(let error, let thrower) = outcome else {
      Issue.record("expected failed, got \(outcome)")
      return
    }
    #expect(error as? TestError == TestError(name: "nobody catches"))
    #expect(thrower.id == "target")
    #expect(unhandledCalls == 0)
    #expect(outcome.description == "failed: error TestError(name: \"nobody catches\") thrown by root/target")
  }

  @Test func anErrorThrownInTheCapturePhaseTravelsOutwardFromTheCapturingNode() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("modal") {
        Node("target").catchError { _ in log("target must not see it") }
      }
      .captureAction { _ in throw TestError(name: "capture") }
      .catchError { _ in log("modal caught") }
    }
    let outcome = try #require(tree.node(id: "target")).trigger(Save())
    #expect(log.entries == ["modal caught"])
    #expect(outcome.error is TestError)
  }

  @Test func theTraceRecordsTheThrowAndTheCatch() throws {
    let tree = NodeTree("root") {
      Node("target").handleAction(Save.self) { _ in throw TestError(name: "t") }
    }
    tree.root.catchError { _ in }
    let trace = ActionTrace()
    try #require(tree.node(id: "target")).trigger(Save(), tracing: trace)
    #expect(
      trace.steps.map(\.description) == [
        "bubble root/target handleAction(Save): threw TestError(name: \"t\")",
        "error root catchError: caught TestError(name: \"t\")",
      ])
  }
}
