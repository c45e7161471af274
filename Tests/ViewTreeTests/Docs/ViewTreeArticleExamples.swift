import TestSupport
import Testing
import ViewTree

// The Swift blocks of ViewTree's articles, each between markers, compiled here and run where the
// block has a result (`DocsCompileTests` checks that the articles show exactly these regions).

/// What the articles' blocks take from their surroundings.
enum ViewTreeArticleContext {
  struct Save: Action {}

  @MainActor final class Document {
    var saves = 0
    func save() { saves += 1 }
    func write() async throws { saves += 1 }
  }

  struct User: Equatable {
    var id: Int
    var name: String
  }

  final class Users {
    struct Missing: Error {}
    func find(_ id: Int) throws -> User {
      guard id == 3 else { throw Missing() }
      return User(id: 3, name: "Ada")
    }
  }

  @MainActor final class Server {
    func user(_ id: Int) async throws -> User { User(id: id, name: "Ada") }
  }
}

@Suite struct ViewTreeArticleExamples {
  typealias Save = ViewTreeArticleContext.Save
  typealias Document = ViewTreeArticleContext.Document
  typealias User = ViewTreeArticleContext.User
  typealias Users = ViewTreeArticleContext.Users
  typealias Server = ViewTreeArticleContext.Server

  @Test @MainActor func theOverviewTriggersSaveAtTheFocus() throws {
    let document = Document()
    // view-tree-overview:begin
    struct Save: Action {}

    let tree = NodeTree("window") {
      Node("sidebar")
      Node("editor")
        .focusable()
        .handleAction(Save.self) { _ in document.save() }
    }
    try tree.focus(id: "editor")
    tree.firstResponder.trigger(Save())  // handled by window/editor
    // view-tree-overview:end
    #expect(document.saves == 1)
  }

  @Test func movingFocusDeclaresScopesAndShowsWhyAFocusIsRefused() throws {
    func window(isConfirming: Bool) -> NodeDeclaration {
      // moving-focus-declaration:begin
      NodeDeclaration("window") {
        NodeDeclaration("list").focusable()
        NodeDeclaration("toolbar") {
          NodeDeclaration("bold").focusable()
          NodeDeclaration("italic").focusable()
        }
        .focusScope()
        NodeDeclaration("editor").focusable()
        if isConfirming {
          NodeDeclaration("confirm") {
            NodeDeclaration("cancel").focusable()
            NodeDeclaration("delete").focusable()
          }
          .focusScope(.trap, defaultFocus: "cancel", autofocus: true)
        }
      }
      // moving-focus-declaration:end
    }
    let tree = NodeTree(declaring: window(isConfirming: false))
    tree.update(to: window(isConfirming: true))
    #expect(tree.focusedNode?.id == "cancel")

    let plain = NodeTree("window") { Node("editor") }
    var printed: [String] = []
    func print(_ line: String) { printed.append(line) }
    let tree2 = plain
    do {
      let tree = tree2
      // moving-focus-error:begin
      do {
        try tree.focus(id: "editor")
      } catch {
        print("focus: \(error)")  // 'window/editor' cannot take focus: it does not declare focusable()
      }
      // moving-focus-error:end
    }
    #expect(printed == ["focus: 'window/editor' cannot take focus: it does not declare focusable()"])
  }

  @Test @MainActor func requestsAnswerFromTheNearestResponder() async throws {
    let users = Users()
    let server = Server()
    let document = Document()
    let session = Node("session")
    let profile = Node("profile")
    let editor = Node("editor")
    try session.addChild(profile)
    try session.addChild(editor)
    let tree = try NodeTree(root: session)
    // Synchronous, as the article's first block is.
    func requestSynchronously() throws -> User {
      // requests-request:begin
      struct FetchUser: Request {
        typealias Result = User
        var id: Int
      }

      session.respond(to: FetchUser.self) { request in try users.find(request.id) }
      let user = try profile.request(FetchUser(id: 3))
      // requests-request:end
      session.removingModifiers(.respond, matching: FetchUser.self)
      return user
    }
    #expect(try requestSynchronously().name == "Ada")
    struct FetchUser: Request {
      typealias Result = User
      var id: Int
    }
    // requests-async:begin
    editor.handleAction(Save.self) { (save: Save) async throws in
      try await document.write()
    }
    session.respond(to: FetchUser.self) { (request: FetchUser) async throws -> User in
      try await server.user(request.id)
    }

    let outcome = await editor.trigger(Save())  // completion and errors are in the outcome
    let user = try await profile.request(FetchUser(id: 3))
    // requests-async:end
    #expect(outcome.isHandled)
    #expect(user.id == 3 && document.saves == 1)
    _ = tree
  }

  @Test func thePointerArticlesListSelectsAndOpens() {
    let names = ["alpha", "beta", "gamma"]
    var offset = 0
    let maxOffset = 2
    var selected: [String] = []
    func select(_ name: String) { selected.append("select \(name)") }
    func open(_ name: String) { selected.append("open \(name)") }
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    // pointer-overview:begin
    let tree = NodeTree("window") {
      Node("list") {
        for (index, name) in names.enumerated() {
          Node("row\(index)")
            .frame(NodeFrame(x: 0, y: Double(index), width: 30, height: 1))
            .handleAction(PointerClick.self) { click in
              if click.clickCount == 2 { open(name) } else { select(name) }
            }
        }
      }
      .frame(NodeFrame(x: 0, y: 0, width: 30, height: 20))
      .focusable()
      .scrollable(.vertical) { direction in direction == .down ? offset < maxOffset : offset > 0 }
      .handleAction(PointerWheel.self) { wheel in offset += Int(wheel.deltaY) }
    }
    tree.root.frame(NodeFrame(x: 0, y: 0, width: 80, height: 24))

    // The toolkit's event loop, for each event the platform reports:
    let result = tree.handlePointer(PointerInput(.press(.primary), at: PointerLocation(x: 4, y: 2)))
    print(result.target?.path ?? "nothing")  // window/list/row2
    print(result.focus)  // moved to window/list: a press focuses the nearest node that can take focus
    // pointer-overview:end
    #expect(printed == ["window/list/row2", "moved to window/list"])
    tree.handlePointer(PointerInput(.release(.primary), at: PointerLocation(x: 4, y: 2)))
    tree.handlePointer(PointerInput(.wheel(deltaX: 0, deltaY: 1), at: PointerLocation(x: 4, y: 2)))
    #expect(selected == ["select gamma"])
    #expect(offset == 1)
  }
}
