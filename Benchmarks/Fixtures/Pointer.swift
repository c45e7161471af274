import ViewTree

// The trees the pointer benchmarks measure.

/// A grid of nested frames, 10 children a level and 4 levels below the root (11,111 nodes, 10,000
/// leaves of 100 by 100): the levels split the 10,000-square root alternately into columns and
/// rows. `location` lies on a leaf reached through the sixth child of each level.
package final class HitGridState {
  package let tree: NodeTree
  package let location = PointerLocation(x: 5_550, y: 5_550)

  package init() {
    /// The node at `frame`, split into 10 columns (`levels` even) or rows, `levels` more times.
    func make(_ frame: NodeFrame, levels: Int) -> Node {
      let node = Node().frame(frame)
      guard levels > 0 else { return node }
      let columns = levels % 2 == 0
      for index in 0..<10 {
        let part =
          columns
          ? NodeFrame(
            x: frame.x + Double(index) * frame.width / 10, y: frame.y, width: frame.width / 10,
            height: frame.height)
          : NodeFrame(
            x: frame.x, y: frame.y + Double(index) * frame.height / 10, width: frame.width,
            height: frame.height / 10)
        try! node.addChild(make(part, levels: levels - 1))
      }
      return node
    }
    tree = try! NodeTree(root: make(NodeFrame(x: 0, y: 0, width: 10_000, height: 10_000), levels: 4))
  }
}

/// The reference for `HitGridState`: the same frames in plain structs, in one array with each
/// node's children in a range of it, and the same descent: from the root, the children from the
/// last to the first, into the first whose frame contains the point, down to a node without
/// children.
package final class MinimalHitGrid {
  struct Box {
    var x, y, width, height: Double
    var children: Range<Int>
  }

  var boxes: [Box] = []
  package let location = PointerLocation(x: 5_550, y: 5_550)

  package init() {
    boxes.append(Box(x: 0, y: 0, width: 10_000, height: 10_000, children: 0..<0))
    var level = [0]
    for depth in 0..<4 {
      var next: [Int] = []
      for parent in level {
        let frame = boxes[parent]
        let start = boxes.count
        for index in 0..<10 {
          let part =
            depth % 2 == 0
            ? Box(
              x: frame.x + Double(index) * frame.width / 10, y: frame.y, width: frame.width / 10,
              height: frame.height, children: 0..<0)
            : Box(
              x: frame.x, y: frame.y + Double(index) * frame.height / 10, width: frame.width,
              height: frame.height / 10, children: 0..<0)
          boxes.append(part)
          next.append(boxes.count - 1)
        }
        boxes[parent].children = start..<boxes.count
      }
      level = next
    }
  }

  /// The index of the box a point at `location` hits, or -1.
  package func hit(_ location: PointerLocation) -> Int {
    func contains(_ box: Box) -> Bool {
      location.x >= box.x && location.x < box.x + box.width && location.y >= box.y
        && location.y < box.y + box.height
    }
    var current = 0
    guard contains(boxes[0]) else { return -1 }
    while true {
      var found = -1
      for child in boxes[current].children.reversed() where contains(boxes[child]) {
        found = child
        break
      }
      guard found >= 0 else { return current }
      current = found
    }
  }
}

/// A root, a chain of `shared` nodes below it, then two branches of `branch` nodes each, every
/// node with a frame and a typed handler for `Miss`, the root handling `PointerMove`: the
/// pointer moves between the two leaves, so each move changes the hover of `branch` nodes on
/// each side (out, leave, over and enter are sent) and is handled at the root.
package final class HoverState {
  package let tree: NodeTree
  package let left: PointerLocation
  package let right: PointerLocation

  package init(shared: Int = 32, branch: Int = 32) {
    let width = Double(4 * (shared + branch))
    let root = Node().frame(NodeFrame(x: 0, y: 0, width: width, height: 10)).handleAction(Miss.self) {}
    var top = root
    // Each level one unit narrower on each side; the branches split the last shared frame.
    for level in 1..<shared {
      let node = Node().frame(NodeFrame(x: Double(level), y: 0, width: width - Double(2 * level), height: 10))
        .handleAction(Miss.self) {}
      try! top.addChild(node)
      top = node
    }
    let middle = width / 2
    for side in 0..<2 {
      var node = top
      for level in 0..<branch {
        let inset = Double(shared + level)
        let frame =
          side == 0
          ? NodeFrame(x: inset, y: 0, width: middle - inset, height: 10)
          : NodeFrame(x: middle, y: 0, width: middle - inset, height: 10)
        let child = Node().frame(frame).handleAction(Miss.self) {}
        try! node.addChild(child)
        node = child
      }
    }
    root.handleAction(PointerMove.self) {}
    tree = try! NodeTree(root: root)
    left = PointerLocation(x: middle - 1, y: 5)
    right = PointerLocation(x: middle, y: 5)
  }

  /// The move that makes the `index`th operation: to the left leaf, then the right, in turn.
  package func move(_ index: Int) -> PointerInput {
    PointerInput(.move, at: index % 2 == 0 ? left : right, time: .origin)
  }
}

extension ContinuousClock.Instant {
  /// One fixed instant, so that the benchmarks do not read the clock.
  static let origin = ContinuousClock.now
}

/// A chain 16 deep with nested frames and a typed handler for `Miss` on each node, its eighth node
/// focusable: a press and a release on the leaf focus that node (the focus is cleared before each
/// press) and click it.
package final class ClickToFocusState {
  package let tree: NodeTree
  package let press: PointerInput
  package let release: PointerInput

  package init(depth: Int = 16) {
    let root = Node().frame(NodeFrame(x: 0, y: 0, width: 100, height: 100)).handleAction(Miss.self) {}
    var top = root
    for level in 1..<depth {
      let node = Node().frame(NodeFrame(x: Double(level), y: Double(level), width: 50, height: 50))
        .handleAction(Miss.self) {}
      if level == depth / 2 { node.focusable() }
      try! top.addChild(node)
      top = node
    }
    tree = try! NodeTree(root: root)
    let location = PointerLocation(x: Double(depth), y: Double(depth))
    press = PointerInput(.press(.primary), at: location, time: .origin)
    release = PointerInput(.release(.primary), at: location, time: .origin)
  }

  /// One click that focuses the chain's focusable node.
  package func click() {
    tree.clearFocus()
    sink(tree.handlePointer(press))
    sink(tree.handlePointer(release))
  }
}
