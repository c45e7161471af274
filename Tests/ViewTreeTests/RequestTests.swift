import Testing
import ViewTree

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
      guard case .threw(let underlying) = error.reason else {
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
    #expect(tree.trigger(FetchName(id: 1)).handler === tree.root)
    #expect(calls == 1)
  }

  @Test func requestsFromOutsideTheTreeReportWhy() throws {
    let tree = NodeTree("root") { Node("editor") }
    tree.root.respond(to: CountRows.self) { _ in 3 }
    try tree.focus(id: "editor")
    #expect(try tree.request(CountRows()) == 3)
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
