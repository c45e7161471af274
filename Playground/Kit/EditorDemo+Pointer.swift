import ViewTree
import ViewTreeActions

/// The mouse in the demo: the tree is drawn one node per line, so each node's frame is the block of
/// lines from its own to its last descendant's (a child's lines lie inside its parent's frame, as
/// hit testing asks); a click on a menu item activates it, on a row selects it, on a swatch sets
/// the color, on a dialog button chooses it; the wheel scrolls the drawing.
extension EditorDemo {
  /// Declares the frames of the nodes drawn in rows `top..<top + rows` of the screen, `width`
  /// columns wide, from tree line `firstLine` on; nodes scrolled out of sight have none.
  ///
  /// - Parameters:
  ///   - top: The screen row of the first visible tree line.
  ///   - firstLine: The first tree line shown.
  ///   - rows: How many tree lines are shown.
  ///   - width: The columns of the tree's part of the screen.
  ///   - screen: The screen's size: the window's frame.
  public func layOutTree(top: Int, firstLine: Int, rows: Int, width: Int, screen: (width: Int, height: Int)) {
    var nodes: [Node] = []
    tree.root.walkSubtree { nodes.append($0) }
    // Each node's last descendant's line: the line before the next node that is not below it.
    var lastLine = Array(nodes.indices)
    var open: [Int] = []
    for (line, node) in nodes.enumerated() {
      while let parent = open.last, !node.isDescendant(of: nodes[parent]) { open.removeLast() }
      for ancestor in open { lastLine[ancestor] = line }
      open.append(line)
    }
    view.lineCount = nodes.count
    view.visibleLines = rows
    let swatches = tree.node(id: "swatches")
    for (line, node) in nodes.enumerated() {
      // The swatches take the pointer in their grid, beside the tree (see `placeSwatches`); their
      // group has no frame, so that it clips nothing.
      if let swatches, node.isDescendant(of: swatches) {
        if node === swatches { node.frame(nil) }
        continue
      }
      // The window is the whole screen: what no other node takes is its own.
      if node === tree.root {
        node.frame(NodeFrame(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height)))
        continue
      }
      let first = max(line, firstLine)
      let last = min(lastLine[line], firstLine + rows - 1)
      node.frame(
        first > last
          ? nil
          : NodeFrame(
            x: 0, y: Double(top + first - firstLine), width: Double(width), height: Double(last - first + 1)))
    }
  }

  /// Routes one mouse event and returns the log lines it added.
  @discardableResult
  public func pointer(_ input: PointerInput) -> [String] {
    let start = log.count
    let result = tree.handlePointer(input)
    switch input.kind {
    case .press, .move: break
    case .release:
      guard let target = result.target, let click = result.click else { break }
      log.append(
        "click \(target.label): \(path(of: target)) => \(click.isHandled ? "handled by \(click.handler?.label ?? "?")" : "unhandled")"
      )
      // A click on an item that nobody handled activated it (ViewTreeActions does that).
      if let activation = result.activation { log.append("activate \(target.label): \(activation)") }
      chooseInDialog(target)
    case .wheel:
      log.append(
        "wheel: \(result.outcome?.isHandled == true ? "scrolled by \(result.target?.label ?? "?")" : "nothing scrolls")"
      )
    }
    render()
    return Array(log[start...])
  }

  /// What a click on `node` does besides its handlers: chooses a dialog button.
  private func chooseInDialog(_ node: Node) {
    if isConfirming, let id = node.id, id == "cancel" || id == "delete-all" {
      closeConfirmation(deleting: id == "delete-all")
    }
  }

  /// The labels from `node` up to the root, as the click bubbled.
  private func path(of node: Node) -> String {
    var labels: [String] = []
    node.walkAncestors { ancestor in
      labels.append(ancestor.label)
      return false
    }
    return labels.joined(separator: " -> ")
  }

  /// The middle of `node`'s frame's first line, where a click on it lands, if it has a frame.
  public func location(of node: Node) -> PointerLocation? {
    guard let frame = node.frame else { return nil }
    return PointerLocation(x: frame.x + 2, y: frame.y)
  }
}
