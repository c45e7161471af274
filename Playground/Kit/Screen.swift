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
  ///
  /// Everything fits in `height` rows: the title, the tree beside the panels, at least three log
  /// lines and the two footer lines. When the tree is taller than its share it scrolls to keep
  /// the focus in view; the panels on the right lose their last lines (the inspector) first.
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
    rightLines.append("Swatches (arrows): " + demo.swatchLines().joined(separator: " / "))
    rightLines.append("")
    rightLines.append("Inspector:")
    rightLines += demo.inspectorLines().map { "  " + $0 }
    // Title, log header, three log lines, two footer lines: the rest is the upper part's.
    let fixed = 1 + 1 + 2
    let logHeight = min(3, max(1, height - fixed - 1))
    let upper = max(0, min(max(treeLines.count, rightLines.count), height - fixed - logHeight))
    let focusedLine = treeLines.firstIndex { $0.hasSuffix("[focused]") } ?? 0
    let firstTreeLine = max(0, min(focusedLine - upper / 2, treeLines.count - upper))
    for row in 0..<upper {
      let index = firstTreeLine + row
      let treeLine = index < treeLines.count ? treeLines[index] : ""
      let focused = treeLine.hasSuffix("[focused]")
      let leftCell = pad(" " + treeLine, left, styled && focused ? "\u{1B}[7m" : nil)
      let rightCell = pad(row < rightLines.count ? rightLines[row] : "", right, nil)
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
        " Tab/Shift-Tab focus · x delete rows · ctrl+p palette · q quit   focus: \(demo.focusLabel)", width,
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
