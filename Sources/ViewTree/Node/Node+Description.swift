extension Node {
  /// How many levels of indentation ``treeDescription(focused:)`` draws; deeper nodes are drawn at
  /// that indentation with `…` and their depth, so a drawing stays readable and its size linear
  /// in the number of nodes however deep the tree is.
  public static let drawnDepthLimit = 32

  /// Draws this subtree as indented text, one node per line with its modifiers.
  ///
  /// ```
  /// window · catchError
  /// ├─ sidebar
  /// │  └─ #0
  /// └─ editor [focused] · handleAction(Save)
  /// ```
  ///
  /// Unnamed nodes are labelled `#i`, their index among their siblings. Nodes more than
  /// ``drawnDepthLimit`` levels below this one are drawn at that indentation, marked
  /// `… (depth N)`.
  ///
  /// - Parameter focused: A node to mark as `[focused]`, if any.
  /// - Returns: The drawing, without a trailing newline.
  /// - Complexity: O(*n* + *m*) in the size of the subtree and the modifiers drawn; no recursion.
  public func treeDescription(focused: Node? = nil) -> String {
    var output = ""
    // Each entry: the node, its label, its depth below this node, the prefix for its own line,
    // and the prefix for its children's lines.
    var stack: [(node: Node, label: String, depth: Int, linePrefix: String, childPrefix: String)] = [
      (self, label, 0, "", "")
    ]
    while let (node, label, depth, linePrefix, childPrefix) = stack.popLast() {
      if !output.isEmpty { output += "\n" }
      output += linePrefix
      if depth > Self.drawnDepthLimit { output += "… " }
      output += label
      if depth > Self.drawnDepthLimit { output += " (depth \(depth))" }
      if node === focused { output += " [focused]" }
      if node.isInactive { output += " [inactive]" }
      if node.modifierCount > 0 {
        output += " · " + node.modifiers.map(\.description).joined(separator: ", ")
      }
      let children = node.childList
      let indents = depth < Self.drawnDepthLimit
      for (offset, child) in children.enumerated().reversed() {
        let isLast = offset == children.count - 1
        let childLabel = child.id ?? "#\(offset)"
        let line = indents ? childPrefix + (isLast ? "└─ " : "├─ ") : childPrefix
        let below = indents ? childPrefix + (isLast ? "   " : "│  ") : childPrefix
        stack.append((child, childLabel, depth + 1, line, below))
      }
    }
    return output
  }
}

extension Node: CustomDebugStringConvertible {
  /// The subtree drawn by ``treeDescription(focused:)``.
  public var debugDescription: String { treeDescription() }
}
