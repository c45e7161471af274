import Testing
import ViewTree

/// How much of a dispatch an expectation must account for.
public enum Exhaustivity: Sendable {
  /// Everything: the path must match exactly, and every transform must be listed, in order.
  case exhaustive
  /// Only what is listed: the expected nodes must appear in the path in order (others may come
  /// between), the outcome must match, and the listed transforms must appear in order.
  case partial
}

/// Checks what a dispatch did, exhaustively by default.
///
/// ```swift
/// let record = record(Copy(), from: editor)
/// expectDispatch(
///   record,
///   path: "editor -> sidebar -> window [handled]",
///   transforms: ["editor: Copy() -> Paste()"])
/// ```
///
/// With ``Exhaustivity/exhaustive`` (the default), a visit, transform or handler the expectation
/// does not account for fails the test. The failure draws both paths and lists every step.
///
/// - Parameters:
///   - record: What the dispatch did.
///   - path: The expected ``DispatchRecord/path``: node labels joined by ` -> `, with
///     ` [capture]` after capture-phase visits, and the outcome in brackets.
///   - transforms: The expected ``DispatchRecord/transforms``, as `node: before -> after`.
///   - exhaustivity: Whether everything must be accounted for.
///   - sourceLocation: Where a failure is reported; the caller's line by default.
public func expectDispatch(
  _ record: DispatchRecord, path: String, transforms: [String] = [],
  exhaustivity: Exhaustivity = .exhaustive, sourceLocation: SourceLocation = #_sourceLocation
) {
  var problems: [String] = []
  switch exhaustivity {
  case .exhaustive:
    if record.path != path { problems.append("path does not match") }
    if record.transforms != transforms {
      let unexpected = record.transforms.filter { !transforms.contains($0) }
      let missing = transforms.filter { !record.transforms.contains($0) }
      var line = "transforms do not match"
      if !unexpected.isEmpty { line += "; not accounted for: \(unexpected.joined(separator: "; "))" }
      if !missing.isEmpty { line += "; expected but absent: \(missing.joined(separator: "; "))" }
      problems.append(line)
    }
  case .partial:
    let (expectedNodes, expectedOutcome) = splitPath(path)
    let (actualNodes, actualOutcome) = splitPath(record.path)
    if expectedOutcome != actualOutcome { problems.append("outcome does not match") }
    if !isSubsequence(expectedNodes, of: actualNodes) {
      problems.append("path does not contain the expected nodes in order")
    }
    if !isSubsequence(transforms, of: record.transforms) {
      problems.append("transforms do not contain the expected ones in order")
    }
  }
  guard !problems.isEmpty else { return }
  var message = "Dispatch did not match (\(problems.joined(separator: "; "))).\n"
  message += "  expected: \(path)\n"
  message += "  actual:   \(record.path)\n"
  if !transforms.isEmpty || !record.transforms.isEmpty {
    message += "  expected transforms: \(transforms)\n"
    message += "  actual transforms:   \(record.transforms)\n"
  }
  message += "  steps:\n" + record.stepLines.map { "    \($0)" }.joined(separator: "\n")
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// Checks every step of a dispatch (or, with ``Exhaustivity/partial``, that the listed steps
/// appear in order), as ``DispatchRecord/stepLines`` spells them:
/// `bubble editor handleAction(Save): handled`.
///
/// - Parameters:
///   - record: What the dispatch did.
///   - steps: The expected step lines.
///   - exhaustivity: Whether every step must be listed.
///   - sourceLocation: Where a failure is reported; the caller's line by default.
public func expectSteps(
  _ record: DispatchRecord, _ steps: [String], exhaustivity: Exhaustivity = .exhaustive,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let matches =
    switch exhaustivity {
    case .exhaustive: record.stepLines == steps
    case .partial: isSubsequence(steps, of: record.stepLines)
    }
  guard !matches else { return }
  let expected = steps.map { "    \($0)" }.joined(separator: "\n")
  let actual = record.stepLines.map { "    \($0)" }.joined(separator: "\n")
  let message = """
    Steps did not match (\(exhaustivity == .exhaustive ? "every step must be listed" : "listed steps must appear in order")).
      path: \(record.path)
      expected:
    \(expected)
      actual:
    \(actual)
    """
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// Checks that a dispatch was handled, by a given node if named: the assertion for code that
/// requires every action to be handled exactly once.
///
/// - Parameters:
///   - record: What the dispatch did.
///   - handler: The label of the node that must have handled it, or `nil` for any.
///   - sourceLocation: Where a failure is reported; the caller's line by default.
public func expectHandled(
  _ record: DispatchRecord, by handler: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  if case .handled(let node, _) = record.outcome, handler == nil || node.label == handler { return }
  let who = handler.map { " by \($0)" } ?? ""
  Issue.record(
    Comment(rawValue: "Expected the action to be handled\(who), but: \(record.path)"),
    sourceLocation: sourceLocation)
}

private func splitPath(_ path: String) -> (nodes: [String], outcome: String) {
  guard let open = path.ranges(of: " [").last, path.hasSuffix("]") else {
    return (path.split(separator: " -> ").map(String.init), "")
  }
  let nodes = path[..<open.lowerBound].split(separator: " -> ").map(String.init)
  return (nodes, String(path[open.lowerBound...]))
}

private func isSubsequence(_ expected: [String], of actual: [String]) -> Bool {
  var remaining = expected[...]
  for item in actual where item == remaining.first { remaining = remaining.dropFirst() }
  return remaining.isEmpty
}
