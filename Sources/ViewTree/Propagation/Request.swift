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

/// Why a request got no answer.
public struct RequestError: Error, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Sendable {
    /// No node on the path responds to the request (or a modifier stopped or replaced it).
    case unanswered
    /// A modifier threw this error; a `catchError` modifier may have caught it, but the request
    /// still got no answer.
    case threw(any Error)
    /// The request was not dispatched at all.
    case notDispatched(NotDispatchedReason)
    /// A transform replaced the request with one whose result has another type.
    case resultTypeMismatch(expected: Any.Type, found: Any.Type)
  }

  /// The type of the request the caller sent.
  public let requestType: Any.Type
  /// The paths of the nodes the request was sent through, from the start to the root.
  public let path: [String]
  /// What went wrong.
  public let reason: Reason
  /// The outcome of the dispatch, described (an error cannot hold the outcome's nodes: errors
  /// are `Sendable`, nodes are not).
  public let outcome: String

  /// A sentence naming the request type and the path it took.
  public var description: String {
    let route = path.isEmpty ? "(no path)" : path.joined(separator: " -> ")
    switch reason {
    case .unanswered:
      return "no node answered \(requestType) on the path \(route) (\(outcome))"
    case .threw(let error):
      return "\(requestType) was not answered: \(error) was thrown on the path \(route)"
    case .notDispatched(let why):
      return "\(requestType) was not dispatched: \(why)"
    case .resultTypeMismatch(let expected, let found):
      return
        "\(requestType) expects a \(expected), but a transform on the path \(route) replaced it with a request for \(found)"
    }
  }
}
