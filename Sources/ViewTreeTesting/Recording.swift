import Actions
import ViewTree
import ViewTreeActions

/// Triggers an action from a node and records what the dispatch did.
///
/// ```swift
/// let record = record(Save(), from: editor)
/// expectDispatch(record, path: "editor -> window [handled]")
/// ```
///
/// - Parameters:
///   - action: The action.
///   - node: The node to trigger it from.
/// - Returns: The steps and the outcome.
public func record(_ action: some Action, from node: Node) -> DispatchRecord {
  let trace = ActionTrace()
  let outcome = node.trigger(action, tracing: trace)
  return DispatchRecord(of: node, steps: trace.steps, outcome: outcome)
}

/// Triggers an action from a node, awaiting asynchronous handlers, and records what the dispatch
/// did.
///
/// - Parameters:
///   - action: The action.
///   - node: The node to trigger it from.
/// - Returns: The steps and the outcome.
nonisolated(nonsending) public func record(_ action: some Action, from node: Node) async -> DispatchRecord {
  let trace = ActionTrace()
  let outcome = await node.trigger(action, tracing: trace)
  return DispatchRecord(of: node, steps: trace.steps, outcome: outcome)
}

/// Sends a request from a node and records what the dispatch did, with the answer or the error.
///
/// - Parameters:
///   - request: The request.
///   - node: The node to send it from.
/// - Returns: The record, and the answer or `nil` when nobody answered.
public func recordRequest<Q: Request>(_ request: Q, from node: Node) -> (
  record: DispatchRecord, answer: Q.Result?
) {
  let trace = ActionTrace()
  let result = node.send(request, tracing: trace)
  return (DispatchRecord(of: node, steps: trace.steps, result: result, request: request), result.answer)
}

/// Performs an identifier through the tree from a node and records what the dispatch did.
///
/// - Parameters:
///   - identifier: The identifier, such as `"menu.Save"`.
///   - node: The node to perform it from.
/// - Returns: The record and the manager's answer.
public func recordPerform(_ identifier: String, from node: Node) -> (
  record: DispatchRecord, result: RequestResult<PerformResult>
) {
  let trace = ActionTrace()
  let request = PerformRequest(identifier, sender: nil, from: node)
  let result = node.send(request, tracing: trace)
  return (DispatchRecord(of: node, steps: trace.steps, result: result, request: request), result)
}
