import ViewTree
import ViewTreeActions

/// The mouse in the demo: the screen declares the frames of what it draws (see `Screen`), and the
/// tree does the rest: a click focuses what it lands on, activates a menu item, a swatch or a
/// dialog button (items, as Enter would), selects a row (the list handles its rows' clicks); the
/// dialog makes the rest of the window inert; the wheel scrolls the drawing of the tree.
extension EditorDemo {
  /// Routes one mouse event and returns the log lines it added.
  @discardableResult
  public func pointer(_ input: PointerInput) -> [String] {
    let start = log.count
    let result = tree.handlePointer(input)
    if let modal = result.blockedBy, case .press = input.kind {
      log.append("click outside the dialog: inert until \(modal.label) closes")
    }
    switch input.kind {
    case .press, .move: break
    case .release:
      guard let target = result.target, let click = result.click else { break }
      log.append(
        "click \(target.label): \(path(of: target)) => \(click.isHandled ? "handled by \(click.handler?.label ?? "?")" : "unhandled")"
      )
      if let activation = result.activation { log.append("activate \(target.label): \(activation)") }
    case .wheel:
      log.append(
        "wheel: \(result.outcome?.isHandled == true ? "scrolled by \(result.target?.label ?? "?")" : "nothing scrolls")"
      )
    }
    render()
    closeConfirmationIfChosen()
    return Array(log[start...])
  }

  /// The labels from `node` up to the root, as the click bubbled.
  private func path(of node: Node) -> String {
    var labels: [String] = []
    node.walkAncestors { ancestor in
      labels.append(ancestor.label)
      return false
    }
    return labels.joined(separator: " -> ")
  }

  /// Where a click on `node` lands: inside its frame's first line, if it has a frame.
  public func location(of node: Node) -> PointerLocation? {
    guard let frame = node.frame else { return nil }
    return PointerLocation(x: frame.x + min(2, frame.width - 1), y: frame.y)
  }
}
