/// Which node would handle an action of some type, worked out from the modifiers on the path
/// without running any of them (see ``Node/handlerPrediction(for:)``).
public enum HandlerPrediction: CustomStringConvertible {
  /// A modifier of `node` would stop the action without a closure deciding: a typed
  /// `handleAction` or responder for exactly this type, or an untyped `handleAction`. (Its closure
  /// may still throw; then the error travels outward instead.)
  case handled(by: Node, modifier: ModifierInfo)
  /// A closure decides whether the action goes on, from `node` on: a capture, a receive, a
  /// transform, or a typed modifier for a class or protocol that the action's type may or may not
  /// be. The prediction stops there.
  case undetermined(at: Node, modifier: ModifierInfo)
  /// No modifier on the path would stop it.
  case unhandled
  /// The node is not in a rooted tree: a dispatch would not run.
  case notInTree

  /// The node that would handle the action, when that is certain.
  public var handler: Node? {
    if case .handled(let node, _) = self { return node }
    return nil
  }

  /// A one-line summary, such as `handled by window/editor (handleAction(Save))`.
  public var description: String {
    switch self {
    case .handled(let node, let modifier): "handled by \(node.path) (\(modifier))"
    case .undetermined(let node, let modifier): "undetermined: \(modifier) on \(node.path) decides"
    case .unhandled: "unhandled"
    case .notInTree: "not in a rooted tree"
    }
  }
}

extension Node {
  /// Predicts which node would handle an action of `type` triggered from this node, without
  /// running any handler: what a debugger, a "what does this do" tool or a test can ask.
  ///
  /// It follows the rules of <doc:PropagationRules> over the modifiers' kinds and types: capture
  /// modifiers from the root down, then bubble modifiers from here up. Observers never stop an
  /// action and are passed over; a lift continues with the type it produces; a typed modifier for
  /// another concrete type is skipped. Whatever a closure decides (a capture, a receive, a
  /// transform, or a typed modifier for a class or protocol) makes the answer
  /// ``HandlerPrediction/undetermined(at:modifier:)``.
  ///
  /// ```swift
  /// leaf.handlerPrediction(for: Save.self)  // handled by window/editor (handleAction(Save))
  /// ```
  ///
  /// - Parameter type: The action's type.
  /// - Returns: The prediction.
  /// - Complexity: O(*d* + *m*): the path's depth and its modifiers.
  public func handlerPrediction(for type: any Action.Type) -> HandlerPrediction {
    var path: [Node] = []
    walkAncestors { node in
      path.append(node)
      return false
    }
    // `path` holds at least this node.
    guard let top = path.last, top.treeState != nil, top.activeParent == nil else { return .notInTree }
    var actionType = ObjectIdentifier(type)
    // Capture, root first.
    for node in path.reversed() {
      for position in 0..<node.modifierCount where node.modifier(at: position).phase == .capture {
        let entry = node.modifier(at: position)
        if Self.reading(of: entry, for: actionType) != .skips {
          return .undetermined(at: node, modifier: node.modifierInfo(at: position))
        }
      }
    }
    // Bubble, from here up.
    for node in path {
      for position in 0..<node.modifierCount where node.modifier(at: position).phase == .bubble {
        let entry = node.modifier(at: position)
        // Observers never stop an action, whatever type they watch.
        if entry.kind == .observe { continue }
        guard let reading = Self.reading(of: entry, for: actionType) else {
          return .undetermined(at: node, modifier: node.modifierInfo(at: position))
        }
        switch (reading, entry.kind) {
        case (.skips, _):
          continue
        case (_, .handle), (.exact, .respond):
          return .handled(by: node, modifier: node.modifierInfo(at: position))
        case (.exact, .lift):
          // A lift always replaces a child action by its parent action.
          if let output = entry.outputType { actionType = ObjectIdentifier(output) }
        default:
          return .undetermined(at: node, modifier: node.modifierInfo(at: position))
        }
      }
    }
    return .unhandled
  }

  /// The node whose responder for exactly `type` answers a request of `type` sent from this
  /// node when nothing else would see the request: no capture, receive, transform, lift, observer
  /// or other handler on the path may take it, the tree has no ``NodeTree/stepObserver``, and a
  /// dispatch would run (the tree is below its reentrancy limit). `nil` otherwise, or when the
  /// node is not in a rooted tree.
  ///
  /// A caller that sends many such requests from one node (the list of what a node offers
  /// validates each of its entries) may then ask the responder directly, with what a dispatch
  /// would give it, and nobody can tell the difference.
  ///
  /// - Complexity: O(*d* + *m*): the path's depth and its modifiers.
  package func soleResponder(for type: any Action.Type) -> Node? {
    var path: [Node] = []
    walkAncestors { node in
      path.append(node)
      return false
    }
    guard let top = path.last, let state = top.treeState, top.activeParent == nil,
      state.settings.stepObserver == nil, state.dispatchDepth < state.settings.reentrancyLimit
    else { return nil }
    let actionType = ObjectIdentifier(type)
    // The capture phase runs from the root down, above the responder too.
    for node in path {
      for position in 0..<node.modifierCount where node.modifier(at: position).phase == .capture {
        if Self.reading(of: node.modifier(at: position), for: actionType) != .skips { return nil }
      }
    }
    for node in path {
      for position in 0..<node.modifierCount where node.modifier(at: position).phase == .bubble {
        let entry = node.modifier(at: position)
        switch (Self.reading(of: entry, for: actionType), entry.kind) {
        case (.skips, _): continue
        case (.exact, .respond): return node
        default: return nil
        }
      }
    }
    return nil
  }

  /// How a modifier relates to an action type, when that is known without running it.
  private enum Reading {
    /// It sees every action.
    case untyped
    /// It matches this type exactly.
    case exact
    /// It matches another concrete type: it does not see the action.
    case skips
  }

  /// The reading, or `nil` when only a dynamic cast could tell (a class or protocol type).
  private static func reading(of entry: ModifierEntry, for actionType: ObjectIdentifier) -> Reading? {
    guard let matchType = entry.matchType else { return .untyped }
    if ObjectIdentifier(matchType) == actionType { return .exact }
    return matchesExactlyOnly(entry.kind, matchType) ? .skips : nil
  }
}
