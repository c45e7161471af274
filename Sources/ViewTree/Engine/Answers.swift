/// The nodes a request passed on its way to the responder answering it: from the node it was sent
/// from up to the responder's own, as the dispatch's path holds them.
///
/// It reads the dispatch's path, which ends with the dispatch, so it is valid only while the
/// responder it was lent to runs: noncopyable, and lent `borrowing`, so that a responder can read
/// it but cannot keep it (store it, capture it in an escaping closure or return it).
@usableFromInline
package struct RequestPassage: ~Copyable {
  let path: UnsafeBufferPointer<PathEntry>
  let root: Unmanaged<Node>
  let tree: Unmanaged<TreeState>
  let startVersion: UInt64

  /// Calls `body` with each node the request passed that is still in the tree, nearest first,
  /// ending with the responder's node: a node removed from the tree during the dispatch is
  /// skipped, as its modifiers are.
  ///
  /// Only nodes with attachments (see ``Node/hasAttachments``) are given: what a responder reads
  /// from the nodes it was passed.
  ///
  /// `body` may change the tree: each node's turn checks that it is still in it.
  package func forEachNodeWithAttachments(_ body: (Node) throws -> Void) rethrows {
    for index in 0..<count {
      // The dispatch keeps every node of its path alive, pinning those that leave the tree (see
      // `Dispatcher`), so the node needs no retain.
      try node(at: index)._withUnsafeGuaranteedRef { node in
        guard node.hasAttachments, isUnchanged || isAttached(node) else { return }
        try body(node)
      }
    }
  }

  private var count: Int { path.count }
  private func node(at index: Int) -> Unmanaged<Node> { path[index].node }

  /// Whether the tree's structure is as it was when the dispatch started: then every node of the
  /// path is still in it.
  private var isUnchanged: Bool {
    tree._withUnsafeGuaranteedRef { $0._structureVersion } == startVersion
  }

  /// Whether `node` is still in the tree the dispatch started in.
  private func isAttached(_ node: Node) -> Bool {
    root._withUnsafeGuaranteedRef { node.isDescendant(of: $0) }
  }
}

/// Where a responder writes its answer: memory the caller of `request` set aside for a value of
/// one type.
@usableFromInline
struct RequestSlot {
  /// Uninitialized memory for one `resultType` value.
  @usableFromInline let pointer: UnsafeMutableRawPointer
  @usableFromInline let resultType: Any.Type
  /// Set to `true` once the answer is written.
  @usableFromInline let answered: UnsafeMutablePointer<Bool>

  @usableFromInline
  init(pointer: UnsafeMutableRawPointer, resultType: Any.Type, answered: UnsafeMutablePointer<Bool>) {
    self.pointer = pointer
    self.resultType = resultType
    self.answered = answered
  }

  /// Writes a responder's answer, checking that it is of the type the caller expects.
  /// The answer is moved in, not copied.
  @inlinable
  func write<Result>(_ answer: consuming Result) throws {
    guard ObjectIdentifier(resultType) == ObjectIdentifier(Result.self) else {
      throw ResultTypeMismatch(expected: resultType, found: Result.self)
    }
    // The caller allocated the memory for exactly one `resultType`, which is `Result`.
    pointer.assumingMemoryBound(to: Result.self).initialize(to: answer)
    answered.pointee = true
  }
}

/// How a request's dispatch ended, its answer aside (in the caller's slot): answered by a node, or
/// not, with the outcome that says why. The one step between a dispatch's ending and a request's
/// result, synchronous or awaited.
@usableFromInline
enum RequestEnd {
  case answered(by: Node)
  case unanswered(ActionOutcome)

  /// How a request ended so, with `action` and `error` as the dispatch left them; `answered` is
  /// whether a responder wrote the answer. An answered request's outcome is not built, as its
  /// caller wants the answer. Called while the dispatch still holds its nodes.
  @inline(__always)
  init(
    _ ending: DispatchRun.Ending, answered: Bool, action: consuming any Action, error: consuming (any Error)?
  ) {
    if answered, case .handled(let node) = ending {
      // The node is on the path, still held: retained here for the caller.
      self = .answered(by: node.takeUnretainedValue())
      _ = consume action
      _ = consume error
    } else {
      self = .unanswered(ending.outcome(with: action, error: error))
    }
  }

  /// The request's result, with the answer moved out of `storage` when a responder wrote it there.
  @inlinable @inline(__always)
  consuming func result<Answer>(movingAnswerFrom storage: UnsafeMutablePointer<Answer>) -> RequestResult<
    Answer
  > {
    switch consume self {
    case .answered(let node): .answered(storage.move(), by: node)
    case .unanswered(let outcome): .unanswered(outcome)
    }
  }
}

/// Calls `body` with the action as a `T` when its dynamic type is `T` or converts to `T`;
/// returns `.skipped` otherwise. `actionType` is the identity of the action's dynamic type, which
/// the dispatcher passes along.
///
/// The identities are compared first: for a modifier of a concrete struct or enum type, the only
/// kind the dispatcher calls with a matching identity alone (see `ModifierEntry.exactOnly`), that
/// decides without asking the runtime. It never forms a `T?`: the modifier closures that call it
/// run unspecialized, and instantiating `Optional<T>`'s metadata on every call would cost more
/// than the whole hop.
@inlinable @inline(__always)
func withMatch<T>(
  _ action: any Action, type actionType: ObjectIdentifier, as type: T.Type,
  _ body: (T) throws -> ModifierReply
) rethrows -> ModifierReply {
  if actionType == ObjectIdentifier(T.self) {
    // The types are identical. A value the existential stores in its inline buffer (at most
    // three words, word-aligned, bitwise takable: the runtime's rule) is read in place,
    // borrowed: no copy, so no reference counting through value witnesses.
    if MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size,
      MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment, _isBitwiseTakable(T.self)
    {
      return try withUnsafePointer(to: action) { container in
        try UnsafeRawPointer(container).withMemoryRebound(to: T.self, capacity: 1) { try body($0.pointee) }
      }
    }
    // Otherwise this opens the existential and reinterprets the value.
    func open<A: Action>(_ value: A) throws -> ModifierReply {
      try body(unsafeBitCast(value, to: T.self))
    }
    return try open(action)
  }
  guard action is T else { return .skipped }
  // `is` just succeeded, so the forced cast cannot fail.
  return try body(action as! T)
}

/// `withMatch` for a body that reads the action in place: a value stored inline in the
/// existential is lent to `body` rather than copied out of it (responders use it; a transform,
/// which writes the action while it runs, cannot).
@inlinable @inline(__always)
func withMatchInPlace<T>(
  _ action: inout any Action, type actionType: ObjectIdentifier, as type: T.Type,
  _ body: (inout T) throws -> ModifierReply
) rethrows -> ModifierReply {
  if actionType == ObjectIdentifier(T.self), MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size,
    MemoryLayout<T>.alignment <= MemoryLayout<Int>.alignment, _isBitwiseTakable(T.self)
  {
    // The same layout rule as `withMatch`: the value is the existential's inline buffer.
    return try withUnsafeMutablePointer(to: &action) { container in
      try UnsafeMutableRawPointer(container).withMemoryRebound(to: T.self, capacity: 1) {
        try body(&$0.pointee)
      }
    }
  }
  return try withMatch(action, type: actionType, as: type) { value in
    var value = value
    return try body(&value)
  }
}

/// Whether the action is a `T`, for the modifier forms that do not read it: by type identity
/// first, by a dynamic cast otherwise.
@inline(__always)
func isMatch<T>(_ action: any Action, _ actionType: ObjectIdentifier, _ type: T.Type) -> Bool {
  actionType == ObjectIdentifier(T.self) || action is T
}

/// Whether the action is an instance of `type` (a subclass, a conforming type): the dispatcher's
/// check for a value-less typed modifier whose type is a class or a protocol existential.
func isInstance<M>(_ action: any Action, of type: M.Type) -> Bool { action is M }

extension Node {
  /// The action as a `T`, for asynchronous bodies (which cannot use the synchronous `withMatch`).
  @usableFromInline
  static func match<T>(_ action: any Action, as type: T.Type) -> T? {
    func open<A: Action>(_ value: A) -> T? { A.self == T.self ? unsafeBitCast(value, to: T.self) : nil }
    return open(action) ?? action as? T
  }
}
