import ViewTree

/// Draws the demo into a frame of fixed size: the tree with the focus highlighted, the menus with
/// live validation, the log, the document and a line of help.
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

  /// The frame's lines, each exactly `width` columns wide (ANSI codes not counted); the focused
  /// node's line is in inverse video when `styled`.
  public func render(_ demo: EditorDemo, styled: Bool) -> [String] {
    let left = max(10, width / 2)
    let right = width - left
    var lines: [String] = []
    lines.append(
      pad(" ActionHierarchy Playground: a document editor as a tree", width, styled ? "\u{1B}[1m" : nil))
    // The tree on the left, the menus and the document on the right.
    let treeLines = demo.tree.root.treeDescription(focused: demo.tree.focusedNode)
      .split(separator: "\n").map { line in
        String(line.split(separator: " · ").first ?? Substring(line))
      }
    var rightLines: [String]
    if let query = demo.paletteQuery {
      rightLines =
        ["Palette (Enter performs, Esc closes): \(query)_"] + demo.paletteLines(limit: 8).map { "  " + $0 }
      rightLines.append("")
    } else {
      rightLines = []
    }
    rightLines += ["Menus (validated against the focus):"] + demo.menuLines().map { "  " + $0 }
    rightLines.append("")
    rightLines.append(
      "Document: color \(demo.model.color), saved \(demo.model.saves)x\(demo.model.isLocked ? ", locked" : "")"
    )
    for (index, row) in demo.model.rows.enumerated() {
      rightLines.append((index == demo.model.selection ? "> " : "  ") + row)
    }
    rightLines.append("")
    rightLines.append("Inspector:")
    rightLines += demo.inspectorLines().map { "  " + $0 }
    let upper = max(treeLines.count, rightLines.count)
    let logHeight = max(1, height - upper - 4)
    for index in 0..<upper {
      let treeLine = index < treeLines.count ? treeLines[index] : ""
      let focused = treeLine.hasSuffix("[focused]")
      let leftCell = pad(" " + treeLine, left, styled && focused ? "\u{1B}[7m" : nil)
      let rightCell = pad(index < rightLines.count ? rightLines[index] : "", right, nil)
      lines.append(leftCell + rightCell)
    }
    lines.append(pad(" Log:", width, styled ? "\u{1B}[1m" : nil))
    let recent = demo.log.suffix(logHeight)
    for entry in recent { lines.append(pad("  " + entry, width, nil)) }
    for _ in recent.count..<logHeight { lines.append(pad("", width, nil)) }
    // The footer: the bindings in effect at the focus, as they change with it.
    lines.append(pad(" " + demo.footerLine(), width, styled ? "\u{1B}[2m" : nil))
    lines.append(
      pad(" Tab/Shift-Tab focus · ctrl+p palette · q quit        focus: \(demo.focusLabel)", width, nil))
    return Array(lines.prefix(height))
  }

  /// `text` cut or padded to `columns`, optionally wrapped in a style.
  private func pad(_ text: String, _ columns: Int, _ style: String?) -> String {
    var cell = String(text.prefix(columns))
    cell += String(repeating: " ", count: max(0, columns - cell.count))
    guard let style else { return cell }
    return style + cell + "\u{1B}[0m"
  }
}
