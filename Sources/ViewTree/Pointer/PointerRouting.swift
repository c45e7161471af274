/// A tree's pointer: what it is over, what holds it, which buttons are down and where they went
/// down, and the last click, for double clicks.
struct TreePointer {
  /// The innermost node the pointer is over; it and its ancestors have `isHovered` set, and no
  /// other node has (see `TreeState.moveHover` and `repairPointer`).
  weak var hovered: Node?
  /// Where the pointer was at the last event, and the modifiers then.
  var location = PointerLocation(x: 0, y: 0)
  var modifiers: KeyModifiers = []
  /// The buttons down.
  var buttons: PointerButtons = []
  /// The node pointer events go to, whatever is under the pointer.
  weak var capture: Node?
  /// A capture asked for, or released, that the next event puts in place (Pointer Events' pending
  /// pointer capture): `.some(nil)` releases.
  var pendingCapture: WeakNode??
  /// Whether the node that had the capture left the tree: the root hears of the lost capture at
  /// the next event.
  var captureLeftTree = false
  /// Where each button down went down, and the click count its press started.
  var presses: [Press] = []
  /// The last click, for the count of the next.
  var lastClick: Click?
  /// How close in time two clicks on one node are to count as a double click.
  var multiClickInterval = Duration.milliseconds(500)
  /// Whether anything above is set that a removal may have to repair: the hover, a capture.
  var isTracking = false
  /// Lists the hover update fills, kept so that moving the pointer allocates nothing.
  var leaving: [Node] = []
  var entering: [Node] = []

  struct Press {
    let button: PointerButton
    weak var node: Node?
    let clickCount: Int
  }

  struct Click {
    let button: PointerButton
    weak var node: Node?
    let time: ContinuousClock.Instant
    let count: Int
  }
}

extension Node {
  /// Whether the pointer is over this node or one of its descendants (its hover path), or, while
  /// a node has captured the pointer, whether this node is that node or one of its ancestors.
  public var isHovered: Bool { _extras?.isHovered ?? false }

  /// Whether pointer events go to this node, wherever the pointer is (see
  /// ``NodeTree/setPointerCapture(_:)``).
  public var hasPointerCapture: Bool { tree?.state.pointer.capture === self }
}

extension TreeState {
  /// Routes one pointer event (see ``NodeTree/handlePointer(_:)``).
  func route(_ input: PointerInput) -> PointerResult {
    let location = input.location
    let modifiers = input.modifiers
    pointer.location = location
    pointer.modifiers = modifiers
    switch input.kind {
    case .press(let button): pointer.buttons.insert(PointerButtons(button))
    case .release(let button): pointer.buttons.remove(PointerButtons(button))
    case .move, .wheel: break
    }
    processPendingCapture()
    let capture = pointer.capture
    let target = capture ?? firstHit(at: location)
    moveHover(to: target)
    guard let target else {
      if case .release(let button) = input.kind { pointer.presses.removeAll { $0.button == button } }
      return PointerResult(target: nil, outcome: nil, click: nil, focus: .unchanged)
    }
    switch input.kind {
    case .move:
      let move = PointerMove(location: location, modifiers: modifiers, buttons: pointer.buttons)
      return PointerResult(
        target: target, outcome: send(move, to: target, captured: capture != nil), click: nil,
        focus: .unchanged)
    case .press(let button):
      let clickCount = nextClickCount(of: button, on: target, at: input.time)
      pointer.presses.removeAll { $0.button == button }
      pointer.presses.append(TreePointer.Press(button: button, node: target, clickCount: clickCount))
      let focus = focusOnPress(target)
      let press = PointerPress(
        location: location, button: button, modifiers: modifiers, clickCount: clickCount)
      return PointerResult(
        target: target, outcome: send(press, to: target, captured: capture != nil), click: nil, focus: focus)
    case .release(let button):
      let release = PointerRelease(location: location, button: button, modifiers: modifiers)
      let outcome = send(release, to: target, captured: capture != nil)
      let click = clickIfComplete(
        button, at: location, modifiers: modifiers, time: input.time, captured: capture)
      if pointer.buttons.isEmpty, pointer.capture != nil || pointer.pendingCapture != nil {
        // Implicit release after the last button: the capture goes, and the pointer is over what
        // it is over again.
        pointer.pendingCapture = .some(nil)
        processPendingCapture()
        moveHover(to: firstHit(at: location))
      }
      return PointerResult(target: target, outcome: outcome, click: click, focus: .unchanged)
    case .wheel(let deltaX, let deltaY):
      let wheel = PointerWheel(location: location, modifiers: modifiers, deltaX: deltaX, deltaY: deltaY)
      let direction = ScrollDirection(deltaX: deltaX, deltaY: deltaY)
      let receiver = direction.flatMap { nearestScroller(from: target, $0) } ?? target
      return PointerResult(
        target: receiver, outcome: send(wheel, to: receiver, captured: capture != nil), click: nil,
        focus: .unchanged)
    }
  }

  /// The top-most node hit at `location`, if any.
  private func firstHit(at location: PointerLocation) -> Node? {
    var found: Node?
    forEachHit(at: location) { node in
      found = node
      return false
    }
    return found
  }

  /// Dispatches `action` at `target`; when nobody took it and `target` is translucent (and did
  /// not capture the pointer), at the nodes hit below it in turn, until one does.
  private func send(_ action: some PointerAction, to target: Node, captured: Bool) -> ActionOutcome {
    let outcome = target.trigger(action)
    guard case .unhandled = outcome, !captured, target.inputTraits?.hitBehavior == .translucent else {
      return outcome
    }
    var below = false
    var last = outcome
    var hits: [Node] = []
    forEachHit(at: action.location) { node in
      hits.append(node)
      return true
    }
    for node in hits {
      guard below else {
        below = node === target
        continue
      }
      last = node.trigger(action)
      guard case .unhandled = last else { break }
    }
    return last
  }

  // MARK: - Hover

  /// Makes `new` the node the pointer is over: flags the hover path, then tells the nodes whose
  /// hover changed, as Pointer Events do: out at the old node (it bubbles), leave at each node
  /// the pointer left (the innermost first), over at the new node, enter at each node it entered
  /// (the outermost first). Leave and enter go to those nodes only.
  func moveHover(to new: Node?) {
    let old = pointer.hovered
    guard old !== new else { return }
    // The nodes are listed and the flags set before any handler runs, so that a handler sees the
    // hover as it now is, and may move the pointer again.
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
    let shared = new?.firstAncestor { $0.isHovered }
    var node = old
    while let current = node, current !== shared {
      current.extras.isHovered = false
      leaving.append(current)
      node = current._parent
    }
    node = new
    while let current = node, current !== shared {
      current.extras.isHovered = true
      entering.append(current)
      node = current._parent
    }
    pointer.hovered = new
    pointer.isTracking = new != nil || pointer.capture != nil
    let (location, modifiers) = (pointer.location, pointer.modifiers)
    if let old = leaving.first { old.trigger(PointerOut(location: location, modifiers: modifiers)) }
    for node in leaving { node.deliver(PointerLeave(location: location, modifiers: modifiers)) }
    if let new { new.trigger(PointerOver(location: location, modifiers: modifiers)) }
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
    guard let pending = pointer.pendingCapture else { return }
    pointer.pendingCapture = nil
    let new = pending?.node.flatMap { $0.isDescendant(of: root) ? $0 : nil }
    let old = pointer.capture
    guard old !== new else { return }
    pointer.capture = new
    pointer.isTracking = pointer.hovered != nil || new != nil
    old?.trigger(LostPointerCapture(location: location, modifiers: modifiers))
    new?.trigger(GotPointerCapture(location: location, modifiers: modifiers))
  }

  // MARK: - Clicks and focus

  /// The click count a press of `button` on `node` at `time` starts: one more than the last
  /// click's when it was the same button on the same node, recently enough.
  private func nextClickCount(of button: PointerButton, on node: Node, at time: ContinuousClock.Instant)
    -> Int
  {
    guard let last = pointer.lastClick, last.button == button, last.node === node,
      time >= last.time, time - last.time <= pointer.multiClickInterval
    else { return 1 }
    return last.count + 1
  }

  /// After a release of `button`: the click it completes, dispatched at the node it was pressed
  /// on, if the node under the pointer is that node (whatever holds the capture).
  private func clickIfComplete(
    _ button: PointerButton, at location: PointerLocation, modifiers: KeyModifiers,
    time: ContinuousClock.Instant, captured: Node?
  ) -> ActionOutcome? {
    guard let index = pointer.presses.firstIndex(where: { $0.button == button }) else { return nil }
    let press = pointer.presses.remove(at: index)
    guard let node = press.node, node === (captured == nil ? pointer.hovered : firstHit(at: location)),
      node.isDescendant(of: root)
    else { return nil }
    pointer.lastClick = TreePointer.Click(button: button, node: node, time: time, count: press.clickCount)
    let click = PointerClick(
      location: location, button: button, modifiers: modifiers, clickCount: press.clickCount)
    return send(click, to: node, captured: captured != nil)
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
    setFocus(candidate, reason: .pointer)
    return .moved(to: candidate)
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

  // MARK: - Repair

  /// After nodes left the tree: the hover path loses the nodes that left (the pointer is over
  /// their former parent until it moves), and a capture held by one of them is gone.
  func repairPointer(formerParent: Node) {
    if let capture = pointer.capture, !capture.isDescendant(of: root) {
      pointer.capture = nil
      pointer.captureLeftTree = true
    }
    if case .some(.some(let pending)) = pointer.pendingCapture,
      pending.node.map({ !$0.isDescendant(of: root) }) ?? true
    {
      pointer.pendingCapture = nil
    }
    guard let hovered = pointer.hovered else { return }
    // Intact when every node from the hovered one to the root is flagged.
    let unflagged = hovered.firstAncestor(within: root) { !$0.isHovered || $0 === self.root }
    if unflagged === root, root.isHovered { return }
    // Left, or moved: unflag what is flagged from the hovered node up, and hover the former
    // parent's path instead, if the former parent is still here.
    var node: Node? = hovered
    while let current = node, current.isHovered {
      current.extras.isHovered = false
      node = current._parent
    }
    node = formerParent
    while let current = node, current.isHovered {
      current.extras.isHovered = false
      node = current._parent
    }
    guard formerParent.isDescendant(of: root) else {
      pointer.hovered = nil
      pointer.isTracking = pointer.capture != nil
      return
    }
    node = formerParent
    while let current = node {
      current.extras.isHovered = true
      node = current.parent(within: root)
    }
    pointer.hovered = formerParent
  }
}
