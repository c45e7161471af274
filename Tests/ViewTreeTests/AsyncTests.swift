import Foundation
import TestSupport
import Testing
import ViewTree

@Suite struct AsyncTests {
  @Test @MainActor func anAwaitedTriggerRunsAsyncHandlersOnTheCallersActor() async throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("leaf")
    }
    tree.root.handleAction(Save.self) { (_: Save) async throws in
      MainActor.assertIsolated()
      await Task.yield()
      log("saved")
    }
    let outcome = await tree.node(id: "leaf")!.trigger(Save())
    log("awaited")
    #expect(outcome.handler === tree.root)
    #expect(log.entries == ["saved", "awaited"])
  }

  @Test func asyncHandlerErrorsReachCatchersAndTheAwaitingCaller() async throws {
    let tree = NodeTree("root") {
      Node("leaf").handleAction(Save.self) { (_: Save) async throws in
        await Task.yield()
        throw TestError(name: "disk")
      }
    }
    var caught: [String] = []
    tree.root.catchError(TestError.self) { error in caught.append(error.name) }
    let outcome = await tree.node(id: "leaf")!.trigger(Save())
    guard case .caught(let error, let catcher, let thrower) = outcome else {
      Issue.record("expected caught, got \(outcome)")
      return
    }
    #expect(error as? TestError == TestError(name: "disk"))
    #expect(catcher === tree.root)
    #expect(thrower.id == "leaf")
    #expect(caught == ["disk"])
  }

  @Test func aSynchronousTriggerReportsAnAsyncHandlerInsteadOfSkippingIt() throws {
    let tree = NodeTree("root") {
      Node("leaf").handleAction(Save.self) { (_: Save) async throws in }
    }
    let leaf = try #require(tree.node(id: "leaf"))
    let triggerSynchronously = { leaf.trigger(Save()) }
    let outcome = triggerSynchronously()
    guard case .failed(let error, let thrower) = outcome else {
      Issue.record("expected failed, got \(outcome)")
      return
    }
    #expect(error as? ViewTreeError == .asynchronousHandler(node: "root/leaf"))
    #expect(thrower === leaf)
  }

  @Test func asyncRespondersAnswerAwaitedRequests() async throws {
    let tree = NodeTree("root") {
      Node("middle") {
        Node("leaf")
      }
      .respond(to: FetchName.self) { (request: FetchName) async throws -> String in
        await Task.yield()
        return "async #\(request.id)"
      }
    }
    #expect(try await tree.node(id: "leaf")!.request(FetchName(id: 9)) == "async #9")
    // Synchronous responders answer awaited requests too.
    tree.root.respond(to: CountRows.self) { _ in 5 }
    #expect(try await tree.node(id: "leaf")!.request(CountRows()) == 5)
    do {
      _ = try await tree.node(id: "leaf")!.request(FetchProfile())
      Issue.record("expected unanswered")
    } catch {
      guard case .unanswered = error.reason else {
        Issue.record("expected unanswered, got \(error.reason)")
        return
      }
    }
  }

  @Test @MainActor func cancellationOfTheAwaitingTaskIsPassedOn() async throws {
    let started = Log()
    let tree = NodeTree("root") {}
    tree.root.handleAction(Save.self) { (_: Save) async throws in started("started") }
    // The tree stays on the main actor; the task reports back only what it saw.
    let task = Task { @MainActor () -> (cancelled: Bool, description: String) in
      withUnsafeCurrentTask { $0?.cancel() }
      let outcome = await tree.firstResponder.trigger(Save())
      return (outcome.error is CancellationError, "\(outcome)")
    }
    let result = await task.value
    #expect(result.cancelled, "\(result.description)")
    #expect(started.entries.isEmpty)
  }

  @Test @MainActor func handlersSeeCancellationThatArrivesWhileTheyRun() async throws {
    let tree = NodeTree("root") {}
    tree.root.handleAction(Save.self) { (_: Save) async throws in
      while !Task.isCancelled { await Task.yield() }
      throw CancellationError()
    }
    let task = Task { @MainActor () -> Bool in
      (await tree.firstResponder.trigger(Save())).error is CancellationError
    }
    await Task.yield()
    task.cancel()
    #expect(await task.value)
  }

  @Test func nodesRemovedWhileAHandlerIsSuspendedAreSkippedAndStayValid() async throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("middle") {
        Node("leaf")
      }
      .onAction { _ in log("middle") }
    }
    tree.root.onAction { _ in log("root") }
    let middle = try #require(tree.node(id: "middle"))
    weak let weakMiddle = middle
    let leaf = try #require(tree.node(id: "leaf"))
    // Weakly: `middle` is an ancestor of `leaf`, which owns this closure.
    leaf.handleAction(Open.self) { [weak middle] (_: Open) async throws in
      await Task.yield()
      middle?.removeFromParent()
      await Task.yield()
      throw TestError(name: "after removal")
    }
    middle.catchError { _ in log("middle caught") }
    tree.root.catchError { _ in log("root caught") }
    let outcome = await leaf.trigger(Open(path: ""))
    #expect(outcome.error is TestError)
    #expect(log.entries == ["root caught"])
    // The dispatch kept the removed node alive while it ran; once it ended, nothing holds it.
    _ = consume middle
    #expect(weakMiddle == nil)
  }

  @Test @MainActor func aSuspendedDispatchCountsAgainstTheReentrancyLimitUntilItFinishes() async throws {
    let tree = NodeTree("root") {}
    try tree.setReentrancyLimit(2)
    var resume: CheckedContinuation<Void, Never>?
    tree.root.handleAction(Save.self) { (_: Save) async throws in
      // Suspended until the test resumes it: meanwhile it still counts as a running dispatch.
      await withCheckedContinuation { resume = $0 }
    }
    tree.root.handleAction(Open.self) { _ in }
    let first = Task { @MainActor () -> Bool in (await tree.firstResponder.trigger(Save())).isHandled }
    while resume == nil { await Task.yield() }
    let triggerSynchronously = { tree.firstResponder.trigger(Open(path: "")) }
    // One level is taken by the suspended dispatch: a dispatch beside it still runs, but one
    // nested in that would exceed the limit of 2.
    #expect(triggerSynchronously().isHandled)
    // What the nested dispatch did, without its nodes (an outcome kept here would keep the tree).
    var nested: String?
    tree.root.handleAction(Close.self) { [unowned tree] _ in
      nested = tree.firstResponder.trigger(Open(path: "")).description
    }
    let close = { tree.firstResponder.trigger(Close()) }
    #expect(close().isHandled)
    #expect(nested == "not dispatched: \(NotDispatchedReason.reentrancyLimit(2))")
    resume?.resume()
    #expect(await first.value)
    // Once it finished, the level is free again.
    #expect(close().isHandled)
    #expect(nested == "handled by root: Open(path: \"\")")
  }

  @Test @MainActor func anAsyncHandlerThatRetriggersItselfStopsAtTheLimit() async throws {
    let tree = NodeTree("root") {}
    try tree.setReentrancyLimit(4)
    var depth = 0
    var deepest = 0
    var refused: ActionOutcome?
    tree.root.handleAction(Save.self) { [unowned tree] (_: Save) async throws in
      depth += 1
      deepest = max(deepest, depth)
      await Task.yield()
      let outcome = await tree.firstResponder.trigger(Save())
      if case .notDispatched = outcome { refused = outcome }
      depth -= 1
    }
    #expect(await tree.firstResponder.trigger(Save()).isHandled)
    #expect(deepest == 4)
    guard case .notDispatched(.reentrancyLimit(4))? = refused else {
      Issue.record("expected the fifth nested dispatch to be refused, got \(String(describing: refused))")
      return
    }
  }
}
