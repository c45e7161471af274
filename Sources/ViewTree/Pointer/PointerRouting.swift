/// A tree's pointer: what it is over, what holds it, which buttons are down and where they went
/// down, and the last click, for double clicks.
///
/// Its nodes are held `unowned`: the root owns the tree's state and may be any of them, and
/// `repairPointer` forgets each one as it leaves the tree, so none is read after it is gone. (A
/// `weak` reference would give each node it ever named a side table, which makes every later
/// retain and release of that node take the runtime's slow path.)
struct TreePointer {
  /// The innermost node the pointer is over; it and its ancestors have `isHovered` set, and no
  /// other node has (see `TreeState.moveHover` and `repairPointer`).
  unowned var hovered: Node?
  /// Where the pointer was at the last event, and the modifiers then; `hasLocation` once an
  /// event came, so that a change of the layout runs the hover there again.
  var location = PointerLocation(x: 0, y: 0)
  var hasLocation = false
  var modifiers: KeyModifiers = []
  /// The buttons down.
  var buttons: PointerButtons = []
  /// The node pointer events go to, whatever is under the pointer.
  unowned var capture: Node?
  /// Whether a capture was asked for, or released, that the next event puts in place (Pointer
  /// Events' pending pointer capture), and the node asked for (`nil` releases).
  var hasPendingCapture = false
  unowned var pendingCapture: Node?
  /// Whether the node that had the capture left the tree: the root hears of the lost capture at
  /// the next event.
  var captureLeftTree = false
  /// Where each button down went down, and the click count its press started.
  var presses: [Press] = []
  /// The last click, for the count of the next.
  var lastClick: Click?
  /// How close in time two clicks on one node are to count as a double click.
  var multiClickInterval = Duration.milliseconds(500)
  /// Whether anything above that names a node may be set, which a removal must then repair: set
  /// with each of them, worked out afresh by `repairPointer`.
  var isTracking = false
  /// Lists the hover update fills, kept so that moving the pointer allocates nothing.
  var leaving: [Node] = []
  var entering: [Node] = []

  struct Press {
    let button: PointerButton
    unowned let node: Node
    let clickCount: Int
    /// Whether a node from the pressed one up had a default action: the click looks for it again
    /// only then.
    let activates: Bool
  }

  struct Click {
    let button: PointerButton
    unowned let node: Node
    /// When it was released (a `PointerInput.timestamp`): the next press counts as the next click
    /// within `multiClickInterval` of it, as the interval is when that press comes.
    let time: Duration
    let count: Int
  }
}

extension Node {
  /// Whether the pointer is over this node or one of its descendants (its hover path), or, while
  /// a node has captured the pointer, whether this node is that node or one of its ancestors.
  public var isHovered: Bool { existingExtras?.pointer.isHovered ?? false }

  /// Whether pointer events go to this node, wherever the pointer is (see
  /// ``NodeTree/setPointerCapture(_:)``).
  public var hasPointerCapture: Bool { tree?.state.pointer.capture === self }
}

extension TreeState {
  /// Routes one pointer event (see ``NodeTree/handlePointer(_:)``).
  func route(_ input: PointerInput) -> PointerResult {
    // An event routed while an update runs (from one of its callbacks) meets a settled pointer.
    if updates.hoverPath != nil || !updates.held.isEmpty { settlePointer() }
    let location = input.location
    let modifiers = input.modifiers
    pointer.location = location
    pointer.hasLocation = true
    pointer.modifiers = modifiers
    switch input.kind {
    case .press(let button): pointer.buttons.insert(PointerButtons(button))
    case .release(let button): pointer.buttons.remove(PointerButtons(button))
    case .move, .wheel: break
    }
    if focus.isModal, let modal = focus.modal, let capture = pointer.capture, !capture.isDescendant(of: modal)
    {
      // A modal scope took the focus during a drag outside it: the drag ends there.
      pointer.hasPendingCapture = true
      pointer.pendingCapture = nil
    }
    processPendingCapture()
    let capture = pointer.capture
    var known = KnownFilters()
    let target = capture ?? hit(at: location, learning: &known)
    moveHover(to: target, known: &known)
    guard let target else {
      if case .release(let button) = input.kind, !pointer.presses.isEmpty {
        pointer.presses.removeAll { $0.button == button }
      }
      // Outside a modal scope that holds the focus, the event meets only inert nodes.
      return PointerResult(target: nil, outcome: nil, click: nil, focus: .unchanged, blockedBy: focus.modal)
    }
    switch input.kind {
    case .move:
      let move = PointerMove(location: location, modifiers: modifiers, buttons: pointer.buttons)
      let outcome = send(move, to: target, captured: capture != nil, filter: known.path)
      return PointerResult(target: target, outcome: outcome, click: nil, focus: .unchanged)
    case .press(let button):
      let clickCount = nextClickCount(of: button, on: target, at: input.timestampOrNow)
      // The click this press begins activates an item: no report that nobody handled the press.
      let activates = button == .primary && target.nearestDefaultAction(within: root) != nil
      if !pointer.presses.isEmpty { pointer.presses.removeAll { $0.button == button } }
      pointer.presses.append(
        TreePointer.Press(button: button, node: target, clickCount: clickCount, activates: activates))
      pointer.isTracking = true
      let focus = focusOnPress(target)
      let press = PointerPress(
        location: location, button: button, modifiers: modifiers, clickCount: clickCount)
      let outcome = send(press, to: target, captured: capture != nil, filter: nil, reported: !activates)
      return PointerResult(target: target, outcome: outcome, click: nil, focus: focus)
    case .release(let button):
      let release = PointerRelease(location: location, button: button, modifiers: modifiers)
      let outcome = send(release, to: target, captured: capture != nil, filter: known.path)
      let (click, activated) = clickIfComplete(
        button, at: location, modifiers: modifiers, time: input.timestampOrNow, captured: capture)
      if pointer.buttons.isEmpty, pointer.capture != nil || pointer.hasPendingCapture {
        // Implicit release after the last button: the capture goes, and the pointer is over what
        // it is over again.
        pointer.hasPendingCapture = true
        pointer.pendingCapture = nil
        processPendingCapture()
        var afresh = KnownFilters()
        moveHover(to: hit(at: location, learning: &afresh), known: &afresh)
      }
      return PointerResult(
        target: target, outcome: outcome, click: click, focus: .unchanged, activated: activated)
    case .wheel(let deltaX, let deltaY):
      let wheel = PointerWheel(location: location, modifiers: modifiers, deltaX: deltaX, deltaY: deltaY)
      let direction = ScrollDirection(deltaX: deltaX, deltaY: deltaY)
      let receiver = direction.flatMap { nearestScroller(from: target, $0) } ?? target
      let outcome = send(wheel, to: receiver, captured: capture != nil, filter: nil)
      return PointerResult(target: receiver, outcome: outcome, click: nil, focus: .unchanged)
    }
  }

  /// What the router knows of the type filters on the paths of this event (see
  /// `Dispatcher.mayRun`), from the hit descent: valid until user code runs, which may add
  /// modifiers; `nil` for not known.
  struct KnownFilters {
    /// The filters from the hit node to the root.
    var path: UInt64?
    /// The deepest node the old and the new hover paths share, and the filters from it to the
    /// root, when the descent found them.
    var shared: Node??
    var sharedFilter: UInt64?

    /// Forgets it all: user code may have run.
    mutating func forget() { self = KnownFilters() }
  }

  /// The top-most node hit at `location`; when one descent found it, `known` learns what the
  /// descent saw of the path. While a modal scope holds the focus, what lies outside it is inert,
  /// as if absent: only its subtree is hit tested.
  private func hit(at location: PointerLocation, learning known: inout KnownFilters) -> Node? {
    if focus.isModal { return fullFirstHit(at: location) }
    let descent = descend(to: location)
    guard descent.isExact else { return fullFirstHit(at: location) }
    known.path = descent.pathFilter
    known.shared = .some(descent.hovered?.takeUnretainedValue())
    known.sharedFilter = descent.hoveredFilter
    return descent.target?.takeUnretainedValue()
  }

  /// The top-most node hit at `location`, if any: what one descent finds, unless it took a turn
  /// the full walk might come back from.
  func firstHit(at location: PointerLocation) -> Node? {
    if focus.isModal { return fullFirstHit(at: location) }
    let descent = descend(to: location)
    if descent.isExact { return descent.target?.takeUnretainedValue() }
    return fullFirstHit(at: location)
  }

  private func fullFirstHit(at location: PointerLocation) -> Node? {
    var found: Node?
    forEachHit(at: location, within: focus.modal) { node in
      found = node
      return false
    }
    return found
  }

  /// Dispatches `action` at `target`, unless `filter` (the filters of its path, when known)
  /// shows that the dispatch would end at once (see `Dispatcher.mayRun`); when nobody took it
  /// and `target` is translucent (and did not capture the pointer), at the nodes hit below it in
  /// turn, until one does. Unless `reported`, nobody handling it is no report (an item takes it).
  private func send<A: PointerAction>(
    _ action: A, to target: Node, captured: Bool, filter: UInt64?, reported: Bool = true
  ) -> ActionOutcome {
    if let filter, !Dispatcher.mayRun(A.self, onPathWith: filter) { return .unhandled(action) }
    let outcome = reported ? target.trigger(action) : withoutUnhandledReport { target.trigger(action) }
    guard case .unhandled = outcome, !captured,
      target.existingExtras?.pointer.geometry.hitBehavior == .translucent
    else {
      return outcome
    }
    var below = false
    var last = outcome
    var hits: [Node] = []
    forEachHit(at: action.location, within: focus.modal) { node in
      hits.append(node)
      return true
    }
    for node in hits {
      guard below else {
        below = node === target
        continue
      }
      last = reported ? node.trigger(action) : withoutUnhandledReport { node.trigger(action) }
      guard case .unhandled = last else { break }
    }
    return last
  }

  // MARK: - Hover

  /// Makes `new` the node the pointer is over: flags the hover path, then tells the nodes whose
  /// hover changed, as Pointer Events do: out at the old node (it bubbles), leave at each node
  /// the pointer left (the innermost first), over at the new node, enter at each node it entered
  /// (the outermost first). Leave and enter go to those nodes only.
  ///
  /// `known` says what the hit descent saw; what user code may have changed is forgotten.
  func moveHover(to new: Node?, known: inout KnownFilters) {
    let old = pointer.hovered
    // A handler may have given the root a parent, whose tree routes the pointer now.
    guard old !== new, root.activeParent == nil else { return }
    // The flags are set, and the nodes to tell listed, before any handler runs, so that a
    // handler sees the hover as it now is, and may move the pointer again. A node is told of a
    // leave or an enter only if one of its modifiers might take it.
    var leaving: [Node] = []
    var entering: [Node] = []
    swap(&leaving, &pointer.leaving)
    swap(&entering, &pointer.entering)
    defer {
      leaving.removeAll(keepingCapacity: true)
      entering.removeAll(keepingCapacity: true)
      swap(&leaving, &pointer.leaving)
      swap(&entering, &pointer.entering)
    }
    // The innermost node both paths share: the first hovered node from `new` up.
    let shared = known.shared ?? new?.firstAncestor { $0.isHovered }
    let leftFilter =
      old?.setHover(false, below: shared, notifying: PointerLeave.self) { leaving.append($0) } ?? 0
    new?.setHover(true, below: shared, notifying: PointerEnter.self) { entering.append($0) }
    pointer.hovered = new
    if new != nil { pointer.isTracking = true }
    let (location, modifiers) = (pointer.location, pointer.modifiers)
    // Out and over are sent only where a modifier on the path might take them: the filters the
    // descent saw, or, once user code may have added modifiers, a walk that reads them afresh.
    if let old {
      // The old path: the nodes left, and those above, which the new path shares.
      let filter = known.sharedFilter.map { $0 | leftFilter } ?? old.filtersToTop()
      if Dispatcher.mayRun(PointerOut.self, onPathWith: filter) {
        known.forget()
        old.trigger(PointerOut(location: location, modifiers: modifiers))
      }
    }
    if !leaving.isEmpty { known.forget() }
    for node in leaving { node.deliver(PointerLeave(location: location, modifiers: modifiers)) }
    if let new, Dispatcher.mayRun(PointerOver.self, onPathWith: known.path ?? new.filtersToTop()) {
      known.forget()
      new.trigger(PointerOver(location: location, modifiers: modifiers))
    }
    if !entering.isEmpty { known.forget() }
    for node in entering.reversed() { node.deliver(PointerEnter(location: location, modifiers: modifiers)) }
  }

  // MARK: - Capture

  /// Puts the capture asked for in place (Pointer Events' "process pending pointer capture"):
  /// the node that loses it hears first, then the node that gets it. When the node that had it
  /// left the tree, the root hears that it was lost.
  func processPendingCapture() {
    let (location, modifiers) = (pointer.location, pointer.modifiers)
    if pointer.captureLeftTree {
      pointer.captureLeftTree = false
      root.trigger(LostPointerCapture(location: location, modifiers: modifiers))
    }
    guard pointer.hasPendingCapture else { return }
    pointer.hasPendingCapture = false
    let new = pointer.pendingCapture.flatMap { $0.isDescendant(of: root) ? $0 : nil }
    pointer.pendingCapture = nil
    let old = pointer.capture
    guard old !== new else { return }
    pointer.capture = new
    if new != nil { pointer.isTracking = true }
    old?.trigger(LostPointerCapture(location: location, modifiers: modifiers))
    new?.trigger(GotPointerCapture(location: location, modifiers: modifiers))
  }

  // MARK: - Clicks and focus

  /// The click count a press of `button` on `node` at `time` starts: one more than the last
  /// click's when it was the same button on the same node, recently enough.
  private func nextClickCount(of button: PointerButton, on node: Node, at time: Duration)
    -> Int
  {
    // Read in place: a copy of the click would retain its node.
    guard pointer.lastClick?.button == button, let clicked = pointer.lastClick?.time,
      time <= clicked + pointer.multiClickInterval,
      pointer.lastClick?.node === node, let count = pointer.lastClick?.count
    else {
      return 1
    }
    return count + 1
  }

  /// After a release of `button`: the click it completes, dispatched at the node it was pressed
  /// on, if the node under the pointer is that node (whatever holds the capture); and, for a
  /// primary click nobody handled, what the default action it ran returned.
  private func clickIfComplete(
    _ button: PointerButton, at location: PointerLocation, modifiers: KeyModifiers,
    time: Duration, captured: Node?
  ) -> (ActionOutcome?, Any?) {
    guard let index = pointer.presses.firstIndex(where: { $0.button == button }) else { return (nil, nil) }
    let press = pointer.presses.remove(at: index)
    // The hovered node is in the tree (`repairPointer` keeps it so); a node hit is too.
    let node = press.node
    guard node === (captured == nil ? pointer.hovered : firstHit(at: location)) else {
      return (nil, nil)
    }
    pointer.lastClick = TreePointer.Click(
      button: button, node: node, time: time, count: press.clickCount)
    let click = PointerClick(
      location: location, button: button, modifiers: modifiers, clickCount: press.clickCount)
    let item = press.activates ? node.nearestDefaultAction(within: root) : nil
    let outcome = send(click, to: node, captured: captured != nil, filter: nil, reported: item == nil)
    // As the DOM's activation behaviour: only when no handler took the click.
    guard let item, case .unhandled = outcome, item.node.isDescendant(of: root) else { return (outcome, nil) }
    return (outcome, item.action.activate(item.node, item.action.identifier))
  }

  /// Focuses the nearest node from `target` up that can take focus, unless it declares
  /// `focusOnPress: false`, has the focus, or is outside the trap that holds it.
  private func focusOnPress(_ target: Node) -> PointerFocus {
    guard let candidate = nearestFocusable(from: target), candidate !== focus.node,
      candidate.inputTraits?.focusOnPress != false
    else { return .unchanged }
    if let trap = focus.node?.enclosingTrap(within: root), !candidate.isDescendant(of: trap) {
      return .refused(candidate, trap: trap)
    }
    // The focus filter, user code, may have taken the candidate out of the tree.
    return setFocus(candidate, reason: .pointer) ? .moved(to: candidate) : .unchanged
  }

  /// The nearest node from `target` up that scrolls that way and can still scroll.
  private func nearestScroller(from target: Node, _ direction: ScrollDirection) -> Node? {
    var node: Node? = target
    while let current = node {
      // `scrolls` asks the toolkit's closure: user code, called on a node this walk retains.
      if current.scrolls(direction) { return current }
      node = current.parent(within: root)
    }
    return nil
  }

  // MARK: - Layout

  /// Runs the hover again at the pointer's last location, as a move there would, without a
  /// move action: what moved under the still pointer is entered, what moved away is left. The
  /// capture holds the hover while it lasts.
  func rehover() {
    guard pointer.capture == nil, root.activeParent == nil else { return }
    var known = KnownFilters()
    moveHover(to: hit(at: pointer.location, learning: &known), known: &known)
  }

  /// While an update runs, a removal that cuts the hover path keeps the path as it was until the
  /// update ends (see `settlePointer`); the nodes that left are held meanwhile.
  func keepHoverPath(_ removed: some Collection<Node>, formerParent: Node) {
    if updates.hoverPath == nil, let hovered = pointer.hovered, removed.contains(where: \.isHovered) {
      // The path as it was: from the hovered node up to the cut, then from the former parent up.
      var path: [Node] = []
      var node: Node? = hovered
      while let current = node {
        path.append(current)
        node = current.activeParent
      }
      node = formerParent
      while let current = node, current.isHovered {
        path.append(current)
        node = current.activeParent
      }
      updates.hoverPath = path
    }
  }

  /// At the end of an update (or before an event routed during one): what the pointer named and
  /// left is forgotten, as `repairPointer` forgets it, and the hover path is made whole again:
  /// the hovered node back in the tree stays hovered, with its new ancestors; one that is gone
  /// leaves the pointer over the nearest of its former ancestors still here. Nobody is told: the
  /// hover is run again after (see `rehover`).
  func settlePointer() {
    if let path = updates.hoverPath {
      updates.hoverPath = nil
      for node in path { node.existingExtras?.pointer.isHovered = false }
      let hovered = path.first { $0.isDescendant(of: root) }
      var node = hovered
      while let current = node {
        current.extras.pointer.isHovered = true
        node = current.parent(within: root)
      }
      pointer.hovered = hovered
    }
    forgetNodesThatLeft()
    updateTracking()
  }

  // MARK: - Repair

  /// After the root was adopted by another node, whose tree routes the pointer from now on (its
  /// hover flags would clash with this tree's): forgets the hover, the capture, the buttons and
  /// the clicks, as a repair does, without telling anyone.
  func dropPointer() {
    var node = pointer.hovered
    while let current = node, current.isHovered {
      current.extras.pointer.isHovered = false
      node = current === root ? nil : current.activeParent
    }
    let multiClickInterval = pointer.multiClickInterval
    pointer = TreePointer()
    pointer.multiClickInterval = multiClickInterval
  }

  /// After `removed` left `formerParent`: what named a node that left the tree is forgotten (a
  /// capture, asked for or held, a press, the last click), and a hover path that ran through the
  /// removed nodes is mended. Nobody is told: the next event tells what changed.
  func repairPointer(_ removed: some Collection<Node>, formerParent: Node) {
    forgetNodesThatLeft()
    repairHover(removed, formerParent: formerParent)
    updateTracking()
  }

  /// Forgets a capture, asked for or held, a press and the last click that name a node no
  /// longer in the tree.
  private func forgetNodesThatLeft() {
    if let capture = pointer.capture, !capture.isDescendant(of: root) {
      pointer.capture = nil
      pointer.captureLeftTree = true
    }
    // A capture asked for a node that left is dropped: the current one, if any, stays.
    if pointer.hasPendingCapture, let pending = pointer.pendingCapture, !pending.isDescendant(of: root) {
      pointer.hasPendingCapture = false
      pointer.pendingCapture = nil
    }
    if !pointer.presses.isEmpty { pointer.presses.removeAll { !$0.node.isDescendant(of: root) } }
    if let last = pointer.lastClick, !last.node.isDescendant(of: root) { pointer.lastClick = nil }
  }

  private func updateTracking() {
    pointer.isTracking =
      pointer.hovered != nil || pointer.capture != nil || pointer.pendingCapture != nil
      || !pointer.presses.isEmpty || pointer.lastClick != nil
  }

  /// The hover part of `repairPointer`. A hovered node that moved within the tree stays hovered,
  /// with its new ancestors flagged; one that left leaves the pointer over the former parent
  /// until it moves.
  private func repairHover(_ removed: some Collection<Node>, formerParent: Node) {
    // The hover path runs through the removed nodes exactly when one of them is flagged.
    guard let hovered = pointer.hovered, let cut = removed.first(where: \.isHovered) else { return }
    // The path above the cut is the former parent's.
    var node: Node? = formerParent
    while let current = node, current.isHovered {
      current.extras.pointer.isHovered = false
      node = current.activeParent
    }
    if hovered.isDescendant(of: root) {
      node = hovered
      while let current = node {
        current.extras.pointer.isHovered = true
        node = current.parent(within: root)
      }
      return
    }
    // Below the cut, the path went with the nodes that left; where they went is no concern of
    // this tree's.
    node = hovered
    while let current = node {
      current.extras.pointer.isHovered = false
      node = current === cut ? nil : current.activeParent
    }
    guard formerParent.isDescendant(of: root) else {
      pointer.hovered = nil
      return
    }
    node = formerParent
    while let current = node {
      current.extras.pointer.isHovered = true
      node = current.parent(within: root)
    }
    pointer.hovered = formerParent
  }
}

extension Node {
  /// Clears the hover marks on this node and on the hovered path below it, when the root of the
  /// tree whose pointer set them is freed (see `Node.deinit`): the marks form one path down from
  /// the node, so one child per level is marked.
  ///
  /// - Complexity: O(*w*·*d*) for the path's depth *d* and its nodes' widths *w*.
  func clearHoverMarks() {
    var node = self
    while let extras = node.existingExtras, extras.pointer.isHovered {
      extras.pointer.isHovered = false
      let children = (0..<node.childCount).lazy.map(node.child(at:))
      guard let next = children.first(where: \.isHovered) else { return }
      node = next
    }
  }
}

/// What the pointer keeps on a node (`NodeExtras.pointer`): where the node is, for hit testing and
/// direction moves, and whether the pointer is over it. Plain fields, as hit testing reads the
/// frame of every sibling it tries.
struct NodePointerState {
  /// What the node declared (see `NodeGeometry`).
  var geometry = NodeGeometry() {
    didSet {
      (right, bottom) = geometry.frame.map { ($0.maxX, $0.maxY) } ?? (-.infinity, -.infinity)
    }
  }
  /// The frame's right and bottom edges, computed once when it is set, so that the hit walk
  /// tests a sibling with four comparisons and no addition.
  private(set) var right = -Double.infinity
  private(set) var bottom = -Double.infinity
  /// Whether a child declared a `zIndex` once, so that hit testing sorts the children (see
  /// `TreeState.forEachHit`).
  var sortsChildrenByZIndex = false
  /// Whether the pointer is over this node or a descendant (see `TreePointer.hovered`).
  var isHovered = false
}
