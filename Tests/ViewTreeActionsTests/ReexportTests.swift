import Testing
import ViewTreeActions

/// ViewTreeActions brings ViewTree and Actions with it: this file imports nothing else.
@Suite struct ReexportTests {
  @Test func aPerformsResultIsNamedWithOneImport() throws {
    let manager = ActionManager()
    let tree = NodeTree("window") {}
    tree.root.actionManager(manager)
    let result: RequestResult<PerformResult> = tree.firstResponder.perform("Missing")
    guard case .unknown? = result.answer else {
      Issue.record("expected an unknown identifier: \(result)")
      return
    }
  }
}
