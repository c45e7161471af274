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
/// node with a frame and a typed handler for `Miss`, the top node of each branch also handling
/// `PointerEnter` and `PointerLeave` (a highlight), the root handling `PointerMove`: the pointer
/// moves between the two leaves, so each move changes the hover of `branch` nodes on each side
/// (out and over are sent, leave and enter reach the branch that was left and the one entered)
/// and is handled at the root.
package final class HoverState {
  package let tree: NodeTree
  package let left: PointerLocation
  package let right: PointerLocation

  package init(shared: Int = 32, branch: Int = 32) {
    let width = Double(4 * (shared + branch))
    let root = Node().frame(NodeFrame(x: 0, y: 0, width: width, height: 10)).handleAction(Miss.self) { _ in }
    var top = root
    // Each level one unit narrower on each side; the branches split the last shared frame.
    for level in 1..<shared {
      let node = Node().frame(NodeFrame(x: Double(level), y: 0, width: width - Double(2 * level), height: 10))
        .handleAction(Miss.self) { _ in }
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
        let child = Node().frame(frame).handleAction(Miss.self) { _ in }
        if level == 0 {
          child.handleAction(PointerEnter.self) { _ in }.handleAction(PointerLeave.self) { _ in }
        }
        try! node.addChild(child)
        node = child
      }
    }
    root.handleAction(PointerMove.self) { _ in }
    tree = try! NodeTree(root: root)
    left = PointerLocation(x: middle - 1, y: 5)
    right = PointerLocation(x: middle, y: 5)
  }

  /// The move that makes the `index`th operation: to the left leaf, then the right, in turn.
  package func move(_ index: Int) -> PointerInput {
    PointerInput(.move, at: index % 2 == 0 ? left : right)
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
    let root = Node().frame(NodeFrame(x: 0, y: 0, width: 100, height: 100)).handleAction(Miss.self) { _ in }
    var top = root
    for level in 1..<depth {
      let node = Node().frame(NodeFrame(x: Double(level), y: Double(level), width: 50, height: 50))
        .handleAction(Miss.self) { _ in }
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

/// The reference for `HoverState`: the same frames, handlers and moves in plain arrays (each
/// node's parent, children, edges, hover flag and the action types its handlers take), and the
/// same work: the descent of `MinimalHitGrid`, the hover flags moved from the old path to the
/// new, out and over sent up from the old and the new node, leave and enter to the nodes whose
/// hover changed, and the move sent up to the first node that takes it.
package final class MinimalHoverTree {
  var parent: [Int] = []
  var children: [[Int]] = []
  var edges: [(left: Double, top: Double, right: Double, bottom: Double)] = []
  var hovered: [Bool] = []
  var handlers: [[ObjectIdentifier]] = []
  var current = -1
  package let left: PointerLocation
  package let right: PointerLocation

  package init(shared: Int = 32, branch: Int = 32) {
    let width = Double(4 * (shared + branch))
    let middle = width / 2
    left = PointerLocation(x: middle - 1, y: 5)
    right = PointerLocation(x: middle, y: 5)
    func add(_ frame: NodeFrame, under parent: Int) -> Int {
      self.parent.append(parent)
      children.append([])
      edges.append((frame.x, frame.y, frame.x + frame.width, frame.y + frame.height))
      hovered.append(false)
      handlers.append([ObjectIdentifier(Miss.self)])
      if parent >= 0 { children[parent].append(self.parent.count - 1) }
      return self.parent.count - 1
    }
    var top = add(NodeFrame(x: 0, y: 0, width: width, height: 10), under: -1)
    for level in 1..<shared {
      top = add(NodeFrame(x: Double(level), y: 0, width: width - Double(2 * level), height: 10), under: top)
    }
    for side in 0..<2 {
      var node = top
      for level in 0..<branch {
        let inset = Double(shared + level)
        node = add(
          side == 0
            ? NodeFrame(x: inset, y: 0, width: middle - inset, height: 10)
            : NodeFrame(x: middle, y: 0, width: middle - inset, height: 10),
          under: node)
        if level == 0 {
          handlers[node] += [ObjectIdentifier(PointerEnter.self), ObjectIdentifier(PointerLeave.self)]
        }
      }
    }
    handlers[0].append(ObjectIdentifier(PointerMove.self))
  }

  func contains(_ node: Int, _ location: PointerLocation) -> Bool {
    let edge = edges[node]
    return location.x >= edge.left && location.x < edge.right && location.y >= edge.top
      && location.y < edge.bottom
  }

  /// The first node from `node` up with a handler for `type`, or -1.
  func send(_ type: ObjectIdentifier, from node: Int) -> Int {
    var node = node
    while node >= 0 {
      if handlers[node].contains(type) { return node }
      node = parent[node]
    }
    return -1
  }

  /// Moves the pointer to `location`; returns the node that took the move, or -1.
  package func move(to location: PointerLocation) -> Int {
    var target = -1
    if contains(0, location) {
      target = 0
      descent: while true {
        for child in children[target].reversed() where contains(child, location) {
          target = child
          continue descent
        }
        break
      }
    }
    let old = current
    if old != target {
      // The innermost node both paths share: the first hovered node from the new one up.
      var shared = target
      while shared >= 0, !hovered[shared] { shared = parent[shared] }
      var node = old
      while node != shared {
        hovered[node] = false
        if handlers[node].contains(ObjectIdentifier(PointerLeave.self)) { sink(node) }
        node = parent[node]
      }
      node = target
      while node != shared {
        hovered[node] = true
        if handlers[node].contains(ObjectIdentifier(PointerEnter.self)) { sink(node) }
        node = parent[node]
      }
      current = target
      if old >= 0 { sink(send(ObjectIdentifier(PointerOut.self), from: old)) }
      if target >= 0 { sink(send(ObjectIdentifier(PointerOver.self), from: target)) }
    }
    return target < 0 ? -1 : send(ObjectIdentifier(PointerMove.self), from: target)
  }
}

/// The reference for `ClickToFocusState`: the same chain in plain arrays (each node's parent,
/// children, edges, whether it can take focus and the action types its handlers take), and the
/// same work: the focus cleared, a press (the descent of `MinimalHitGrid`, the focus given to
/// the nearest node from the hit one up that can take it, the press sent up), then a release
/// (the descent again, the release sent up, and the click sent up from the node pressed if the
/// release is over it).
package final class MinimalClickChain {
  var parent: [Int] = []
  var children: [[Int]] = []
  var edges: [(left: Double, top: Double, right: Double, bottom: Double)] = []
  var focusable: [Bool] = []
  var handlers: [[ObjectIdentifier]] = []
  var focused = -1
  var pressed = -1
  package let location: PointerLocation

  package init(depth: Int = 16) {
    location = PointerLocation(x: Double(depth), y: Double(depth))
    for level in 0..<depth {
      parent.append(level - 1)
      children.append([])
      if level > 0 { children[level - 1].append(level) }
      edges.append(
        level == 0 ? (0, 0, 100, 100) : (Double(level), Double(level), Double(level) + 50, Double(level) + 50)
      )
      focusable.append(level == depth / 2)
      handlers.append([ObjectIdentifier(Miss.self)])
    }
  }

  func hit(_ location: PointerLocation) -> Int {
    func contains(_ node: Int) -> Bool {
      let edge = edges[node]
      return location.x >= edge.left && location.x < edge.right && location.y >= edge.top
        && location.y < edge.bottom
    }
    guard contains(0) else { return -1 }
    var target = 0
    descent: while true {
      for child in children[target].reversed() where contains(child) {
        target = child
        continue descent
      }
      return target
    }
  }

  /// The first node from `node` up with a handler for `type`, or -1.
  func send(_ type: ObjectIdentifier, from node: Int) -> Int {
    var node = node
    while node >= 0 {
      if handlers[node].contains(type) { return node }
      node = parent[node]
    }
    return -1
  }

  /// One click: returns the node that took it, or -1.
  package func click() -> Int {
    focused = -1
    let target = hit(location)
    guard target >= 0 else { return -1 }
    var candidate = target
    while candidate >= 0, !focusable[candidate] { candidate = parent[candidate] }
    if candidate >= 0 { focused = candidate }
    pressed = target
    sink(send(ObjectIdentifier(PointerPress.self), from: target))
    let released = hit(location)
    guard released >= 0 else { return -1 }
    sink(send(ObjectIdentifier(PointerRelease.self), from: released))
    guard released == pressed else { return -1 }
    return send(ObjectIdentifier(PointerClick.self), from: released)
  }
}
