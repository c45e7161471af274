extension NodeTree {
  /// Routes one pointer event: finds the node under the pointer (or the node that captured it),
  /// tells the nodes whose hover changed, focuses on a press, and dispatches the event's action
  /// there, as any action is dispatched; a release over the node that was pressed is a click
  /// too. <doc:RoutingThePointer> has the rules.
  ///
  /// ```swift
  /// let result = tree.handlePointer(PointerInput(.press(.primary), at: PointerLocation(x: 4, y: 2)))
  /// result.target  // the node under the pointer
  /// ```
  ///
  /// While the root is a child of another node (see ``isRooted``), that node's tree routes the
  /// pointer: this tree dropped its hover and capture when its root was adopted, and
  /// `handlePointer` changes nothing and reports ``NotDispatchedReason/notInTree``.
  ///
  /// - Parameter input: The event, in the tree's coordinates.
  /// - Returns: Where the event went, what happened to it, the click it completed and what it
  ///   did to the focus.
  /// - Complexity: A hit test (see ``node(at:)``), the walks between the old and the new hovered
  ///   nodes, and the dispatches.
  @discardableResult
  public func handlePointer(_ input: PointerInput) -> PointerResult {
    guard isRooted else {
      return PointerResult(target: nil, outcome: .notDispatched(.notInTree), click: nil, focus: .unchanged)
    }
    return state.route(input)
  }

  /// The node that captured the pointer, if any: pointer events go to it wherever the pointer is.
  public var pointerCapture: Node? { state.pointer.capture }

  /// The innermost node the pointer is over (the capturing node while one has the capture), as
  /// of the last pointer event; `nil` when it is over nothing that takes a hit.
  public var hoveredNode: Node? { state.pointer.hovered }

  /// Asks that pointer events go to `node` wherever the pointer is, as a slider or a drag does,
  /// until the last button is released, ``releasePointerCapture()`` is called, or `node` leaves
  /// the tree.
  ///
  /// As Pointer Events' `setPointerCapture`, the capture takes effect at the next pointer event:
  /// then the node that had it hears ``LostPointerCapture``, and `node` hears
  /// ``GotPointerCapture``. While it holds the capture, `node` counts as the node the pointer is
  /// over: hover stays with it.
  ///
  /// - Parameter node: A node of this tree.
  /// - Throws: ``ViewTreeError/nodeNotInTree(node:)``, or
  ///   ``ViewTreeError/pointerCaptureWithoutButton(node:)`` when no button is down.
  public func setPointerCapture(_ node: Node) throws(ViewTreeError) {
    guard contains(node) else { throw .nodeNotInTree(node: node.path) }
    guard !state.pointer.buttons.isEmpty else { throw .pointerCaptureWithoutButton(node: node.path) }
    state.pointer.hasPendingCapture = true
    state.pointer.pendingCapture = node
    state.pointer.isTracking = true
  }

  /// Releases the pointer capture at the next pointer event (see ``setPointerCapture(_:)``).
  public func releasePointerCapture() {
    guard state.pointer.capture != nil || state.pointer.hasPendingCapture else { return }
    state.pointer.hasPendingCapture = true
    state.pointer.pendingCapture = nil
  }

  /// How close in time two clicks of one button on one node must be for the second to count as a
  /// double click (its ``PointerClick/clickCount`` is one more). Default: 500 ms.
  public var multiClickInterval: Duration {
    get { state.pointer.multiClickInterval }
    set { state.pointer.multiClickInterval = newValue }
  }
}
