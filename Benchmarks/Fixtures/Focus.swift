import ViewTree

// The trees the focus benchmarks measure.

/// A tree of 100 sections of 1,000 focusable rows each (100,101 nodes), focus on a row in the
/// middle: Tab moves to the next row, a sibling (or, at a section's end, the next section's first).
package final class FocusNextState {
  package let tree: NodeTree

  package init() {
    tree = NodeTree("window") {
      for section in 0..<100 {
        Node("section\(section)") {
          for row in 0..<1_000 { Node("row\(row)").focusable() }
        }
      }
    }
    try! tree.focus(tree.root.children[50].children[500])
  }
}

/// A root with 100,000 children of which every 10,000th is focusable: each Tab walks past 9,999
/// nodes that are not.
package final class FocusSparseState {
  package let tree: NodeTree

  package init() {
    tree = NodeTree("window") {
      for index in 0..<100_000 { index % 10_000 == 0 ? Node().focusable() : Node() }
    }
    try! tree.focus(tree.root.children[0])
  }
}

/// The same walk in plain Swift: the next element of an array of 100,000 flags that is set,
/// 10,000 elements on, with wrapping.
package final class FlagWalkState {
  package let flags = (0..<100_000).map { $0 % 10_000 == 0 }
  package var position = 0

  package init() {}

  package func next() -> Int {
    var index = position
    repeat {
      index = index + 1 == flags.count ? 0 : index + 1
    } while !flags[index]
    position = index
    return index
  }
}

/// A scope holding a grid of 40 by 25 focusable cells (1,000) with frames, focus in the middle.
package final class FocusGridState {
  package let tree: NodeTree

  package init() {
    tree = NodeTree("window") {
      Node("grid") {
        for row in 0..<25 {
          for column in 0..<40 {
            Node().focusable().frame(NodeFrame(x: Double(column * 4), y: Double(row), width: 4, height: 1))
          }
        }
      }
      .focusScope()
    }
    try! tree.focus(tree.root.children[0].children[12 * 40 + 20])
  }
}

/// A list beside a chain `depth` nodes deep, with a trap in the chain's middle: what removing a
/// subtree that holds the focus costs against the same removal with nothing focused.
package final class ChainRemovalState {
  package let tree: NodeTree
  let depth: Int
  let focused: Bool

  /// - Parameters:
  ///   - depth: The chain's depth.
  ///   - focused: Whether the chain's bottom node has the focus, given to it from the list (so the
  ///     trap remembers the list as its opener), when the chain is removed.
  package init(depth: Int, focused: Bool) {
    self.depth = depth
    self.focused = focused
    tree = NodeTree("root") { Node("list").focusable() }
  }

  /// Hangs a new chain under the root (the root's second child), and focuses its bottom if asked.
  package func build() {
    let top = Node()
    var bottom = top
    for level in 1..<depth {
      let child = Node()
      if level == depth / 2 { child.focusScope(.trap) }
      try! bottom.addChild(child)
      bottom = child
    }
    bottom.focusable()
    try! tree.root.addChild(top)
    guard focused else { return }
    try! tree.focus(id: "list")
    try! tree.focus(bottom)
  }

  /// Removes the chain, which frees it: focus, if it was in the chain, goes back to the list.
  package func remove() {
    _ = try! tree.root.removeChild(at: 1)
  }
}
