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

/// The plainest one-pass form of the pointer's work, the reference for `HoverState` and
/// `ClickToFocusState`: nodes in one array of plain structs (parent, children as a range of one
/// list, edges, a hover flag, one bit per action type for the handlers and for the capture
/// modifiers), the handler closures beside them, and a dispatch that walks the hit path once down
/// for the capture phase and once up for the bubble, with one bit test per node. A value, and
/// changed only by its own `mutating` methods, so that no read of it is checked at run time.
struct PlainPointerTree {
  /// The bits of the action types the fixtures' handlers take.
  static let miss: UInt64 = 1 << 0
  static let enter: UInt64 = 1 << 1
  static let leave: UInt64 = 1 << 2
  static let move: UInt64 = 1 << 3
  static let out: UInt64 = 1 << 4
  static let over: UInt64 = 1 << 5
  static let press: UInt64 = 1 << 6
  static let release: UInt64 = 1 << 7
  static let click: UInt64 = 1 << 8

  struct Node {
    var parent: Int
    var children: Range<Int> = 0..<0
    let left: Double, top: Double, right: Double, bottom: Double
    /// The types its handlers take, and those its capture modifiers take.
    var handles: UInt64 = miss
    var captures: UInt64 = 0
    var isFocusable = false
  }

  private(set) var nodes: [Node] = []
  /// Each node's hover flag, apart from the nodes, which a hit path only reads.
  private(set) var isHovered: [Bool] = []
  private var childList: [Int] = []
  /// Each node's handlers for the types other than `miss`, with their bit.
  private var bodies: [[(bit: UInt64, body: (PointerLocation) -> Void)]] = []
  /// The path of the last hit, root first; `next` is the buffer the next hit fills (and, after a
  /// hit, the path before it).
  private(set) var path: [Int] = []
  private var next: [Int] = []
  /// How many of `path`'s and `next`'s entries are the paths.
  private(set) var pathLength = 0
  private var nextLength = 0
  /// What the handlers and the capture modifiers on `path` (and on `next`) take, or-ed together
  /// by the descent: a dispatch of a type none takes walks nothing.
  private var pathFilter: (handles: UInt64, captures: UInt64) = (0, 0)
  private var nextFilter: (handles: UInt64, captures: UInt64) = (0, 0)

  /// Adds a node under `parent` (-1 for the root). Children must be added in one run per parent.
  mutating func add(_ frame: NodeFrame, under parent: Int) -> Int {
    let node = nodes.count
    nodes.append(
      Node(
        parent: parent, left: frame.x, top: frame.y, right: frame.x + frame.width,
        bottom: frame.y + frame.height))
    bodies.append([])
    isHovered.append(false)
    if parent >= 0 {
      if nodes[parent].children.isEmpty { nodes[parent].children = childList.count..<childList.count }
      childList.append(node)
      nodes[parent].children = nodes[parent].children.lowerBound..<childList.count
    }
    return node
  }

  mutating func handle(_ bit: UInt64, on node: Int, _ body: @escaping (PointerLocation) -> Void) {
    nodes[node].handles |= bit
    bodies[node].append((bit, body))
  }

  mutating func setFocusable(_ node: Int) { nodes[node].isFocusable = true }

  private static func contains(_ node: Node, _ location: PointerLocation) -> Bool {
    location.x >= node.left && location.x < node.right && location.y >= node.top && location.y < node.bottom
  }

  /// Fills `next` with the path to the node under `location`, root first (later children above
  /// earlier ones), and makes it the hit path; the previous one goes to `next`.
  mutating func hit(_ location: PointerLocation) {
    // NB: read through locals, and the path built in a local taken out of `next`, so that the
    // loop checks no uniqueness and no capacity: a path is never longer than the tree.
    let (nodes, childList) = (self.nodes, self.childList)
    var built: [Int] = []
    swap(&built, &next)
    if built.count < nodes.count { built = Array(repeating: 0, count: nodes.count) }
    var length = 0
    var filter: (handles: UInt64, captures: UInt64) = (0, 0)
    if Self.contains(nodes[0], location) {
      var node = 0
      built[0] = 0
      length = 1
      filter = (nodes[0].handles, nodes[0].captures)
      descent: while true {
        var index = nodes[node].children.upperBound
        while index > nodes[node].children.lowerBound {
          index -= 1
          let child = childList[index]
          if Self.contains(nodes[child], location) {
            node = child
            built[length] = node
            length += 1
            filter.handles |= nodes[child].handles
            filter.captures |= nodes[child].captures
            continue descent
          }
        }
        break
      }
    }
    next = built
    swap(&path, &next)
    (nextLength, pathLength) = (pathLength, length)
    nextFilter = pathFilter
    pathFilter = filter
  }

  /// Runs `node`'s handler for `bit`.
  private func run(_ bit: UInt64, on node: Int, _ location: PointerLocation) {
    for handler in bodies[node] where handler.bit == bit {
      handler.body(location)
      return
    }
  }

  /// Dispatches the action of `bit` along `path[..<end]`, whose modifiers take what `filter`
  /// says: the capture modifiers from the top, then the handlers from the bottom up; the node
  /// that handled it, or -1.
  func dispatch(
    _ bit: UInt64, along path: [Int], to end: Int, filter: (handles: UInt64, captures: UInt64),
    at location: PointerLocation
  ) -> Int {
    guard (filter.handles | filter.captures) & bit != 0 else { return -1 }
    let nodes = self.nodes
    for index in 0..<end where filter.captures & bit != 0 && nodes[path[index]].captures & bit != 0 {
      run(bit, on: path[index], location)
    }
    var index = end
    while index > 0 {
      index -= 1
      if nodes[path[index]].handles & bit != 0 {
        run(bit, on: path[index], location)
        return path[index]
      }
    }
    return -1
  }

  /// Moves the hover from the previous hit path (`next`, after `hit`) to the hit path, in the
  /// order the library documents: the flags first, then out at the old node, leave at each node
  /// left (the innermost first), over at the new node, enter at each node entered (the outermost
  /// first).
  mutating func moveHover(at location: PointerLocation) {
    let (old, new) = (next, path)
    let (oldLength, newLength) = (nextLength, pathLength)
    var shared = 0
    while shared < oldLength, shared < newLength, old[shared] == new[shared] { shared += 1 }
    guard shared < oldLength || shared < newLength else { return }
    for index in shared..<oldLength { isHovered[old[index]] = false }
    for index in shared..<newLength { isHovered[new[index]] = true }
    let nodes = self.nodes
    if oldLength > 0 { sink(dispatch(Self.out, along: old, to: oldLength, filter: nextFilter, at: location)) }
    var index = oldLength
    while index > shared {
      index -= 1
      if nodes[old[index]].handles & Self.leave != 0 { run(Self.leave, on: old[index], location) }
    }
    if newLength > 0 {
      sink(dispatch(Self.over, along: new, to: newLength, filter: pathFilter, at: location))
    }
    for index in shared..<newLength where nodes[new[index]].handles & Self.enter != 0 {
      run(Self.enter, on: new[index], location)
    }
  }
}

/// The reference for `HoverState`: the same tree, handlers and moves as a `PlainPointerTree`,
/// and the same work in one pass: the descent recording the path, the hover moved by a prefix
/// diff of the old and new paths with out, leave, over and enter, then the move dispatched.
package final class MinimalHoverTree {
  private var tree = PlainPointerTree()
  package let left: PointerLocation
  package let right: PointerLocation

  package init(shared: Int = 32, branch: Int = 32) {
    let width = Double(4 * (shared + branch))
    let middle = width / 2
    left = PointerLocation(x: middle - 1, y: 5)
    right = PointerLocation(x: middle, y: 5)
    // Built level by level, so that each node's children are added in one run.
    var top = tree.add(NodeFrame(x: 0, y: 0, width: width, height: 10), under: -1)
    for level in 1..<shared {
      top = tree.add(
        NodeFrame(x: Double(level), y: 0, width: width - Double(2 * level), height: 10), under: top)
    }
    var ends = [top, top]
    for level in 0..<branch {
      let inset = Double(shared + level)
      for side in 0..<2 {
        ends[side] = tree.add(
          side == 0
            ? NodeFrame(x: inset, y: 0, width: middle - inset, height: 10)
            : NodeFrame(x: middle, y: 0, width: middle - inset, height: 10),
          under: ends[side])
        if level == 0 {
          tree.handle(PlainPointerTree.enter, on: ends[side]) { sink($0) }
          tree.handle(PlainPointerTree.leave, on: ends[side]) { sink($0) }
        }
      }
    }
    tree.handle(PlainPointerTree.move, on: 0) { sink($0) }
  }

  /// Moves the pointer to `location`; returns the node that took the move, or -1.
  package func move(to location: PointerLocation) -> Int { tree.pointerMove(to: location) }
}

extension PlainPointerTree {
  mutating func pointerMove(to location: PointerLocation) -> Int {
    hit(location)
    moveHover(at: location)
    return dispatch(Self.move, along: path, to: pathLength, filter: pathFilter, at: location)
  }

  /// A press and a release at `location` after the focus was cleared: the press focuses the
  /// nearest focusable node from the one hit up and is dispatched, the release is dispatched
  /// where it is hit, and a click follows where the press was if the release is over it.
  mutating func click(at location: PointerLocation, focused: inout Int) -> Int {
    focused = -1
    hit(location)
    moveHover(at: location)
    guard pathLength > 0 else { return -1 }
    let pressed = path[pathLength - 1]
    var candidate = pressed
    while candidate >= 0, !nodes[candidate].isFocusable { candidate = nodes[candidate].parent }
    focused = candidate
    sink(dispatch(Self.press, along: path, to: pathLength, filter: pathFilter, at: location))
    hit(location)
    moveHover(at: location)
    guard pathLength > 0 else { return -1 }
    let released = path[pathLength - 1]
    sink(dispatch(Self.release, along: path, to: pathLength, filter: pathFilter, at: location))
    guard released == pressed else { return -1 }
    return dispatch(Self.click, along: path, to: pathLength, filter: pathFilter, at: location)
  }
}

/// The reference for `ClickToFocusState`: the same chain, frames and focusable node as a
/// `PlainPointerTree`, and the same work in one pass each: the focus cleared, the press (the
/// descent, the focus given to the nearest node from the hit one up that can take it, the press
/// dispatched), the release (the descent again, the release dispatched) and the click dispatched
/// from the node pressed.
package final class MinimalClickChain {
  private var tree = PlainPointerTree()
  private var focused = -1
  package let location: PointerLocation

  package init(depth: Int = 16) {
    location = PointerLocation(x: Double(depth), y: Double(depth))
    for level in 0..<depth {
      let node = tree.add(
        level == 0
          ? NodeFrame(x: 0, y: 0, width: 100, height: 100)
          : NodeFrame(x: Double(level), y: Double(level), width: 50, height: 50),
        under: level - 1)
      if level == depth / 2 { tree.setFocusable(node) }
    }
  }

  /// One click: returns the node that took it, or -1.
  package func click() -> Int { tree.click(at: location, focused: &focused) }
}
