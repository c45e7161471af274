import Actions
import ViewTree

/// Why ``makeTree(_:)`` could not read a shape.
public struct TreeShapeError: Error, Equatable, CustomStringConvertible {
  /// The shape that failed.
  public let shape: String
  /// The UTF-8 offset of the problem, as in the other parse errors of the package
  /// (`IdentifierParseError`, `KeyChordParseError`): the length of `shape` when it ended early.
  public let offset: Int
  /// What was expected there.
  public let expected: String

  /// Creates an error.
  public init(shape: String, offset: Int, expected: String) {
    self.shape = shape
    self.offset = offset
    self.expected = expected
  }

  /// A message with the shape and a caret under the problem.
  public var description: String {
    caretMessage(
      "invalid tree shape: expected \(expected) (offset \(offset))", text: shape,
      column: column(ofUTF8Offset: offset, in: shape))
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
/// - Throws: ``TreeShapeError`` with the offset of the problem.
public func makeTree(_ shape: String) throws(TreeShapeError) -> NodeTree {
  var reader = ShapeReader(shape: shape)
  let root = try reader.readNode()
  reader.skipSpaces()
  guard reader.isAtEnd else { throw reader.error("the end of the shape") }
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

  mutating func readID() throws(TreeShapeError) -> String {
    skipSpaces()
    let start = index
    while let character = current, character.isLetter || character.isNumber || "_-.".contains(character) {
      advance()
    }
    guard index > start else { throw error("a node id") }
    return String(shape[start..<index])
  }

  /// Reads a node and its subtree with an explicit stack of open parents.
  mutating func readNode() throws(TreeShapeError) -> Node {
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
        throw error("',' or ')'")
      }
    }
  }

  func error(_ expected: String) -> TreeShapeError {
    TreeShapeError(
      shape: shape, offset: shape.utf8.distance(from: shape.startIndex, to: index), expected: expected)
  }
}
