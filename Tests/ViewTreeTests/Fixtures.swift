import ViewTree

struct Save: Action {}
struct Open: Action { var path: String }
struct Ping: Action { var count: Int }
protocol DocumentAction: Action {}
struct Close: DocumentAction {}
struct Print: DocumentAction {}
class BaseCommand: Action {
  let name: String
  init(name: String) { self.name = name }
}
final class SpecialCommand: BaseCommand {}
enum MovieAction: Action, Equatable { case play, pause }
enum AppAction: Action, Equatable {
  case movie(MovieAction)
  case quit
}

struct TestError: Error, Equatable { var name: String }
struct OtherError: Error, Equatable {}

/// Collects strings in order; shared by handlers that must not capture their node.
final class Log {
  var entries: [String] = []
  func callAsFunction(_ entry: String) { entries.append(entry) }
}

/// A chain `n0 (root) -> n1 -> ... -> n(count-1)` in a tree; returns the tree and the nodes, root
/// first.
func makeChain(_ count: Int) -> (NodeTree, [Node]) {
  let nodes = (0..<count).map { Node("n\($0)") }
  for index in 1..<count { try! nodes[index - 1].addChild(nodes[index]) }
  return (try! NodeTree(root: nodes[0]), nodes)
}

extension ActionOutcome {
  var handlerID: String? { handler?.id }
}
