import TestSupport
import Testing
@_spi(Invariants) import ViewTree

struct FetchName: Request {
  typealias Result = String
  var id: Int
}

struct FetchCachedName: Request {
  typealias Result = String
  var id: Int
}

struct CountRows: Request {
  typealias Result = Int
}

final class Profile {
  let name: String
  init(name: String) { self.name = name }
}

struct FetchProfile: Request {
  typealias Result = Profile
}

@Suite struct RequestTests {
  @Test func theNearestResponderAnswers() throws {
    let tree = NodeTree("root") {
      Node("middle") {
        Node("leaf")
      }
      .respond(to: FetchName.self) { request in "middle #\(request.id)" }
    }
    tree.root.respond(to: FetchName.self) { _ in "root" }
    let leaf = try #require(tree.node(id: "leaf"))
    #expect(try leaf.request(FetchName(id: 3)) == "middle #3")
    #expect(try tree.root.request(FetchName(id: 1)) == "root")
  }

  @Test func anUnansweredRequestThrowsNamingTheTypeAndThePath() throws {
    let tree = NodeTree("root") {
      Node("middle") { Node("leaf") }
    }
    let leaf = try #require(tree.node(id: "leaf"))
    do {
      _ = try leaf.request(FetchName(id: 1))
      Issue.record("expected an error")
    } catch {
      guard case .unanswered = error.reason else {
        Issue.record("expected unanswered, got \(error.reason)")
        return
      }
      #expect(error.path == ["root/middle/leaf", "root/middle", "root"])
      #expect(
        error.description.hasPrefix(
          "no node answered FetchName on the path root/middle/leaf -> root/middle -> root"))
      #expect(error.endedAs == "FetchName(id: 1)")
    }
  }

  @Test func anUnansweredRequestSaysWhatATransformMadeOfIt() throws {
    let tree = NodeTree("root") {
      Node("leaf").transformAction(FetchName.self) { fetch in Ping(count: fetch.id) }
    }
    let leaf = try #require(tree.node(id: "leaf"))
    do {
      _ = try leaf.request(FetchName(id: 7))
      Issue.record("expected an error")
    } catch {
      #expect(error.endedAs == "Ping(count: 7)")
      #expect(error.description.hasSuffix("it ended unhandled as Ping(count: 7)"))
    }
  }

  @Test func respondingTwiceToOneRequestTypeIsReportedAndNotAttached() throws {
    let node = Node("n")
    node.respond(to: FetchName.self) { _ in "a" }
    node.respond(to: FetchName.self) { _ in "b" }
    #expect(
      node.problems.map { $0 as? ViewTreeError } == [.duplicateResponder(requestType: "FetchName", node: "n")]
    )
    node.respond(to: CountRows.self) { _ in 1 }
    #expect(node.modifiers.map(\.kind) == [.respond, .respond])
    let tree = try NodeTree(root: node)
    #expect(try tree.root.request(FetchName(id: 1)) == "a")
  }

  @Test func requestsPassThroughCaptureReceiveAndTransformModifiers() throws {
    let tree = NodeTree("root") {
      Node("gate") { Node("leaf") }
        .captureAction(FetchName.self) { request in request.id < 0 ? .handled : .unhandled }
        .transformRequest(FetchName.self) { request in FetchCachedName(id: request.id) }
    }
    tree.root.respond(to: FetchCachedName.self) { request in "cached #\(request.id)" }
    tree.root.respond(to: FetchName.self) { _ in "uncached" }
    let leaf = try #require(tree.node(id: "leaf"))
    #expect(try leaf.request(FetchName(id: 7)) == "cached #7")
    #expect(throws: RequestError.self) { try leaf.request(FetchName(id: -1)) }
  }

  @Test func aTransformToAnotherResultTypeIsAClearError() throws {
    let tree = NodeTree("root") {
      Node("leaf").transformAction(FetchName.self) { _ in CountRows() }
    }
    tree.root.respond(to: CountRows.self) { _ in 42 }
    do {
      _ = try tree.node(id: "leaf")!.request(FetchName(id: 1))
      Issue.record("expected a type mismatch")
    } catch {
      guard case .resultTypeMismatch(let expected, let found) = error.reason else {
        Issue.record("expected resultTypeMismatch, got \(error.reason)")
        return
      }
      #expect(ObjectIdentifier(expected) == ObjectIdentifier(String.self))
      #expect(ObjectIdentifier(found) == ObjectIdentifier(Int.self))
    }
  }

  @Test func aResponderThatThrowsReachesCatchersAndTheCaller() throws {
    let log = Log()
    let tree = NodeTree("root") {
      Node("leaf").respond(to: FetchName.self) { _ in throw TestError(name: "offline") }
    }
    tree.root.catchError { error in log("caught \(error)") }
    do {
      _ = try tree.node(id: "leaf")!.request(FetchName(id: 1))
      Issue.record("expected an error")
    } catch {
      guard case .threw(let underlying, _, _) = error.reason else {
        Issue.record("expected threw, got \(error.reason)")
        return
      }
      #expect(underlying as? TestError == TestError(name: "offline"))
    }
    #expect(log.entries == ["caught TestError(name: \"offline\")"])
  }

  @Test func aPlainTriggerOfARequestIsHandledAndTheAnswerDropped() throws {
    var calls = 0
    let tree = NodeTree("root") {}
    tree.root.respond(to: FetchName.self) { _ in
      calls += 1
      return "x"
    }
    #expect(tree.firstResponder.trigger(FetchName(id: 1)).handler === tree.root)
    #expect(calls == 1)
  }

  @Test func requestsFromOutsideTheTreeReportWhy() throws {
    let tree = NodeTree("root") { Node("editor").focusable() }
    tree.root.respond(to: CountRows.self) { _ in 3 }
    try tree.focus(id: "editor")
    #expect(try tree.firstResponder.request(CountRows()) == 3)
    let editor = try #require(tree.node(id: "editor"))
    let trigger = editor.triggerAction
    #expect(try trigger.request(CountRows()) == 3)
    editor.removeFromParent()
    do {
      _ = try trigger.request(CountRows())
      Issue.record("expected notDispatched")
    } catch {
      guard case .notDispatched(.notInTree) = error.reason else {
        Issue.record("expected notInTree, got \(error.reason)")
        return
      }
    }
  }

  @Test func answersOfReferenceTypeAreNeitherLeakedNorFreedEarly() throws {
    weak var weakProfile: Profile?
    let tree = NodeTree("root") {}
    tree.root.respond(to: FetchProfile.self) { _ in
      let profile = Profile(name: "Ada")
      weakProfile = profile
      return profile
    }
    do {
      let profile = try tree.root.request(FetchProfile())
      #expect(profile.name == "Ada")
      #expect(weakProfile != nil)
    }
    #expect(weakProfile == nil)
  }

  @Test func aResponderMaySendItsOwnRequest() throws {
    let tree = NodeTree("root") {
      Node("leaf").respond(to: FetchName.self) { request in "leaf" }
    }
    let leaf = try #require(tree.node(id: "leaf"))
    tree.root.respond(to: CountRows.self) { _ in try leaf.request(FetchName(id: 0)).count }
    #expect(try leaf.request(CountRows()) == 4)
  }
}

/// Requests answered by a responder some levels up, with every kind of modifier, trace, observer,
/// error and mutation around them: what the one dispatch must do for a request.
@Suite struct RequestPathTests {
  @Test func anAnswerIsTheSameWithAndWithoutATrace() throws {
    let (tree, nodes) = makeChain(9)
    for node in nodes.dropLast() { node.handleAction(Save.self) { _ in } }
    nodes[0].respond(to: FetchName.self) { request in "root #\(request.id)" }
    let leaf = nodes[8]
    #expect(try leaf.request(FetchName(id: 4)) == "root #4")
    let trace = ActionTrace()
    #expect(try leaf.request(FetchName(id: 4), tracing: trace) == "root #4")
    #expect(trace.steps.map(\.node.id) == ["n0"])
    #expect(trace.steps.map(\.resultDescription) == ["handled"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aStepObserverSeesARequestAnsweredByAResponder() throws {
    let (tree, nodes) = makeChain(3)
    nodes[0].respond(to: CountRows.self) { _ in 5 }
    var observed: [String] = []
    tree.stepObserver = { step in observed.append("\(step.node.id ?? "?") \(step.resultDescription)") }
    #expect(try nodes[2].request(CountRows()) == 5)
    #expect(observed == ["n0 handled"])
  }

  @Test func anUntypedReceiveBelowTheResponderStillSeesTheRequest() throws {
    let log = Log()
    let (tree, nodes) = makeChain(3)
    nodes[0].respond(to: CountRows.self) { _ in 5 }
    nodes[1].receiveAction { action in
      log("saw \(type(of: action))")
      return .unhandled
    }
    #expect(try nodes[2].request(CountRows()) == 5)
    #expect(log.entries == ["saw CountRows"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aHandlerForTheRequestTypeBelowTheResponderTakesItWithoutAnAnswer() throws {
    let (tree, nodes) = makeChain(3)
    nodes[0].respond(to: CountRows.self) { _ in 5 }
    var handled = 0
    nodes[1].handleAction(CountRows.self) { _ in handled += 1 }
    do {
      _ = try nodes[2].request(CountRows())
      Issue.record("expected an unanswered request")
    } catch {
      guard case .unanswered(let handler) = error.reason else {
        Issue.record("expected unanswered, got \(error.reason)")
        return
      }
      #expect(handler == "n0/n1")
    }
    #expect(handled == 1)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aThrowingResponderReachesOnlyTheCatchersThatExistedWhenTheRequestStarted() throws {
    let log = Log()
    let (tree, nodes) = makeChain(3)
    nodes[0].catchError { error in log("root caught \(error)") }
    nodes[1].respond(to: CountRows.self) { [unowned node = nodes[2]] _ in
      // Added during the dispatch: must not see this request's error.
      node.parent?.catchError { _ in log("late catcher") }
      throw TestError(name: "down")
    }
    do {
      _ = try nodes[2].request(CountRows())
      Issue.record("expected an error")
    } catch {
      guard case .threw(let underlying, _, _) = error.reason else {
        Issue.record("expected threw, got \(error.reason)")
        return
      }
      #expect(underlying as? TestError == TestError(name: "down"))
      guard case .threw(_, let thrower, let catcher) = error.reason else { return }
      #expect(thrower == "n0/n1")
      #expect(catcher == "n0")
    }
    #expect(log.entries == ["root caught TestError(name: \"down\")"])
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func catchersOfANodeTheResponderRemovedAreSkipped() throws {
    let log = Log()
    let (tree, nodes) = makeChain(4)
    nodes[0].catchError { _ in log("root caught") }
    nodes[1].catchError { _ in log("removed node caught") }
    nodes[2].respond(to: CountRows.self) { [unowned tree] _ in
      tree.root.children.first?.removeFromParent()
      throw TestError(name: "after removal")
    }
    let leaf = nodes[3]
    do {
      _ = try leaf.request(CountRows())
      Issue.record("expected an error")
    } catch {
      guard case .threw(_, _, let catcher) = error.reason else {
        Issue.record("expected threw, got \(error.reason)")
        return
      }
      #expect(catcher == "n0")
    }
    #expect(log.entries == ["root caught"])
    #expect(nodes[1].parent == nil)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aResponderThatRemovesItsOwnNodeKeepsItAliveUntilTheRequestEnds() throws {
    let (tree, nodes) = makeChain(3)
    weak var weakMiddle: Node?
    do {
      let middle = Node("middle")
      weakMiddle = middle
      middle.respond(to: CountRows.self) { [unowned middle] _ in
        middle.removeFromParent()
        return middle.children.count
      }
      try nodes[1].insertChild(middle, at: 0)
      try middle.addChild(Node("leaf"))
    }
    let leaf = try #require(tree.node(id: "leaf"))
    // The responder reads its node after removing it: the tree keeps it until the request ends.
    #expect(try leaf.request(CountRows()) == 1)
    #expect(weakMiddle == nil)
    #expect(leaf.parent == nil)
    #expect(tree.checkInvariants().isEmpty)
  }

  @Test func aResponderThatRequestsAgainStopsAtTheReentrancyLimit() throws {
    let (tree, nodes) = makeChain(2)
    try tree.setReentrancyLimit(3)
    var depth = 0
    var deepest: RequestError?
    nodes[0].respond(to: CountRows.self) { [unowned leaf = nodes[1]] _ in
      depth += 1
      do {
        return try leaf.request(CountRows()) + 1
      } catch {
        deepest = error as? RequestError
        return 0
      }
    }
    #expect(try nodes[1].request(CountRows()) == 2)
    #expect(depth == 3)
    guard case .notDispatched(.reentrancyLimit(3)) = deepest?.reason else {
      Issue.record("expected the reentrancy limit, got \(String(describing: deepest?.reason))")
      return
    }
  }

  @Test func anAnsweredRequestIsNotReportedUnhandled() throws {
    let (tree, nodes) = makeChain(2)
    var unhandled: [String] = []
    tree.onUnhandled = { action, _ in unhandled.append("\(action)") }
    tree.requiresHandling = true
    nodes[0].respond(to: CountRows.self) { _ in 1 }
    #expect(try nodes[1].request(CountRows()) == 1)
    #expect(throws: RequestError.self) { try nodes[1].request(FetchName(id: 0)) }
    #expect(unhandled == ["FetchName(id: 0)"])
  }

  @Test func aClassRequestAnsweredForItsSuperclassGoesTheGeneralWay() throws {
    let (tree, nodes) = makeChain(2)
    nodes[0].respond(to: BaseQuery.self) { query in "base answers \(query.name)" }
    #expect(try nodes[1].request(BaseQuery(name: "a")) == "base answers a")
    #expect(try nodes[1].request(SpecialQuery(name: "b")) == "base answers b")
    #expect(tree.checkInvariants().isEmpty)
  }
}

class BaseQuery: Request {
  typealias Result = String
  let name: String
  init(name: String) { self.name = name }
}
final class SpecialQuery: BaseQuery {}
