/// An action that asks for a value: the nearest node that responds to it answers.
///
/// ```swift
/// struct FetchUser: Request {
///   typealias Result = User
///   var id: Int
/// }
///
/// Node("session").respond(to: FetchUser.self) { request in users[request.id] }
/// let user = try editor.request(FetchUser(id: 3))
/// ```
///
/// A request travels like any action: capture, receive and transform modifiers see it, and a
/// plain `Node.trigger(_:tracing:)` of a request lets the nearest responder handle it and drops
/// the answer.
public protocol Request<Result>: Action {
  /// The type of the answer.
  associatedtype Result
}

/// Thrown by a responder whose answer's type differs from the one the caller expects: a transform
/// replaced the request with one of another result type.
@usableFromInline
struct ResultTypeMismatch: Error {
  let expected: Any.Type
  let found: Any.Type

  @usableFromInline
  init(expected: Any.Type, found: Any.Type) {
    self.expected = expected
    self.found = found
  }
}

/// How a request ended: answered, with the answer and the node whose responder gave it; or not,
/// with the outcome of its dispatch, which says why.
///
/// Every request ends in exactly one, synchronous or awaited. `Node.request(_:tracing:)` throws a
/// ``RequestError`` built from the outcome instead of returning it; the ViewTreeActions adapter's
/// `perform` returns it as it is.
public enum RequestResult<Answer> {
  /// A responder of `by` answered.
  case answered(Answer, by: Node)
  /// Nobody answered: nobody responds on the path, a modifier stopped the request or replaced it,
  /// a modifier threw, or the request was not dispatched. The outcome says which.
  case unanswered(ActionOutcome)

  /// The answer, if a responder gave one.
  public var answer: Answer? {
    if case .answered(let answer, _) = self { return answer }
    return nil
  }

  /// The node whose responder answered, if one did.
  public var handler: Node? {
    if case .answered(_, let node) = self { return node }
    return nil
  }

  /// The outcome of a dispatch that got no answer; `nil` when a responder answered.
  public var outcome: ActionOutcome? {
    if case .unanswered(let outcome) = self { return outcome }
    return nil
  }
}

extension RequestResult: CustomStringConvertible {
  /// A one-line summary, such as `42 (answered by window)` or `unanswered: unhandled Lookup()`.
  public var description: String {
    switch self {
    case .answered(let answer, let node): "\(answer) (answered by \(node.path))"
    case .unanswered(let outcome): "unanswered: \(outcome)"
    }
  }
}

/// Why a request got no answer.
public struct RequestError: Error, CustomStringConvertible {
  /// What went wrong. Nodes appear as their paths: an error is `Sendable`, a node is not.
  public enum Reason: Sendable {
    /// No node on the path answered: nobody responds to the request, or a modifier stopped it or
    /// replaced it. `handledBy` is the path of the node whose modifier handled it without an
    /// answer, `nil` when nobody handled it.
    case unanswered(handledBy: String?)
    /// A modifier of the node at `thrownBy` threw this error; the `catchError` modifier of the
    /// node at `caughtBy` caught it (`nil` when nobody did). The request got no answer either way.
    case threw(any Error, thrownBy: String, caughtBy: String?)
    /// The request was not dispatched at all.
    case notDispatched(NotDispatchedReason)
    /// A transform replaced the request with one whose result has another type.
    case resultTypeMismatch(expected: Any.Type, found: Any.Type)
  }

  /// The type of the request the caller sent.
  public let requestType: Any.Type
  /// The paths of the nodes the request was sent through, from the start to the root; empty when
  /// there was no node to send it from.
  ///
  /// - Complexity: O(*d*²) in the depth of the start, the length of the paths together; made when
  ///   read, so that a request that goes unanswered costs O(*d*).
  public var path: [String] {
    // `labels` runs from the start up: each path is its parent's and the node's label.
    var paths: [String] = []
    paths.reserveCapacity(labels.count)
    for label in labels.reversed() {
      paths.append(paths.last.map { "\($0)/\(label)" } ?? label)
    }
    return paths.reversed()
  }
  /// The labels of the nodes the request was sent through, from the start to the root.
  private let labels: [String]
  /// What went wrong.
  public let reason: Reason
  /// For a request that got no answer (``Reason/unanswered(handledBy:)``): the action it had
  /// become when the dispatch ended, after any transform on the path, described; `nil` otherwise.
  public let endedAs: String?

  /// The error for a request of type `type`, sent from `start` (`nil` when there was no node to
  /// send it from), whose dispatch ended in `outcome` without an answer.
  @usableFromInline
  init(_ type: Any.Type, from start: Node?, outcome: ActionOutcome) {
    var labels: [String] = []
    var node = start
    while let current = node {
      labels.append(current.label)
      node = current.parent
    }
    let reason: Reason
    var endedAs: String?
    switch outcome {
    case .notDispatched(let why):
      reason = .notDispatched(why)
    case .failed(let error as ResultTypeMismatch, _), .caught(let error as ResultTypeMismatch, _, _):
      reason = .resultTypeMismatch(expected: error.expected, found: error.found)
    case .failed(let error, let thrower):
      reason = .threw(error, thrownBy: thrower.path, caughtBy: nil)
    case .caught(let error, let catcher, let thrower):
      reason = .threw(error, thrownBy: thrower.path, caughtBy: catcher.path)
    case .handled(let node, let action):
      reason = .unanswered(handledBy: node.path)
      endedAs = "\(action)"
    case .unhandled(let action):
      reason = .unanswered(handledBy: nil)
      endedAs = "\(action)"
    }
    self.requestType = type
    self.labels = labels
    self.reason = reason
    self.endedAs = endedAs
  }

  /// A sentence naming the request type and the path it took.
  ///
  /// - Complexity: O(*d*²), as ``path``.
  public var description: String {
    let route = path.isEmpty ? "(no path)" : path.joined(separator: " -> ")
    switch reason {
    case .unanswered(let handler):
      let ending = endedAs.map { " as \($0)" } ?? ""
      let handled =
        handler.map { ": a modifier of \($0) handled it\(ending)" } ?? ": it ended unhandled\(ending)"
      return "no node answered \(requestType) on the path \(route)\(handled)"
    case .threw(let error, let thrower, let catcher):
      let caught = catcher.map { ", caught by \($0)" } ?? ""
      return "\(requestType) was not answered: \(thrower) threw \(error)\(caught) on the path \(route)"
    case .notDispatched(let why):
      return "\(requestType) was not dispatched: \(why)"
    case .resultTypeMismatch(let expected, let found):
      return
        "\(requestType) expects a \(expected), but a transform on the path \(route) replaced it with a request for \(found)"
    }
  }
}
