import ViewTree

/// What one dispatch did: every step its trace recorded, and its outcome.
///
/// Make one with `record(_:from:)` (or the `request` and `perform` variants), then check it with
/// ``expectDispatch(_:path:transforms:exhaustivity:sourceLocation:)``.
///
/// Nodes are named by their labels (their ids, or `#i` for unnamed nodes), so expectations read
/// like the tree declaration.
public struct DispatchRecord: CustomStringConvertible {
  /// The node the action was triggered from.
  public let target: Node
  /// The steps of the dispatch, in the order they ran (nested dispatches are not included).
  public let steps: [ActionStep]
  /// What happened to the action.
  public let outcome: ActionOutcome

  /// A record of `target`'s dispatch: the steps at the outermost nesting level, and the outcome.
  init(of target: Node, steps: [ActionStep], outcome: ActionOutcome) {
    self.target = target
    self.steps = steps.filter { $0.nestingLevel == steps.first?.nestingLevel ?? 0 }
    self.outcome = outcome
  }

  /// The nodes where a modifier ran (or was skipped), in order, with `[capture]` after the nodes
  /// visited in the capture phase, and the outcome at the end:
  /// `window [capture] -> editor -> window [handled]`.
  public var path: String {
    var parts: [String] = []
    var last: (node: ObjectIdentifier, phase: ActionPhase)?
    for step in steps where step.phase != .error {
      let key = (ObjectIdentifier(step.node), step.phase)
      if let last, last.node == key.0, last.phase == key.1 { continue }
      last = key
      parts.append(step.node.label + (step.phase == .capture ? " [capture]" : ""))
    }
    let visits = parts.isEmpty ? "(no visit)" : parts.joined(separator: " -> ")
    return "\(visits) [\(outcomeSummary)]"
  }

  /// The outcome in brackets' words: `handled`, `unhandled`, `caught by window, thrown by editor`,
  /// `failed at editor: error`, `not dispatched: reason`.
  public var outcomeSummary: String {
    switch outcome {
    case .handled: "handled"
    case .unhandled: "unhandled"
    case .caught(_, let catcher, let thrower): "caught by \(catcher.label), thrown by \(thrower.label)"
    case .failed(let error, let thrower): "failed at \(thrower.label): \(error)"
    case .notDispatched(let reason): "not dispatched: \(reason)"
    }
  }

  /// Every transform, as `node: before -> after`.
  public var transforms: [String] {
    steps.compactMap { step in
      guard case .transformed = step.result else { return nil }
      return "\(step.node.label): \(step.actionBefore) -> \(step.actionAfter)"
    }
  }

  /// Every step, as `phase node modifier: result`, with node labels.
  public var stepLines: [String] {
    steps.map { step in
      let modifier = step.modifier.map { " \($0)" } ?? ""
      return "\(step.phase.rawValue) \(step.node.label)\(modifier): \(step.resultDescription)"
    }
  }

  /// A record of a request sent from `target`: an answered request's outcome is its responder's
  /// handling of the request as the responder saw it (after transforms), which the trace's
  /// last handling step by the answering node holds (`request` when no step was recorded at
  /// the dispatch's level).
  init<Answer>(of target: Node, steps: [ActionStep], result: RequestResult<Answer>, request: any Action) {
    switch result {
    case .unanswered(let outcome):
      self.init(of: target, steps: steps, outcome: outcome)
    case .answered(_, let node):
      let level = steps.first?.nestingLevel ?? 0
      let handling = steps.last { step in
        guard step.nestingLevel == level, case .handled = step.result else { return false }
        return step.node === node
      }
      let action = handling?.actionAfter ?? request
      self.init(of: target, steps: steps, outcome: .handled(by: node, action: action))
    }
  }

  /// The path, then each step on its own line.
  public var description: String {
    ([path] + stepLines.map { "  " + $0 }).joined(separator: "\n")
  }
}
