import TestSupport
import Testing
import ViewTree

enum NoteKey: NodeAttachmentKey {
  static var defaultValue: String? { nil }
}

@Suite struct WalkTests {
  @Test func walkSubtreeVisitsEveryNodeInPreOrder() throws {
    let tree = NodeTree("root") {
      Node("a") {
        Node("a1")
        Node("a2") { Node("a2x") }
      }
      Node("b")
      Node("c") { Node("c1") }
    }
    var visited: [String] = []
    tree.root.walkSubtree { visited.append($0.id ?? "?") }
    #expect(visited == ["root", "a", "a1", "a2", "a2x", "b", "c", "c1"])

    visited = []
    try #require(tree.node(id: "a")).walkSubtree { visited.append($0.id ?? "?") }
    #expect(visited == ["a", "a1", "a2", "a2x"])

    visited = []
    try #require(tree.node(id: "b")).walkSubtree { visited.append($0.id ?? "?") }
    #expect(visited == ["b"])
  }

  @Test(.stress) func walkSubtreeHandlesDeepChainsWithoutRecursion() throws {
    let root = Node("root")
    var bottom = root
    for _ in 0..<300_000 {
      let child = Node()
      try bottom.addChild(child)
      bottom = child
    }
    var count = 0
    root.walkSubtree { _ in count += 1 }
    #expect(count == 300_001)
  }

  @Test func walkSubtreeStopsWithTheBodysError() {
    let root = Node("root") {
      Node("a")
      Node("b")
    }
    var visited: [String] = []
    #expect(throws: TestError(name: "at a")) {
      try root.walkSubtree { node in
        visited.append(node.id ?? "?")
        if node.id == "a" { throw TestError(name: "at a") }
      }
    }
    #expect(visited == ["root", "a"])
  }

  @Test func walkAncestorsStopsWhereTheBodySays() throws {
    let tree = NodeTree("root") { Node("a") { Node("b") { Node("c") } } }
    let c = try #require(tree.node(id: "c"))
    try #require(tree.node(id: "a"))[attachment: NoteKey.self] = "here"
    var visited: [String] = []
    c.walkAncestors { node in
      visited.append(node.id ?? "?")
      return node[attachment: NoteKey.self] != nil
    }
    #expect(visited == ["c", "b", "a"])
  }
}

@Suite struct WalkAncestorsMutationTests {
  @Test func theBodyMayRemoveAnAncestorThatNothingElseHolds() throws {
    let tree = NodeTree("root") { Node("a") { Node("b") { Node("c") } } }
    let c = try #require(tree.root.firstNode(withID: "c"))
    weak let weakB = c.parent
    var visited: [String] = []
    // Only `a` holds `b`: removing `b` inside the body frees it, unless the walk holds it.
    c.walkAncestors { node in
      visited.append(node.id ?? "?")
      if node.id == "b" { node.removeFromParent() }
      return false
    }
    // `b` left the tree while the walk was on it: the walk ended there (it has no parent now).
    #expect(visited == ["c", "b"])
    #expect(weakB == nil)
    #expect(c.parent == nil)
  }
}
