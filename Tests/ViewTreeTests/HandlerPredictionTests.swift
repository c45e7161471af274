import TestSupport
import Testing
import ViewTree

@Suite struct HandlerPredictionTests {
  @Test func predictionsFollowTheRulesWithoutRunningAnything() {
    let log = Log()
    let tree = NodeTree("root") {
      Node("panel") {
        Node("leaf").onAction { _ in log("observed") }.handleAction(Open.self) { _ in log("open") }
      }
      .liftAction { (movie: MovieAction) in AppAction.movie(movie) }
      .receiveAction(Close.self) { _ in .handled }
    }
    tree.root.handleAction(AppAction.self) { _ in log("app") }.handleAction { _ in log("any") }
    let leaf = tree.node(id: "leaf")!
    #expect(leaf.handlerPrediction(for: Open.self).handler === leaf)
    // A lift continues with the type it produces.
    #expect(leaf.handlerPrediction(for: MovieAction.self).handler === tree.root)
    // A receive closure decides.
    guard case .undetermined(let node, let modifier) = leaf.handlerPrediction(for: Close.self) else {
      Issue.record("expected undetermined")
      return
    }
    #expect(node.id == "panel")
    #expect(modifier.kind == .receive)
    // The untyped handler at the root takes everything else.
    #expect("\(leaf.handlerPrediction(for: Save.self))" == "handled by root (handleAction)")
    #expect(log.entries.isEmpty)
    #expect("\(Node("loose").handlerPrediction(for: Save.self))" == "not in a rooted tree")
  }

  @Test func observersOfAClassOrProtocolArePassedOverToo() {
    let tree = NodeTree("root") { Node("leaf").onAction((any DocumentAction).self) { _ in } }
    tree.root.handleAction(Close.self) { _ in }
    let leaf = tree.node(id: "leaf")!
    #expect(leaf.handlerPrediction(for: Close.self).handler === tree.root)
  }

  @Test func capturesAndClassOrProtocolModifiersAreUndetermined() {
    let tree = NodeTree("root") { Node("leaf") }
    let leaf = tree.node(id: "leaf")!
    tree.root.handleAction((any DocumentAction).self) { _ in }
    guard case .undetermined = leaf.handlerPrediction(for: Close.self) else {
      Issue.record("a protocol modifier needs a cast to decide")
      return
    }
    // Without a value, the type alone cannot be cast to the protocol: undetermined for any type.
    #expect(
      leaf.handlerPrediction(for: Save.self).description
        == "undetermined: handleAction(DocumentAction) on root decides")
    tree.root.removeAllModifiers()
    #expect(leaf.handlerPrediction(for: Save.self).description == "unhandled")
    tree.root.captureAction(Save.self) { _ in .unhandled }
    guard case .undetermined(_, let modifier) = leaf.handlerPrediction(for: Save.self) else {
      Issue.record("a capture decides")
      return
    }
    #expect(modifier.kind == .capture)
  }

  /// On random trees of modifiers whose closures never throw, a certain prediction is what a
  /// trigger then does.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func certainPredictionsMatchDispatches(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<300 {
      let nodes = (0..<6).map { Node("n\($0)") }
      for index in 1..<nodes.count {
        try! nodes[Int.random(in: 0..<index, using: &random)].addChild(nodes[index])
      }
      for node in nodes {
        for _ in 0..<Int.random(in: 0...2, using: &random) {
          switch Int.random(in: 0..<6, using: &random) {
          case 0: node.handleAction(Save.self) { _ in }
          case 1: node.handleAction(Open.self) { _ in }
          case 2: node.onAction { _ in }
          case 3: node.liftAction { (movie: MovieAction) in AppAction.movie(movie) }
          case 4: node.handleAction(AppAction.self) { _ in }
          default: node.receiveAction(Save.self) { _ in .unhandled }
          }
        }
      }
      let tree = try! NodeTree(root: nodes[0])
      let leaf = nodes[Int.random(in: 0..<nodes.count, using: &random)]
      for (type, action) in [(Save.self, Save()), (MovieAction.self, MovieAction.play)]
        as [(any Action.Type, any Action)]
      {
        switch leaf.handlerPrediction(for: type) {
        case .handled(let node, _): #expect(leaf.trigger(action).handler === node)
        case .unhandled: #expect(!leaf.trigger(action).isHandled)
        case .undetermined, .notInTree: break
        }
      }
      withExtendedLifetime(tree) {}
    }
  }
}
