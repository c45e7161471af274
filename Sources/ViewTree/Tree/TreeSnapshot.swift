/// A tree as plain data, for debugging tools: every node with its modifiers and whatever other
/// modules annotate it with, and the focus; `Codable`, and drawable as Graphviz DOT.
///
/// Nodes are listed flat, in depth-first pre-order with their parent's index, so that a snapshot
/// of any depth encodes and decodes without recursion.
public struct TreeSnapshot: Codable, Hashable, Sendable {
  /// One node.
  public struct NodeEntry: Codable, Hashable, Sendable {
    /// The node's id.
    public var id: String?
    /// The node's label (its id, or `#i` among its siblings).
    public var label: String
    /// The index of its parent in ``TreeSnapshot/nodes``; `nil` for the snapshot's first node.
    public var parent: Int?
    /// Its modifiers as they read in code, in dispatch order, such as `handleAction(Save)`.
    public var modifiers: [String]
    /// Whether unhandled actions from its subtree end as errors.
    public var requiresHandling: Bool
    /// What other modules add, by name (key bindings, action items, a manager...).
    public var annotations: [String: [String]]
  }

  /// The nodes, in depth-first pre-order; the first is the node the snapshot was taken of.
  public var nodes: [NodeEntry]
  /// The index of the focused node, if it is in the snapshot.
  public var focused: Int?

  /// The tree in Graphviz DOT: one box per node labelled with its label, modifiers and
  /// annotations, the focused node filled.
  public var dot: String {
    var lines = ["digraph tree {", "  node [shape=box, fontname=monospace];"]
    for (index, node) in nodes.enumerated() {
      var label = [node.label] + node.modifiers
      for key in node.annotations.keys.sorted() {
        for value in node.annotations[key] ?? [] { label.append("\(key): \(value)") }
      }
      let text = label.map(Self.escaped).joined(separator: "\\l") + "\\l"
      let style = index == focused ? ", style=filled, fillcolor=lightyellow" : ""
      lines.append("  n\(index) [label=\"\(text)\"\(style)];")
      if let parent = node.parent { lines.append("  n\(parent) -> n\(index);") }
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// `text` with the characters DOT gives meaning to in a quoted label escaped.
  static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\"", "\\", "{", "}", "<", ">", "|": result += "\\\(character)"
      case "\n": result += "\\n"
      default: result.append(character)
      }
    }
    return result
  }
}

extension Node {
  /// This node and its subtree as plain data (see ``TreeSnapshot``).
  ///
  /// - Parameters:
  ///   - focused: The node to mark as focused, if it is in the subtree.
  ///   - includingInactive: Whether to include the nodes made inactive (see ``Node/isActive``)
  ///     and their subtrees; `false` gives what takes part in the tree.
  ///   - annotate: What to add to each node's ``TreeSnapshot/NodeEntry/annotations``.
  /// - Returns: The snapshot.
  /// - Complexity: O(*n* + *m*) in the nodes and modifiers; no recursion.
  public func snapshot(
    focused: Node? = nil, includingInactive: Bool = true,
    annotate: (Node) -> [String: [String]] = { _ in [:] }
  ) -> TreeSnapshot {
    var nodes: [TreeSnapshot.NodeEntry] = []
    var focusedIndex: Int?
    // Each entry: a node and its parent's index.
    var stack: [(node: Node, parent: Int?, label: String)] = [(self, nil, label)]
    while let (node, parent, label) = stack.popLast() {
      let index = nodes.count
      if node === focused { focusedIndex = index }
      nodes.append(
        TreeSnapshot.NodeEntry(
          id: node.id, label: label, parent: parent, modifiers: node.modifiers.map(\.description),
          requiresHandling: node.requiresHandling, annotations: annotate(node)))
      for (position, child) in node.childList.enumerated().reversed()
      where includingInactive || !child.isInactive {
        stack.append((child, index, child.id ?? "#\(position)"))
      }
    }
    return TreeSnapshot(nodes: nodes, focused: focusedIndex)
  }
}

extension NodeTree {
  /// The whole tree as plain data, with the focus marked (see ``TreeSnapshot``).
  ///
  /// - Parameter annotate: What to add to each node's annotations.
  /// - Returns: The snapshot.
  public func snapshot(annotate: (Node) -> [String: [String]] = { _ in [:] }) -> TreeSnapshot {
    root.snapshot(focused: focusedNode, annotate: annotate)
  }
}
