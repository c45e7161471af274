/// The phases of a dispatch.
public enum ActionPhase: String, Hashable, Sendable {
  /// Root to target: `captureAction` modifiers.
  case capture
  /// Target to root: receive, transform, lift, handle and observer modifiers.
  case bubble
  /// Outward from a thrown error: `catchError` modifiers.
  case error
}

/// What one modifier did with an action (or error), as recorded in a trace.
public enum StepResult {
  /// The modifier saw the action and let it go on (an observer, or a receive or capture that
  /// answered ``ActionDisposition/unhandled``).
  case passed
  /// The modifier handled the action; the dispatch ends.
  case handled
  /// The modifier replaced the action; the step's `actionAfter` is the new value.
  case transformed
  /// The modifier threw; the error travels outward.
  case threw(any Error)
  /// A `catchError` modifier caught the error; the dispatch ends.
  case caught(any Error)
  /// The node was skipped because it left the tree during the dispatch; no modifier ran.
  case skippedDetachedNode
}

/// One step of a dispatch: a modifier (or a skipped node) and what it did.
public struct ActionStep {
  /// The node.
  public let node: Node
  /// The phase the step ran in.
  public let phase: ActionPhase
  /// The modifier that ran; `nil` for ``StepResult/skippedDetachedNode``.
  public let modifier: ModifierInfo?
  /// The action as the modifier received it.
  public let actionBefore: any Action
  /// The action after the step: differs from ``actionBefore`` only for transforms.
  public let actionAfter: any Action
  /// What the modifier did.
  public let result: StepResult
  /// How deeply this dispatch is nested in others (0 for a dispatch triggered from outside any
  /// handler). An awaited dispatch of the same tree that is suspended counts as one level, as it
  /// does for the reentrancy limit.
  public let nestingLevel: Int
}

extension ActionStep: CustomStringConvertible {
  /// What the step did, in words: `passed`, `handled`, `transformed Save() -> Open()`,
  /// `threw …`, `caught …`, `skipped (left the tree)`.
  public var resultDescription: String {
    switch result {
    case .passed: "passed"
    case .handled: "handled"
    case .transformed: "transformed \(actionBefore) -> \(actionAfter)"
    case .threw(let error): "threw \(error)"
    case .caught(let error): "caught \(error)"
    case .skippedDetachedNode: "skipped (left the tree)"
    }
  }

  /// A one-line summary, such as `bubble window/editor handleAction(Save): handled`.
  public var description: String {
    let indent = String(repeating: "  ", count: nestingLevel)
    let what = modifier.map { " \($0)" } ?? ""
    return "\(indent)\(phase.rawValue) \(node.path)\(what): \(resultDescription)"
  }
}

/// Records every step of the dispatches it is passed to.
///
/// ```swift
/// let trace = ActionTrace()
/// editor.trigger(Save(), tracing: trace)
/// print(trace)
/// ```
///
/// Nested dispatches (actions triggered by handlers) record their steps in the trace of the
/// outer dispatch only when passed the same trace; ``NodeTree/stepObserver`` sees all of them.
public final class ActionTrace {
  /// The steps, in the order they ran.
  public private(set) var steps: [ActionStep] = []

  /// Creates an empty trace.
  public init() {}

  /// Removes every step, keeping the storage so that a trace reused across dispatches stops
  /// allocating once it has grown.
  public func removeAll() { steps.removeAll(keepingCapacity: true) }

  func record(_ step: ActionStep) { steps.append(step) }
}

extension ActionTrace: CustomStringConvertible {
  /// One line per step.
  public var description: String { steps.map(\.description).joined(separator: "\n") }
}
