import Testing
import ViewTree

// The drawing is linear in the size of the tree: labels of unnamed siblings are their indices
// (not found by a search among the siblings), and indentation stops at `Node.drawnDepthLimit`.

@Suite struct DescriptionTests {
  @Test func unnamedSiblingsAreLabelledByIndex() {
    let root = Node("root") { for _ in 0..<40_000 { Node() } }
    let lines = root.treeDescription().split(separator: "\n")
    #expect(lines.count == 40_001)
    #expect(lines[1] == "├─ #0")
    #expect(lines[40_000] == "└─ #39999")
  }

  @Test func theDrawingMarksAnInactiveBranch() {
    let page = Node("settings") { Node("save") }
    let root = Node("pages") { page }
    page.isActive = false
    #expect(root.debugDescription == "pages\n└─ settings [inactive]\n   └─ save")
    // The description is the path, which an inactive node keeps.
    #expect(page.description == "pages/settings")
  }

  @Test func aDeepChainIsDrawnWithBoundedIndentation() {
    var node = Node("bottom")
    for _ in 0..<3_999 {
      let child = node
      node = Node { child }
    }
    let lines = node.treeDescription().split(separator: "\n")
    #expect(lines.count == 4_000)
    let widest = lines.map(\.count).max() ?? 0
    #expect(widest <= Node.drawnDepthLimit * 3 + 40)
    let indentation = String(repeating: "   ", count: Node.drawnDepthLimit - 1)
    #expect(String(lines[lines.count - 1]) == indentation + "   … bottom (depth 3999)")
    #expect(String(lines[Node.drawnDepthLimit]) == indentation + "└─ #0")
    #expect(String(lines[Node.drawnDepthLimit + 1]) == indentation + "   … #0 (depth 33)")
  }
}
