import TestSupport
import Testing
import ViewTree

// The README's pointer example, compiled and run by `readmePointerExampleRuns`;
// `readmeShowsThePointerExample` checks that the README shows exactly the code between the
// markers.

// readme-pointer:begin
func clickARow() -> [String] {
  var log: [String] = []
  let tree = NodeTree("list") {
    for index in 0..<3 {
      Node("row\(index)")
        .frame(NodeFrame(x: 0, y: Double(index), width: 30, height: 1))
        .handleAction(PointerClick.self) { click in log.append("row \(index), click \(click.clickCount)") }
    }
  }
  tree.root.frame(NodeFrame(x: 0, y: 0, width: 30, height: 3)).focusable()
  let press = tree.handlePointer(PointerInput(.press(.primary), at: PointerLocation(x: 4, y: 1)))
  log.append("pressed \(press.target?.path ?? "nothing"), focus \(press.focus)")
  tree.handlePointer(PointerInput(.release(.primary), at: PointerLocation(x: 4, y: 1)))
  return log  // ["pressed list/row1, focus moved to list", "row 1, click 1"]
}
// readme-pointer:end

@Suite struct ReadmePointerExampleTests {
  @Test func readmePointerExampleRuns() {
    #expect(clickARow() == ["pressed list/row1, focus moved to list", "row 1, click 1"])
  }

  @Test func readmeShowsThePointerExample() throws {
    try expectReadmeShows(marker: "readme-pointer", imports: ["import ViewTree"])
  }
}
