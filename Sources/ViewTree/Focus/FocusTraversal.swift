/// A position in a depth-first pre-order walk confined to one subtree, the domain: the nodes from
/// the domain's root down to the current node, each with its index among its parent's children,
/// so that a step costs O(1) however many siblings there are.
struct FocusWalk {
  struct Frame {
    let node: Node
    let index: Int
  }

  private var frames: ContiguousArray<Frame> = []
  /// Where the last walk of the focus ended: the indices of its frames, and its domain. The next
  /// walk looks there first for each node's position among its siblings, so finding it costs
  /// O(1) unless the tree changed at that spot.
  private var hint: ContiguousArray<Int> = []
  /// The domain's identity only: a hint is checked before it is used, so one that outlived its
  /// domain costs a search, never a wrong answer.
  private var hintDomain: ObjectIdentifier?

  var current: Node { frames[frames.count - 1].node }
  var isAtDomain: Bool { frames.count == 1 }

  /// Places the walk at `node`, in the subtree of `domain` (one of its ancestors, or itself).
  mutating func start(at node: Node, domain: Node) {
    frames.removeLast(frames.count)
    var ancestor = node
    while ancestor !== domain, let parent = ancestor.activeParent {
      frames.append(Frame(node: ancestor, index: 0))
      ancestor = parent
    }
    frames.append(Frame(node: domain, index: 0))
    // Gathered from the node up; the walk needs them from the domain down.
    var (low, high) = (0, frames.count - 1)
    while low < high {
      frames.swapAt(low, high)
      (low, high) = (low + 1, high - 1)
    }
    let hinted = hintDomain == ObjectIdentifier(domain)
    for level in frames.indices.dropFirst() {
      let near = hinted && level < hint.count ? hint[level] : 0
      let child = frames[level].node
      frames[level] = Frame(node: child, index: frames[level - 1].node.index(ofChild: child, near: near))
    }
  }

  /// Keeps the walk's position as the hint for the next walk in `domain`.
  mutating func rememberPosition(domain: Node) {
    hint.removeLast(hint.count)
    for frame in frames { hint.append(frame.index) }
    hintDomain = ObjectIdentifier(domain)
  }

  /// Forgets the hint, when the focus moved somewhere no walk went.
  mutating func forgetPosition() { hintDomain = nil }

  /// Lets the walk's nodes go, keeping its storage: a walk kept in the tree's state must not
  /// hold the tree's nodes, among them the root, which owns that state.
  mutating func finish() { frames.removeLast(frames.count) }

  /// Moves to the next node in pre-order, into the current node's children only if
  /// `enterChildren`; after the domain's last node, to the domain's root.
  mutating func stepForward(enterChildren: Bool) {
    let node = current
    if enterChildren, node.childCount > 0 {
      frames.append(Frame(node: node.child(at: 0), index: 0))
      return
    }
    while frames.count > 1 {
      // The next sibling takes the last frame's place; past the last sibling, the walk climbs.
      let last = frames.count - 1
      let index = frames[last].index + 1
      let parent = frames[last - 1].node
      if index < parent.childCount {
        frames[last] = Frame(node: parent.child(at: index), index: index)
        return
      }
      frames.removeLast()
    }
  }

  /// Moves to the previous node in pre-order, going down only into the nodes `descendInto`
  /// accepts; before the domain's root, to the domain's last node.
  mutating func stepBackward(descendInto: (Node) -> Bool) {
    if frames.count > 1 {
      let index = frames.removeLast().index - 1
      let parent = frames[frames.count - 1].node
      // The parent comes before its children. (The bound holds unless user code called during the
      // walk, a focus filter, removed children: then the walk goes on from the parent.)
      guard index >= 0, index < parent.childCount else { return }
      frames.append(Frame(node: parent.child(at: index), index: index))
    }
    while descendInto(current) {
      let count = current.childCount
      guard count > 0 else { return }
      frames.append(Frame(node: current.child(at: count - 1), index: count - 1))
    }
  }
}

extension Node {
  /// Calls `body` with each node below this one that declares focus traits, in tree order; the
  /// descendants of a node that makes them unfocusable are not visited. `body` must not change
  /// the tree.
  func forEachDeclaringFocus(_ body: (Node, InputTraits) -> Void) {
    forEachInSubtree { node in
      if node !== self, node.isInactive { return .skipChildren }
      guard node !== self, let traits = node.inputTraits else {
        return .enterChildren
      }
      body(node, traits)
      return traits.descendantsFocusable ? .enterChildren : .skipChildren
    }
  }

  /// The position of `child` among this node's children, looked for at `near` first and then
  /// ever farther from it.
  func index(ofChild child: Node, near: Int) -> Int {
    let count = childCount
    for distance in 0...Swift.max(near, count) {
      let below = near - distance
      if below >= 0, below < count, self.child(at: below) === child { return below }
      let above = near + distance
      if above < count, self.child(at: above) === child { return above }
    }
    preconditionFailure("\(child.path) is not a child of \(path)")
  }

  /// This node's parent as the tree whose root is `root` sees it: `nil` at `root`, above which
  /// nothing counts for the tree's focus (the root may have been adopted by another node, even
  /// one of another tree). With `root` `nil`, the parent.
  func parent(within root: Node?) -> Node? {
    self === root ? nil : activeParent
  }

  /// The nearest trapping scope this node is in (itself included), if any, in the tree whose
  /// root is `root`.
  func enclosingTrap(within root: Node) -> Node? { firstAncestor(within: root) { $0.isFocusTrap } }

}

extension TreeState {
  /// The focused node, unless it has left the tree, which it can only while an update runs
  /// (its repair waits for the end) or while a repair runs (the focus names the node that left
  /// until a new one is set): then it has no place in the tree to move from.
  private var focusInTree: Node? {
    guard let node = focus.node else { return nil }
    if updates.isDeferring || updates.repairs > 0, !node.isDescendant(of: root) { return nil }
    return node
  }

  /// Where `move` takes the focus (nothing is triggered), or `nil` when it stays.
  func focusTarget(for move: FocusMove) -> Node? {
    guard let current = focusInTree else {
      if move.isForward, root.isTabStop(within: root) { return root }
      return enter(root, forward: move.isForward) ?? (root.isTabStop(within: root) ? root : nil)
    }
    if !move.isTraversal, let frame = current.frame {
      return nearest(move, from: current, frame: frame)
    }
    let target = tabTarget(from: current, forward: move.isForward)
    return target === current ? nil : target
  }

  /// The node Tab (or Shift-Tab) moves to from `current`.
  private func tabTarget(from current: Node, forward: Bool) -> Node? {
    // One walk up: the trap Tab stays in (or the whole tree), and the innermost scope declared
    // `ordered` inside it.
    var domain = root
    var ordered: Node?
    var ancestor: Node? = current
    while let node = ancestor {
      if let traits = node.inputTraits, let kind = traits.scope {
        if traits.ordered, ordered == nil { ordered = node }
        if kind == .trap {
          domain = node
          break
        }
      }
      ancestor = node.parent(within: root)
    }
    // In a scope declared `ordered`, the declared order; past its ends, tree order from the scope.
    var left: Node?
    if let scope = ordered {
      let stops = tabOrder(of: scope)
      guard let index = stops.firstIndex(where: { $0 === current }) else {
        return forward ? stops.first : stops.last
      }
      let next = forward ? index + 1 : index - 1
      if stops.indices.contains(next) { return stops[next] }
      if scope === domain { return forward ? stops.first : stops.last }
      left = scope
    }
    var walk = FocusWalk()
    swap(&walk, &focus.walk)
    defer {
      walk.finish()
      swap(&walk, &focus.walk)
    }
    // The scopes the focus is in are walked through; any other is entered as a whole.
    let isOpen = { (scope: Node) in
      current.isDescendant(of: scope) && !(left.map { scope.isDescendant(of: $0) } ?? false)
    }
    let mark = left ?? current
    walk.start(at: mark, domain: domain)
    let target = nextTabStop(&walk, domain: domain, mark: mark, forward: forward, isOpen: isOpen)
    if let target, walk.current === target {
      walk.rememberPosition(domain: domain)
    } else {
      walk.forgetPosition()
    }
    return target
  }

  /// Walks from `mark` to the next tab stop in `domain`: returns `nil` when the walk came back to
  /// `mark` first. A scope that is not open is a unit: entered (see `enter`), or passed over.
  private func nextTabStop(
    _ walk: inout FocusWalk, domain: Node, mark: Node, forward: Bool, isOpen: (Node) -> Bool
  ) -> Node? {
    func isUnit(_ node: Node, _ traits: InputTraits?) -> Bool {
      traits?.scope != nil && node !== domain && !isOpen(node)
    }
    var skipChildren = mark !== domain && isUnit(mark, mark.inputTraits)
    var wraps = 0
    while true {
      if forward {
        walk.stepForward(enterChildren: !skipChildren)
      } else {
        walk.stepBackward { node in
          if node !== domain, node.isInactive { return false }
          guard node !== domain, let traits = node.inputTraits else { return true }
          return traits.descendantsFocusable && !isUnit(node, traits)
        }
      }
      skipChildren = false
      let node = walk.current
      if node !== domain, node.isInactive {
        // Out of the tree with its subtree: passed over.
        if node === mark { return nil }
        skipChildren = forward
        continue
      }
      if walk.isAtDomain {
        // A tree that changed under a focus in a subtree the walk does not enter has no way back
        // to `mark`: two passes over the domain are enough.
        wraps += 1
        if wraps > 2 { return nil }
      }
      let traits = node.inputTraits
      if isUnit(node, traits) {
        if forward {
          if node.isTabStop(within: root) { return node }
          if let target = enter(node, forward: true) { return target }
          skipChildren = true
        } else if let target = enter(node, forward: false) ?? (node.isTabStop(within: root) ? node : nil) {
          return target
        }
        if node === mark { return nil }
        continue
      }
      if node === mark { return nil }
      guard let traits else { continue }
      if node.isTabStop(traits, within: root) { return node }
      if forward, !traits.descendantsFocusable { skipChildren = true }
    }
  }

  /// The node focus goes to when it enters `scope` from outside: the one the scope remembers,
  /// else its default, else its first tab stop (its last, going backward).
  func enter(_ scope: Node, forward: Bool) -> Node? {
    let traits = scope.inputTraits ?? InputTraits()
    let defaultFocus = scope[attachment: FocusDefaultKey.self]
    if let last = memory(of: scope)?.lastFocused, last !== scope, last.isDescendant(of: scope),
      last.focusBlocker(within: root) == nil
    {
      return last
    }
    if let id = defaultFocus, let node = scope.firstNode(withID: id), node.focusBlocker(within: root) == nil {
      return node
    }
    if !traits.descendantsFocusable { return nil }
    if traits.ordered {
      let stops = tabOrder(of: scope)
      return forward ? stops.first : stops.last
    }
    var walk = FocusWalk()
    walk.start(at: scope, domain: scope)
    return nextTabStop(&walk, domain: scope, mark: scope, forward: forward) { _ in false }
  }

  /// The tab stops of a scope declared `ordered`, in its order: positive orders first, lowest
  /// first, then order 0; ties in tree order.
  private func tabOrder(of scope: Node) -> [Node] {
    guard scope.inputTraits?.descendantsFocusable != false else { return [] }
    var stops: [(node: Node, order: Int, position: Int)] = []
    scope.forEachDeclaringFocus { node, traits in
      guard traits.isFocusable, traits.order >= 0 else { return }
      stops.append((node, traits.order > 0 ? traits.order : Int.max, stops.count))
    }
    stops.sort { ($0.order, $0.position) < ($1.order, $1.position) }
    // The tree's filter, which is user code, once the walk is over.
    return stops.map(\.node).filter { $0.blockerAbove(within: root) == nil }
  }

  /// The nearest tab stop with a frame in the direction of `move`, among those in the nearest
  /// scope around `current` (or the tree): those in line with `current` first, then by distance.
  private func nearest(_ move: FocusMove, from current: Node, frame origin: NodeFrame) -> Node? {
    var domain = current.parent(within: root)
    while let node = domain, node.inputTraits?.scope == nil {
      domain = node.parent(within: root)
    }
    let scope = domain ?? root
    // The nearest by frames first; the tree's filter, which is user code, only once the scan is
    // over. If it refuses that node, the others in order of distance, from a second scan.
    var best: (node: Node, key: (Int, Double, Double))?
    scope.forEachDeclaringFocus { node, traits in
      guard let key = Self.key(move, from: origin, current: current, to: node, traits),
        best.map({ key < $0.key }) ?? true
      else { return }
      best = (node, key)
    }
    guard let nearest = best?.node else { return nil }
    if nearest.blockerAbove(within: root) == nil { return nearest }
    var candidates: [(node: Node, key: (Int, Double, Double), position: Int)] = []
    scope.forEachDeclaringFocus { node, traits in
      guard node !== nearest, let key = Self.key(move, from: origin, current: current, to: node, traits)
      else {
        return
      }
      candidates.append((node, key, candidates.count))
    }
    candidates.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
    return candidates.first { $0.node.blockerAbove(within: root) == nil }?.node
  }

  /// The sort key of `node`, which declared `traits`, for a move from `current`: `nil` when it is
  /// not a candidate (not focusable, out of Tab's way, without a frame, or not that way).
  private static func key(
    _ move: FocusMove, from origin: NodeFrame, current: Node, to node: Node, _ traits: InputTraits
  ) -> (Int, Double, Double)? {
    guard node !== current, traits.isFocusable, traits.order >= 0, let frame = node.frame else {
      return nil
    }
    return distance(move, from: origin, to: frame)
  }

  /// How far `frame` lies from `origin` in the direction of `move`, as a sort key (in line first,
  /// then the gap along the move, then the offset across it), or `nil` when it does not lie that
  /// way.
  static func distance(_ move: FocusMove, from origin: NodeFrame, to frame: NodeFrame) -> (
    Int, Double, Double
  )? {
    let gap: Double
    let across: (Double, Double, Double, Double)  // the two spans across the move
    switch move {
    case .right, .next:
      guard frame.midX > origin.midX else { return nil }
      gap = frame.x - origin.maxX
      across = (origin.y, origin.maxY, frame.y, frame.maxY)
    case .left, .previous:
      guard frame.midX < origin.midX else { return nil }
      gap = origin.x - frame.maxX
      across = (origin.y, origin.maxY, frame.y, frame.maxY)
    case .down:
      guard frame.midY > origin.midY else { return nil }
      gap = frame.y - origin.maxY
      across = (origin.x, origin.maxX, frame.x, frame.maxX)
    case .up:
      guard frame.midY < origin.midY else { return nil }
      gap = origin.y - frame.maxY
      across = (origin.x, origin.maxX, frame.x, frame.maxX)
    }
    let overlap = Swift.min(across.1, across.3) - Swift.max(across.0, across.2)
    let offset = abs((across.2 + across.3) / 2 - (across.0 + across.1) / 2)
    let primary = Swift.max(gap, 0)
    if overlap > 0 { return (0, primary, offset) }
    return (1, primary + 2 * -overlap, offset)
  }
}
