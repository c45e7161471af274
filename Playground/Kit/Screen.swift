import ViewTree

/// Draws the demo into a frame of fixed size: the tree with the focus highlighted and the node
/// under the mouse underlined, the menus with live validation, the swatches, the log, the document
/// and a line of help; and declares the frames the mouse hits, from the same layout.
public struct Screen {
  /// Columns.
  public var width: Int
  /// Rows.
  public var height: Int

  /// A screen of the given size (at least 80 by 24 is comfortable; smaller sizes are cropped).
  public init(width: Int, height: Int) {
    self.width = max(20, width)
    self.height = max(8, height)
  }

  /// Where things go on the screen for the demo as it is now.
  struct Layout {
    /// The tree's drawing, a line per node in pre-order.
    var treeLines: [String]
    /// The lines of the panel on the right.
    var rightLines: [String]
    /// The panel line the swatch grid starts at.
    var swatchLine: Int
    /// The first tree line shown, and how many rows the tree and the panel take.
    var firstTreeLine: Int
    var upper: Int
    /// The columns of the left part (the tree), and of the right.
    var left: Int
    var right: Int
  }

  /// Lays the demo out: the tree on the left, scrolled to keep the focus in view (then by the
  /// wheel), the menus, the document and the swatches on the right.
  func layout(_ demo: EditorDemo) -> Layout {
    let left = max(10, width / 2)
    let treeLines = demo.tree.root.treeDescription(focused: demo.tree.focusedNode)
      .split(separator: "\n").map { line in
        String(line.split(separator: " · ").first ?? Substring(line))
      }
    var rightLines: [String] = []
    if demo.isConfirming {
      rightLines += [
        "Delete rows?  " + demo.dialogButtons(), "  (Tab cycles here; Enter chooses; Esc cancels)", "",
      ]
    }
    if let query = demo.paletteQuery {
      rightLines +=
        ["Palette (Enter performs, Esc closes): \(query)_"] + demo.paletteLines(limit: 8).map { "  " + $0 }
      rightLines.append("")
    }
    rightLines += ["Menus (validated against the focus):"] + demo.menuLines().map { "  " + $0 }
    rightLines.append("")
    rightLines.append(
      "Document: color \(demo.model.color), saved \(demo.model.saves)x\(demo.model.isLocked ? ", locked" : "")"
    )
    for (index, row) in demo.model.rows.enumerated() {
      rightLines.append((index == demo.model.selection ? "> " : "  ") + row)
    }
    rightLines.append("Swatches (arrows, or click):")
    let swatchLine = rightLines.count
    rightLines += demo.swatchLines().map { "  " + $0 }
    rightLines.append("")
    rightLines.append("Inspector:")
    rightLines += demo.inspectorLines().map { "  " + $0 }
    // Title, log header, three log lines, two footer lines: the rest is the upper part's.
    let fixed = 1 + 1 + 2
    let logHeight = min(3, max(1, height - fixed - 1))
    let upper = max(0, min(max(treeLines.count, rightLines.count), height - fixed - logHeight))
    let focusedLine = treeLines.firstIndex { $0.hasSuffix("[focused]") } ?? 0
    let centered = focusedLine - upper / 2 + demo.treeScroll
    let firstTreeLine = max(0, min(centered, treeLines.count - upper))
    return Layout(
      treeLines: treeLines, rightLines: rightLines, swatchLine: swatchLine, firstTreeLine: firstTreeLine,
      upper: upper, left: left, right: width - left)
  }

  /// Declares the frames of what the screen shows (the tree's lines, the swatch grid), so that the
  /// mouse hits what it points at. Call it after every change, as the screen is drawn.
  public func layOut(_ demo: EditorDemo) {
    apply(layout(demo), to: demo)
  }

  private func apply(_ layout: Layout, to demo: EditorDemo) {
    demo.layOutTree(
      top: 1, firstLine: layout.firstTreeLine, rows: min(layout.upper, layout.treeLines.count),
      width: layout.left,
      screen: (width, height))
    // The swatch grid, below its heading in the panel, past its two-column indent.
    demo.placeSwatches(column: layout.left + 2, row: 1 + layout.swatchLine)
  }

  /// The frame's lines, each exactly `width` columns wide (ANSI codes not counted); the focused
  /// node's line is in inverse video and the hovered one underlined when `styled`. Lays the demo
  /// out for the mouse first (see ``layOut(_:)``).
  ///
  /// Everything fits in `height` rows: the title, the tree beside the panels, at least three log
  /// lines and the two footer lines. When the tree is taller than its share it scrolls to keep
  /// the focus in view; the panels on the right lose their last lines (the inspector) first.
  public func render(_ demo: EditorDemo, styled: Bool) -> [String] {
    let layout = layout(demo)
    apply(layout, to: demo)
    var lines: [String] = []
    lines.append(
      pad(" ActionHierarchy Playground: a document editor as a tree", width, styled ? "\u{1B}[1m" : nil))
    var nodes: [Node] = []
    demo.tree.root.walkSubtree { nodes.append($0) }
    for row in 0..<layout.upper {
      let index = layout.firstTreeLine + row
      let treeLine = index < layout.treeLines.count ? layout.treeLines[index] : ""
      let focused = treeLine.hasSuffix("[focused]")
      let hovered = index < nodes.count && nodes[index] === demo.tree.hoveredNode
      let style = !styled ? nil : focused ? "\u{1B}[7m" : hovered ? "\u{1B}[4m" : nil
      let leftCell = pad(" " + treeLine, layout.left, style)
      let rightCell = pad(row < layout.rightLines.count ? layout.rightLines[row] : "", layout.right, nil)
      lines.append(leftCell + rightCell)
    }
    lines.append(pad(" Log:", width, styled ? "\u{1B}[1m" : nil))
    let logRows = height - lines.count - 2
    let recent = demo.log.suffix(max(0, logRows))
    for entry in recent { lines.append(pad("  " + entry, width, nil)) }
    for _ in recent.count..<max(recent.count, logRows) { lines.append(pad("", width, nil)) }
    // The footer: the bindings in effect at the focus, as they change with it.
    lines.append(pad(" " + demo.footerLine(), width, styled ? "\u{1B}[2m" : nil))
    lines.append(
      pad(
        " Tab/Shift-Tab focus · x delete rows · ctrl+p palette · q quit   focus: " + demo.focusLabel, width,
        nil))
    return Array(lines.suffix(height))
  }

  /// `text` cut or padded to `columns`, optionally wrapped in a style.
  private func pad(_ text: String, _ columns: Int, _ style: String?) -> String {
    var cell = String(text.prefix(columns))
    cell += String(repeating: " ", count: max(0, columns - cell.count))
    guard let style else { return cell }
    return style + cell + "\u{1B}[0m"
  }
}
