import Actions
import Testing
import ViewTree
import ViewTreeActions
import ViewTreeTesting

struct Copy: Action {}
struct Paste: Action {}
struct Ask: Request {
  typealias Result = Int
}
struct Failure: Error {}

@Suite struct TreeShapeTests {
  @Test func shapesDeclareTreesByID() throws {
    let tree = try makeTree("window( menubar , sidebar(list(row, row)), editor)")
    #expect(tree.root.id == "window")
    #expect(tree.root.children.map(\.id) == ["menubar", "sidebar", "editor"])
    #expect(tree["list"]?.children.map(\.id) == ["row", "row"])
    #expect(tree["row"]?.path == "window/sidebar/list/row")
    #expect(try makeTree("solo").root.children.isEmpty)
  }

  @Test(arguments: [
    ("", 0, InvalidTreeShape.expectedID), ("window(", 7, .expectedID),
    ("window(a", 8, .expectedCommaOrClosingParenthesis), ("window(a,)", 9, .expectedID),
    ("a b", 2, .expectedEnd),
    ("a(b))", 4, .expectedEnd),
    // UTF-8 offsets, as in the other parse errors: "é" and "名" are two and three bytes.
    ("é(名 x)", 7, .expectedCommaOrClosingParenthesis),
  ])
  func malformedShapesAreErrorsWithAnOffset(shape: String, offset: Int, reason: InvalidTreeShape) {
    #expect(throws: ParseError(text: shape, offset: offset, reason: reason)) { try makeTree(shape) }
  }

  @Test func aShapeErrorShowsWhereTheShapeWentWrong() {
    let error = ParseError(
      text: "a(b c)", offset: 4, reason: InvalidTreeShape.expectedCommaOrClosingParenthesis)
    #expect(error.description == "invalid tree shape: expected ',' or ')' (offset 4)\n  a(b c)\n      ^")
  }

  @Test func deepShapesDoNotRecurse() throws {
    let depth = 20_000
    let shape = String(repeating: "n(", count: depth) + "leaf" + String(repeating: ")", count: depth)
    let tree = try makeTree(shape)
    #expect(tree["leaf"]?.depth == depth)
  }
}

@Suite struct RecordingTests {
  @Test func aRecordDrawsThePathWithCaptureAndOutcome() throws {
    let tree = try makeTree("window(sidebar(list), editor)")
    tree["window"]?.captureAction { _ in .unhandled }
    tree["editor"]?.transformAction(Copy.self) { _ in Paste() }
    tree["window"]?.handleAction(Paste.self) { _ in }
    let record = try tree.record(Copy(), from: "editor")
    #expect(record.path == "window [capture] -> editor -> window [handled]")
    #expect(record.transforms == ["editor: Copy() -> Paste()"])
    #expect(
      record.stepLines == [
        "capture window captureAction: passed",
        "bubble editor transformAction(Copy): transformed Copy() -> Paste()",
        "bubble window handleAction(Paste): handled",
      ])
  }

  @Test func outcomesAreSpelledOut() throws {
    let tree = try makeTree("window(editor)")
    #expect(try tree.record(Copy(), from: "editor").path == "(no visit) [unhandled]")
    tree["editor"]?.handleAction(Copy.self) { _ in throw Failure() }
    tree["window"]?.catchError { _ in }
    #expect(
      try tree.record(Copy(), from: "editor").path == "editor [caught by window, thrown by editor]")
    #expect(
      record(Copy(), from: Node("loose")).path
        == "(no visit) [not dispatched: the node is not in a rooted NodeTree]")
    #expect(throws: ViewTreeError.noNodeWithID("nowhere")) { try tree.record(Copy(), from: "nowhere") }
  }

  @Test func requestsAndPerformsAreRecordedWithTheirAnswers() throws {
    let tree = try makeTree("window(editor)")
    tree["window"]?.respond(to: Ask.self) { _ in 42 }
    let (requestRecord, answer) = recordRequest(Ask(), from: tree["editor"]!)
    #expect(answer == 42)
    #expect(requestRecord.path == "window [handled]")

    let manager = ActionManager()
    tree.root.actionManager(manager)
    let (performRecord, result) = recordPerform("menu.Missing", from: tree["editor"]!)
    guard case .answered(.unknown, _) = result else {
      Issue.record("expected unknown, got \(result)")
      return
    }
    #expect(performRecord.path == "window [handled]")
  }

  @Test func asyncRecordsAwaitAsyncHandlers() async throws {
    let tree = try makeTree("window(editor)")
    tree["window"]?.handleAction(Copy.self) { (_: Copy) async throws in await Task.yield() }
    let node = try #require(tree["editor"])
    let record = await record(Copy(), from: node)
    expectDispatch(record, path: "window [handled]")
  }
}

@Suite struct ExpectationTests {
  func copyTree() throws -> NodeTree {
    let tree = try makeTree("window(sidebar, editor)")
    tree["editor"]?.onAction { _ in }.transformAction(Copy.self) { _ in Paste() }
    tree["sidebar"]?.onAction { _ in }
    tree["window"]?.handleAction(Paste.self) { _ in }
    return tree
  }

  @Test func anExhaustiveExpectationThatAccountsForEverythingPasses() throws {
    let record = try copyTree().record(Copy(), from: "editor")
    expectDispatch(record, path: "editor -> window [handled]", transforms: ["editor: Copy() -> Paste()"])
    expectSteps(
      record,
      [
        "bubble editor onAction: passed",
        "bubble editor transformAction(Copy): transformed Copy() -> Paste()",
        "bubble window handleAction(Paste): handled",
      ])
    expectHandled(record, by: "window")
  }

  @Test func anUnaccountedTransformFailsAnExhaustiveExpectation() throws {
    let record = try copyTree().record(Copy(), from: "editor")
    withKnownIssue {
      expectDispatch(record, path: "editor -> window [handled]")
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("transforms do not match; not accounted for: editor: Copy() -> Paste()")
        && text.contains("expected: editor -> window [handled]")
        && text.contains("bubble editor transformAction(Copy): transformed Copy() -> Paste()")
    }
  }

  @Test func aDifferentPathShowsExpectedAndActual() throws {
    let record = try copyTree().record(Copy(), from: "editor")
    withKnownIssue {
      expectDispatch(
        record, path: "editor -> sidebar -> window [handled]", transforms: ["editor: Copy() -> Paste()"])
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("Dispatch did not match (path does not match).")
        && text.contains(
          "  expected: editor -> sidebar -> window [handled]\n  actual:   editor -> window [handled]")
    }
  }

  @Test func partialExpectationsCheckOnlyWhatTheyList() throws {
    let record = try copyTree().record(Copy(), from: "editor")
    expectDispatch(record, path: "window [handled]", exhaustivity: .partial)
    expectSteps(record, ["bubble window handleAction(Paste): handled"], exhaustivity: .partial)
    withKnownIssue {
      expectDispatch(record, path: "window [unhandled]", exhaustivity: .partial)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("outcome does not match")
    }
    withKnownIssue {
      expectDispatch(record, path: "window -> editor [handled]", exhaustivity: .partial)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("path does not contain the expected nodes in order")
    }
  }

  @Test func stepMismatchesListBothSides() throws {
    let record = try copyTree().record(Copy(), from: "editor")
    withKnownIssue {
      expectSteps(record, ["bubble window handleAction(Paste): handled"])
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("Steps did not match (every step must be listed)")
        && text.contains(
          "  expected:\n    bubble window handleAction(Paste): handled\n  actual:\n    bubble editor onAction: passed"
        )
    }
  }

  @Test func expectHandledFailsForUnhandledActions() throws {
    let record = try copyTree().record(Paste(), from: "sidebar")
    expectHandled(record)
    let unhandled = try copyTree().record(Ask(), from: "sidebar")
    withKnownIssue {
      expectHandled(unhandled)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined() == "Expected the action to be handled, but: sidebar [unhandled]"
    }
    withKnownIssue {
      expectHandled(record, by: "sidebar")
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix("Expected the action to be handled by sidebar")
    }
  }

  @Test func failuresAreReportedAtTheCallersLine() throws {
    let record = try copyTree().record(Copy(), from: "editor")
    let line = #line + 2
    withKnownIssue {
      expectDispatch(record, path: "nowhere [handled]")
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "ViewTreeTestingTests.swift"
    }
  }
}

@Suite struct TreeShapeStrictnessTests {
  @Test func aNodeHasOneListOfChildren() {
    #expect(throws: ParseError<InvalidTreeShape>.self) { try makeTree("a(b)(c)") }
    #expect(throws: ParseError<InvalidTreeShape>.self) { try makeTree("a(b(c)(d))") }
    #expect((try? makeTree("a(b(c), d)"))?.root.subtreeCount == 4)
  }
}

/// The tree-shape rules of `makeTree` beside their hostile neighbours.
@Suite struct TreeShapeRuleTests {
  @Test func shapesAndTheirNeighbours() throws {
    #expect(try makeTree(" a ( b , c ) ").root.subtreeCount == 3)
    #expect(try makeTree("a-b.c_d(e1)").root.id == "a-b.c_d")
    for bad in ["", "a(b,)", "a()", "a b", "a(b))", "a$", "(a)", "a(,b)", "a(b c)"] {
      #expect(throws: ParseError<InvalidTreeShape>.self, "\(bad.debugDescription)") { try makeTree(bad) }
    }
  }
}
