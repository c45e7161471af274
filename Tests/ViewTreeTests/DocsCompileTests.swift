import Foundation
import TestSupport
import Testing

/// Every Swift block of the README and the DocC articles is compiled by the test suite: each is,
/// line for line, a marked region of a test file (which the tests build, and run where the block
/// has a result), or its fence says it is a fragment (` ```swift fragment `).
@Suite struct DocsCompileTests {
  @Test func everySwiftBlockOfTheDocsIsARegionOfATestFile() throws {
    let root = packageRoot()
    let documents = ["README.md"] + (try articles(under: root))
    let regions = try markedRegions(under: root.appendingPathComponent("Tests"))
    var uncovered: [String] = []
    var blocks = 0
    for document in documents {
      let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
      for block in swiftBlocks(in: text) where !block.isFragment {
        blocks += 1
        if !regions.contains(where: { $0.shows(block) }) { uncovered.append("\(document):\(block.line)") }
      }
    }
    #expect(blocks > 30)
    #expect(uncovered.isEmpty, "Swift blocks no test compiles: \(uncovered.joined(separator: ", "))")
  }

  @Test func theCheckerTellsACoveredBlockFromOneThatDiffers() {
    let region = MarkedRegion(imports: ["ViewTree"], lines: ["    let a = 1", "    print(a)"])
    let block = swiftBlocks(in: "```swift\nimport ViewTree\n\nlet a = 1\nprint(a)\n```\n")
    #expect(block.count == 1 && region.shows(block[0]))
    let other = swiftBlocks(in: "```swift\nimport Actions\n\nlet a = 1\nprint(a)\n```\n")
    #expect(!region.shows(other[0]))
    let fragment = swiftBlocks(in: "text\n```swift fragment\nlet b = 2\n```\n")
    #expect(fragment.count == 1 && fragment[0].isFragment && fragment[0].line == 2)
  }
}
