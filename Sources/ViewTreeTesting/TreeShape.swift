import Actions
import ViewTree

/// Why ``makeTree(_:)`` could not read a shape: what it expected where the shape went wrong.
public enum InvalidTreeShape: ParseErrorReason {
  /// A node id (letters, digits, `_`, `-`, `.`) was expected.
  case expectedID
  /// `,` or `)` was expected after a node in a list of children.
  case expectedCommaOrClosingParenthesis
  /// The shape should have ended.
  case expectedEnd

  /// `tree shape`.
  public static var subject: String { "tree shape" }

  /// What went wrong, for messages.
  public var message: String {
    switch self {
    case .expectedID: "expected a node id"
    case .expectedCommaOrClosingParenthesis: "expected ',' or ')'"
    case .expectedEnd: "expected the end of the shape"
    }
  }
}

/// Declares a tree by node ids, for tests: `"window(sidebar(list), editor)"`.
///
/// Each node is an id (letters, digits, `_`, `-`, `.`), optionally followed by its children in
/// parentheses, separated by commas. Spaces are ignored. Ids may repeat, as in real trees.
///
/// ```swift
/// let tree = try makeTree("window(sidebar(list), editor)")
/// tree.node(id: "list")?.handleAction(Delete.self) { _ in … }
/// ```
///
/// - Parameter shape: The shape.
/// - Returns: A tree whose root is the shape's outermost node.
/// - Throws: `ParseError<InvalidTreeShape>` with the offset of the problem.
public func makeTree(_ shape: String) throws(ParseError<InvalidTreeShape>) -> NodeTree {
  var reader = ShapeReader(shape: shape)
  let root = try reader.readNode()
  reader.skipSpaces()
  guard reader.isAtEnd else { throw reader.error(.expectedEnd) }
  // The root was just created and has no parent or tree, so this cannot fail.
  return try! NodeTree(root: root)
}

extension NodeTree {
  /// Triggers an action from the node with the given id and records what the dispatch did.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - id: The id of the node to trigger it from.
  /// - Returns: The steps and the outcome.
  /// - Throws: ``ViewTreeError/noNodeWithID(_:)`` when no node has that id.
  public func record(_ action: some Action, from id: String) throws(ViewTreeError) -> DispatchRecord {
    guard let node = node(id: id) else { throw .noNodeWithID(id) }
    return ViewTreeTesting.record(action, from: node)
  }

  /// The first node with the given id; a shorthand for ``NodeTree/node(id:)`` in tests.
  public subscript(id: String) -> Node? { node(id: id) }
}

/// Reads a tree shape without recursion, so deep shapes are fine, and character by character
/// from the start, so a malformed shape costs only what is read up to its first mistake.
private struct ShapeReader {
  let shape: String
  var index: String.Index

  init(shape: String) {
    self.shape = shape
    index = shape.startIndex
  }

  var isAtEnd: Bool { index == shape.endIndex }

  /// The character at `index`, or `nil` at the end.
  var current: Character? { isAtEnd ? nil : shape[index] }

  mutating func advance() {
    index = shape.index(after: index)
  }

  mutating func skipSpaces() {
    while let character = current, character.isWhitespace { advance() }
  }

  mutating func readID() throws(ParseError<InvalidTreeShape>) -> String {
    skipSpaces()
    let start = index
    while let character = current, character.isLetter || character.isNumber || "_-.".contains(character) {
      advance()
    }
    guard index > start else { throw error(.expectedID) }
    return String(shape[start..<index])
  }

  /// Reads a node and its subtree with an explicit stack of open parents.
  mutating func readNode() throws(ParseError<InvalidTreeShape>) -> Node {
    let root = Node(try readID())
    var open: [Node] = []
    var current = root
    // Whether `current`'s children were just closed: a second list, `a(b)(c)`, is an error.
    var closed = false
    while true {
      skipSpaces()
      if !closed, self.current == "(" {
        advance()
        open.append(current)
        current = Node(try readID())
        // Fresh nodes: adding cannot form a cycle.
        try! open[open.count - 1].addChild(current)
        continue
      }
      // After a node: "," for a sibling, ")" to close its parent, or the end.
      guard let parent = open.last else { return root }
      skipSpaces()
      switch self.current {
      case ",":
        advance()
        current = Node(try readID())
        closed = false
        try! parent.addChild(current)
      case ")":
        advance()
        current = open.removeLast()
        closed = true
      default:
        throw error(.expectedCommaOrClosingParenthesis)
      }
    }
  }

  func error(_ reason: InvalidTreeShape) -> ParseError<InvalidTreeShape> {
    ParseError(text: shape, offset: shape.utf8.distance(from: shape.startIndex, to: index), reason: reason)
  }
}
