/// What a bubble or capture modifier's body answered.
@usableFromInline
enum ModifierReply {
  /// The action's type did not match a typed modifier: not a visit.
  case skipped
  /// The modifier saw the action and let it go on.
  case passed
  /// The modifier handled the action: it stops here.
  case handled
  /// The modifier replaced the action (it wrote the replacement to the action it was given).
  case transformed
  /// The modifier threw; the run put the error where the dispatch keeps it. (Bodies throw; only
  /// the run answers this.)
  case threw
  /// The modifier is asynchronous, or a responder's awaiting form: nothing ran, and the dispatch
  /// stops to await it (see `DispatchRun.asynchronousBody`). Only the run answers this.
  case suspended
}

/// What a `catchError` modifier's body answered, when it did not throw.
@usableFromInline
enum CatchReply {
  /// The error's type did not match a typed catch: not a visit.
  case skipped
  /// The error is caught.
  case caught
}

/// An asynchronous modifier body: it runs on the caller's actor, given the action, for a request
/// the slot its answer goes to, and the nodes the action passed to get here.
@usableFromInline
typealias AsyncModifierBody =
  nonisolated(nonsending) (any Action, RequestSlot?, borrowing RequestPassage) async throws
  -> ModifierReply

/// A synchronous responder's closure: given the request (in place, so that it is not copied), its
/// type's identity and, when the caller awaits an answer, the slot to write it to.
@usableFromInline
typealias RespondBody = (inout any Action, ObjectIdentifier, RequestSlot?) throws -> ModifierReply

/// The synchronous closure of a responder that works both ways: as a `RespondBody`, and given the
/// nodes the request passed (see `RequestPassage`).
@usableFromInline
typealias PassageRespondBody = (inout any Action, ObjectIdentifier, RequestSlot?, borrowing RequestPassage)
  throws
  -> ModifierReply

/// A responder's two forms: the synchronous one and the one an awaited dispatch runs, both given
/// the nodes the request passed.
@usableFromInline
final class EitherWayResponder {
  @usableFromInline let body: PassageRespondBody
  @usableFromInline let awaiting: AsyncModifierBody

  @usableFromInline
  init(body: @escaping PassageRespondBody, awaiting: @escaping AsyncModifierBody) {
    self.body = body
    self.awaiting = awaiting
  }
}

/// The closure behind a modifier.
///
/// A synchronous body gets the action and the identity of its dynamic type, which the dispatcher
/// already knows, so that a typed body matches without asking the runtime. A transform writes its
/// replacement to the action and answers `.transformed`.
@usableFromInline
enum ModifierBody {
  case action((inout any Action, ObjectIdentifier) throws -> ModifierReply)
  /// A typed body that is also given the node the action was dispatched at, its target.
  case targeted((inout any Action, ObjectIdentifier, Node) throws -> ModifierReply)
  /// An untyped observer's closure itself, so that declaring one allocates no wrapper.
  case observeAll((any Action) -> Void)
  /// An untyped handler's closure itself.
  case handleAll((any Action) throws -> Void)
  /// An untyped receive or capture modifier's closure itself.
  case decideAll((any Action) throws -> ActionDisposition)
  case error((any Error) throws -> CatchReply)
  /// A responder: given the request and, when the caller awaits an answer, the slot to write it to.
  case respond(RespondBody)
  /// A responder that works both ways: an awaited dispatch runs its awaiting form. In a box, so
  /// that every case holds one closure and the enum stays two words and a tag.
  case respondEitherWay(EitherWayResponder)
  /// An asynchronous handler or responder; only an awaited dispatch can run it.
  case asynchronous(AsyncModifierBody)
}

extension ModifierEntry {
  /// The description of this modifier.
  var info: ModifierInfo {
    ModifierInfo(of: ModifierID(serial: serial), kind: kind, actionType: matchType, outputType: outputType)
  }
}

extension Node {
  /// The description of the modifier at `position`.
  func modifierInfo(at position: Int) -> ModifierInfo {
    _store[position].info
  }
}

/// Decides how a typed modifier of `kind` for `type` matches actions: `true` when it matches
/// exactly one concrete struct or enum type, so that a different type identity rules out a match
/// without a dynamic cast (`ModifierEntry.exactOnly`).
///
/// A concrete struct or enum type conforming to ``Action`` matches by type identity only. A class
/// (subclasses match too) or an existential such as `(any Saveable).self` (conforming types match)
/// needs a dynamic cast when the identities differ, and so does an error type.
func matchesExactlyOnly(_ kind: ModifierKind, _ type: Any.Type?) -> Bool {
  guard let type, kind != .catchError else { return false }
  return (type is any Action.Type) && !(type is AnyObject.Type)
}
