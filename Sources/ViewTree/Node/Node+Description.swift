extension Node {
  /// Draws this subtree as indented text, one node per line with its modifiers.
  ///
  /// ```
  /// window · catchError
  /// ├─ sidebar
  /// │  └─ #0
  /// └─ editor [focused] · handleAction(Save)
  /// ```
  ///
  /// - Parameter focused: A node to mark as `[focused]`, if any.
  /// - Returns: The drawing, without a trailing newline.
  /// - Complexity: O(*n*) in the size of the subtree; no recursion.
  public func treeDescription(focused: Node? = nil) -> String {
    var lines: [String] = []
    // Each entry: the node, the prefix for its own line, the prefix for its children's lines.
    var stack: [(node: Node, linePrefix: String, childPrefix: String)] = [(self, "", "")]
    while let (node, linePrefix, childPrefix) = stack.popLast() {
      var line = linePrefix + node.label
      if node === focused { line += " [focused]" }
      if !node._modifiers.isEmpty {
        line += " · " + node._modifiers.map { $0.info.description }.joined(separator: ", ")
      }
      lines.append(line)
      let children = node._children
      for (offset, child) in children.enumerated().reversed() {
        let isLast = offset == children.count - 1
        stack.append((child, childPrefix + (isLast ? "└─ " : "├─ "), childPrefix + (isLast ? "   " : "│  ")))
      }
    }
    return lines.joined(separator: "\n")
  }
}

extension Node: CustomDebugStringConvertible {
  /// The subtree drawn by ``treeDescription(focused:)``.
  public var debugDescription: String { treeDescription() }
}
