import ViewTree

// The trees the placement and activity benchmarks measure (issue 40).

/// A tree of views that place themselves: a root view, `sections` section views, and `rows` row
/// views in each, every row placed in its section with the order `[0, index]`; and `newRows` more
/// row views, made once (declared, not placed), that `place(_:)` places in the middle of a
/// section, at `[0, rows / 2]`, and `unplace(_:)` takes out again. New row `i` goes to section
/// `(sections / 2 + i) % sections`: new row 0 to the middle section.
package final class PlacementState {
  package let tree: NodeTree
  let root = NodeHandle()
  let sectionHandles: [NodeHandle]
  let rowHandles: [NodeHandle]
  let newRows: [NodeHandle]
  let order: PlacementOrder

  package init(sections: Int, rows: Int, newRows: Int = 1) {
    root.update(to: NodeDeclaration("root"))
    tree = try! NodeTree(root: root.node!)
    var sectionHandles: [NodeHandle] = []
    var rowHandles: [NodeHandle] = []
    for section in 0..<sections {
      let handle = NodeHandle()
      handle.update(to: NodeDeclaration("section\(section)").handleAction(Miss.self) { _ in })
      handle.place(in: root, order: [section])
      for index in 0..<rows {
        let row = NodeHandle()
        row.update(to: NodeDeclaration("row\(index)").handleAction(Miss.self) { _ in })
        row.place(in: handle, order: [0, index])
        rowHandles.append(row)
      }
      sectionHandles.append(handle)
    }
    self.sectionHandles = sectionHandles
    self.rowHandles = rowHandles
    self.newRows = (0..<newRows).map { _ in
      let row = NodeHandle()
      row.update(to: NodeDeclaration("new").handleAction(Miss.self) { _ in })
      return row
    }
    order = [0, rows / 2]
  }

  /// New row `index` places itself in the middle of its section's rows.
  package func place(_ index: Int = 0) {
    newRows[index].place(
      in: sectionHandles[(sectionHandles.count / 2 + index) % sectionHandles.count], order: order)
  }

  /// Takes new row `index` out again (its node stays, bound to its handle).
  package func unplace(_ index: Int = 0) {
    newRows[index].node!.removeFromParent()
  }
}

/// A root with a branch of `size` nodes (a list of sections of rows, each with a typed handler)
/// and a focusable sibling that holds the focus: what `isActive` switches off and on.
package final class BranchState {
  package let tree: NodeTree
  package let branch: Node

  package init(size: Int) {
    let rowsPerSection = 100
    branch = Node("branch") {
      for section in 0..<max(1, size / (rowsPerSection + 1)) {
        Node("section\(section)") {
          for row in 0..<rowsPerSection { Node("row\(row)").handleAction(Miss.self) { _ in } }
        }
      }
    }
    tree = NodeTree("root") { Node("field").focusable() }
    try! tree.root.addChild(branch)
    try! tree.focus(id: "field")
  }
}

/// The plain-Swift reference for `PlacementState`: the same sections and rows as plain classes,
/// each view keeping its children in an array whose placed part is sorted by an order of up to
/// four positions, and its parent unowned. Placing a view is a binary search over its new
/// parent's placed children and an insertion: the least any placement can do.
package final class MinimalPlacementState {
  final class View {
    unowned(unsafe) var parent: View?
    var children: [View] = []
    var order: (Int, Int, Int, Int) = (0, 0, 0, 0)
    var orderLength = 0
  }

  let root = View()
  let sections: [View]
  let newRows: [View]
  let order: (Int, Int, Int, Int)

  package init(sections: Int, rows: Int, newRows: Int = 1) {
    let root = self.root
    self.sections = (0..<sections).map { _ in
      let section = View()
      section.parent = root
      root.children.append(section)
      for index in 0..<rows {
        let row = View()
        row.order = (0, index, 0, 0)
        row.orderLength = 2
        row.parent = section
        section.children.append(row)
      }
      return section
    }
    self.newRows = (0..<newRows).map { _ in View() }
    order = (0, rows / 2, 0, 0)
  }

  /// New row `index` goes to the middle of its section's rows, after those of equal order.
  package func place(_ index: Int = 0) {
    let row = newRows[index]
    let section = sections[(sections.count / 2 + index) % sections.count]
    row.order = order
    row.orderLength = 2
    var (low, high) = (0, section.children.count)
    while low < high {
      let middle = (low + high) / 2
      let other = section.children[middle]
      if other.order.0 != order.0 ? other.order.0 < order.0 : other.order.1 <= order.1 {
        low = middle + 1
      } else {
        high = middle
      }
    }
    section.children.insert(row, at: low)
    row.parent = section
  }

  /// Takes new row `index` out again.
  package func unplace(_ index: Int = 0) {
    let row = newRows[index]
    guard let section = row.parent else { return }
    section.children.removeAll { $0 === row }
    row.parent = nil
  }
}
