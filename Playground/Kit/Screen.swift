import ViewTree
import ViewTreeActions

/// Draws the demo into a frame of fixed size: the tree with the focus highlighted and the node
/// under the mouse underlined, the document with its swatches, the menus with live validation (or
/// the dialog, the palette, the inspector), the log and a footer; and declares the frames the mouse
/// hits, from the same layout, so that whatever is drawn as something to click is clickable.
public struct Screen {
  /// Columns.
  public var width: Int
  /// Rows.
  public var height: Int

  /// A screen of the given size (80 by 24 shows everything; smaller sizes show less).
  public init(width: Int, height: Int) {
    self.width = max(20, width)
    self.height = max(8, height)
  }

  /// One line of the panel on the right, and the nodes drawn on it, where a click takes them.
  struct PanelLine {
    var text: String
    var targets: [(node: Node, column: Int, width: Int)] = []
  }

  /// Where things go on the screen for the demo as it is now.
  struct Layout {
    /// The tree's drawing, a line per node in pre-order, and the nodes, in the same order.
    var treeLines: [String]
    var nodes: [Node]
    /// The panel on the right, line by line.
    var panel: [PanelLine]
    /// The first tree line shown, and how many rows the tree and the panel take.
    var firstTreeLine: Int
    var upper: Int
    /// The columns of the left part (the tree), and of the right.
    var left: Int
    var right: Int
  }

  /// The rows above and below the tree and the panel: the title; the log's heading, three log
  /// lines and the two footer lines.
  private static let rowsAbove = 1
  private static let rowsBelow = 1 + 3 + 2

  /// Lays the demo out: the tree on the left, scrolled to keep the focus in view (until the
  /// wheel or a click scrolls it), the panel on the right.
  func layout(_ demo: EditorDemo) -> Layout {
    let left = max(10, width / 2)
    let right = width - left
    var nodes: [Node] = []
    demo.tree.root.walkSubtree(includingInactive: false) { nodes.append($0) }
    let treeLines = demo.tree.root.treeDescription(focused: demo.tree.focusedNode)
      .split(separator: "\n").enumerated().map { index, line in
        let drawn = String(line.split(separator: " · ").first ?? Substring(line))
        return index < nodes.count && demo.isSelectedRow(nodes[index]) ? drawn + " <" : drawn
      }
    let upper = max(0, height - Self.rowsAbove - Self.rowsBelow)
    let focusedLine = treeLines.firstIndex { $0.hasSuffix("[focused]") } ?? 0
    let firstTreeLine = demo.view.firstLine(focusedLine: focusedLine, visible: upper, count: treeLines.count)
    return Layout(
      treeLines: treeLines, nodes: nodes, panel: panel(demo, width: right - 1), firstTreeLine: firstTreeLine,
      upper: upper, left: left, right: right)
  }

  /// The panel's lines, none wider than `width`: the document and its swatches, then the dialog,
  /// the palette, the inspector or the menus.
  private func panel(_ demo: EditorDemo, width: Int) -> [PanelLine] {
    var lines: [PanelLine] = []
    func text(_ text: String, indent: Int = 0) {
      for line in wrap(text, width: width, indent: indent) { lines.append(PanelLine(text: line)) }
    }
    let model = demo.model
    text("Document: color \(model.color), saved \(model.saves)x\(model.isLocked ? ", locked" : "")")
    // The swatch grid: the arrow keys move through it, and a click on a color sets it.
    let label = "Color   "
    for row in demo.swatchRows() {
      var line = PanelLine(text: lines.count == 1 ? label : String(repeating: " ", count: label.count))
      for (node, cell) in row {
        line.targets.append((node, line.text.count, EditorDemo.swatchWidth))
        line.text += cell
      }
      lines.append(line)
    }
    lines.append(PanelLine(text: ""))
    if demo.isConfirming {
      text("Delete rows?")
      var buttons = PanelLine(text: "  ")
      for (node, title) in demo.dialogButtons() {
        buttons.targets.append((node, buttons.text.count, title.count))
        buttons.text += title + "  "
      }
      lines.append(buttons)
      text("Tab cycles here; Enter or a click chooses; Esc cancels.", indent: 2)
      text("The rest is inert until the dialog closes.", indent: 2)
    } else if let query = demo.paletteQuery {
      text("Palette (Enter performs, Esc closes): \(query)_")
      for line in demo.paletteLines(limit: 6, summaries: false) { text(line, indent: 2) }
      if let summary = demo.paletteLines(limit: 1, summaries: true).first { text(summary, indent: 2) }
    } else if demo.showsInspector {
      text("Inspector (f2 closes):")
      for line in demo.inspectorLines() { text(line, indent: 2) }
    } else {
      text("Menus (validated at the focus; click):")
      for (node, line) in demo.menuItemLines() {
        lines.append(PanelLine(text: "  " + line, targets: [(node, 0, width)]))
      }
    }
    return lines
  }

  /// Declares the frames of what the screen shows (the tree's lines, the panel's swatches, menu
  /// items and dialog buttons), so that the mouse hits what it points at. Call it after every
  /// change, as the screen is drawn.
  public func layOut(_ demo: EditorDemo) {
    apply(layout(demo), to: demo)
  }

  private func apply(_ layout: Layout, to demo: EditorDemo) {
    // One update: the hover is run again once, for every frame set.
    demo.tree.performUpdates {
      demo.layOutTree(
        layout.nodes, firstLine: layout.firstTreeLine, rows: min(layout.upper, layout.treeLines.count),
        top: Self.rowsAbove, width: layout.left, screen: (width, height))
      var placed: [(Node, NodeFrame)] = []
      for (row, line) in layout.panel.prefix(layout.upper).enumerated() {
        for target in line.targets {
          placed.append(
            (
              target.node,
              NodeFrame(
                x: Double(layout.left + target.column), y: Double(Self.rowsAbove + row),
                width: Double(target.width), height: 1)
            ))
        }
      }
      demo.placePanel(placed, dialog: dialogFrame(layout))
    }
  }

  /// The rectangle of the dialog's lines in the panel, if it is open.
  private func dialogFrame(_ layout: Layout) -> NodeFrame? {
    guard let first = layout.panel.firstIndex(where: { $0.text.hasPrefix("Delete rows?") }) else {
      return nil
    }
    return NodeFrame(
      x: Double(layout.left), y: Double(Self.rowsAbove + first), width: Double(layout.right), height: 4)
  }

  /// The frame's lines, each exactly `width` columns wide (ANSI codes not counted); the focused
  /// node's line is in inverse video and the hovered one underlined when `styled`. Lays the demo
  /// out for the mouse first (see ``layOut(_:)``).
  ///
  /// At 80 by 24 everything fits and no line is cut: the title, the tree beside the panel (the
  /// tree scrolls, the panel fits in its rows), three log lines (long entries wrap, the latest
  /// kept) and the two footer lines (the bindings that fit, and how many more).
  public func render(_ demo: EditorDemo, styled: Bool) -> [String] {
    var cut: [String] = []
    return render(demo, styled: styled, cut: &cut)
  }

  /// The texts that `render(_:styled:)` would have to cut to fit: none at 80 by 24.
  public func cutTexts(_ demo: EditorDemo) -> [String] {
    var cut: [String] = []
    _ = render(demo, styled: false, cut: &cut)
    return cut
  }

  private func render(_ demo: EditorDemo, styled: Bool, cut: inout [String]) -> [String] {
    func pad(_ text: String, _ columns: Int, _ style: String?) -> String {
      if text.count > columns { cut.append(text) }
      return self.pad(text, columns, style)
    }
    let layout = layout(demo)
    apply(layout, to: demo)
    var lines: [String] = []
    lines.append(
      pad(" ActionHierarchy Playground: a document editor as a tree", width, styled ? "\u{1B}[1m" : nil))
    let hovered = demo.tree.hoveredNode
    for row in 0..<layout.upper {
      let index = layout.firstTreeLine + row
      let treeLine = index < layout.treeLines.count ? layout.treeLines[index] : ""
      let focused = treeLine.hasSuffix("[focused]")
      let isHovered = index < layout.nodes.count && layout.nodes[index] === hovered
      let inert = index < layout.nodes.count && layout.nodes[index].isInert
      let style = !styled ? nil : focused ? "\u{1B}[7m" : isHovered ? "\u{1B}[4m" : inert ? "\u{1B}[2m" : nil
      let leftCell = pad(" " + treeLine, layout.left, style)
      let panelLine = row < layout.panel.count ? layout.panel[row] : PanelLine(text: "")
      let panelHovered = panelLine.targets.contains { $0.node === hovered }
      lines.append(leftCell + pad(panelLine.text, layout.right, styled && panelHovered ? "\u{1B}[4m" : nil))
    }
    lines.append(pad(" Log:", width, styled ? "\u{1B}[1m" : nil))
    let logRows = height - lines.count - 2
    let wrapped = demo.log.suffix(logRows).flatMap { wrap($0, width: width - 1, indent: 2) }
    let recent = wrapped.suffix(max(0, logRows))
    for entry in recent { lines.append(pad(entry, width, nil)) }
    for _ in recent.count..<max(recent.count, logRows) { lines.append(pad("", width, nil)) }
    // The footer: the bindings in effect at the focus, as many as fit, as they change with it.
    lines.append(pad(" " + fit(demo.footerItems(), width: width - 2), width, styled ? "\u{1B}[2m" : nil))
    let hint = " tab focus · x delete · ctrl+p palette · f2 inspect · q quit"
    let focus = "  focus: " + demo.focusLabel
    lines.append(pad(hint.count + focus.count <= width ? hint + focus : hint, width, nil))
    return Array(lines.suffix(height))
  }

  /// `text` cut or padded to `columns`, optionally wrapped in a style. Every line is built to fit
  /// first: nothing is cut here at 80 by 24.
  private func pad(_ text: String, _ columns: Int, _ style: String?) -> String {
    var cell = String(text.prefix(columns))
    cell += String(repeating: " ", count: max(0, columns - cell.count))
    guard let style else { return cell }
    return style + cell + "\u{1B}[0m"
  }
}

/// `text` in lines of at most `width` columns, broken between words, the lines after the first
/// indented by two more than `indent` (a word longer than a line is split).
func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
  var lines: [String] = []
  var line = String(repeating: " ", count: indent)
  let rest = String(repeating: " ", count: indent + 2)
  for word in text.split(separator: " ", omittingEmptySubsequences: false) {
    var word = Substring(word)
    let isStart = line.allSatisfy { $0 == " " }
    if !isStart, line.count + 1 + word.count > width {
      lines.append(line)
      line = rest
    }
    while line.count + word.count > width, width > line.count {
      let room = width - line.count
      lines.append(line + word.prefix(room))
      word = word.dropFirst(room)
      line = rest
    }
    line += (line.allSatisfy { $0 == " " } ? "" : " ") + word
  }
  lines.append(line)
  return lines
}

/// The items joined with ` · ` as far as they fit in `width`, and how many more there are.
func fit(_ items: [String], width: Int) -> String {
  var shown = ""
  for (index, item) in items.enumerated() {
    let next = shown.isEmpty ? item : shown + " · " + item
    let more = index + 1 < items.count ? " · +\(items.count - index - 1) more" : ""
    if next.count + more.count > width {
      return (shown.isEmpty ? "" : shown + " · ") + "+\(items.count - index) more"
    }
    shown = next
  }
  return shown
}
