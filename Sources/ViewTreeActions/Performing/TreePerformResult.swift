import Actions
import ViewTree

/// What happened when an identifier was performed through a tree.
public enum TreePerformResult {
  /// The nearest node with an `ActionManager` performed it (or found it disabled, unknown,
  /// invalid, or failing); the `PerformResult` says which.
  case answered(PerformResult, managerNode: Node)
  /// No manager performed it: there is none on the path, or a modifier stopped it or replaced it
  /// with another action. The outcome of the dispatch says which.
  case notPerformed(ActionOutcome)

  /// Whether a manager performed the action and it returned.
  public var isPerformed: Bool { performResult?.isPerformed ?? false }

  /// The manager's result, if a manager answered: `Sendable`, so a `Task` can return it where the
  /// result itself, which holds nodes, cannot go.
  public var performResult: PerformResult? {
    if case .answered(let result, _) = self { return result }
    return nil
  }

  /// The node whose manager answered, if any.
  public var managerNode: Node? {
    if case .answered(_, let node) = self { return node }
    return nil
  }
}

extension TreePerformResult: CustomStringConvertible {
  /// A one-line summary, such as `performed Save (manager at window)`.
  public var description: String {
    switch self {
    case .answered(let result, let node): "\(result) (manager at \(node.path))"
    case .notPerformed(let outcome): "not performed: \(outcome)"
    }
  }
}
