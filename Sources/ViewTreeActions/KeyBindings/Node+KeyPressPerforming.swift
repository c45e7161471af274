import Actions
import ViewTree

extension Node {
  /// Runs the steps of a press's perform (see `Performing`) once its first binding's action gave
  /// `result`, unavailable. (Out of line: most presses never fall through.)
  @inline(never)
  func fallingThrough(_ perform: consuming Performing, after result: RequestResult<PerformResult>)
    -> KeyPressResult
  {
    var perform = perform
    var next = perform.next(after: result, at: self)
    while true {
      switch next {
      case .send(let request): next = perform.next(after: send(request, tracing: nil), at: self)
      case .type(let insert): return perform.finished(.insertedText(insert, trigger(insert)))
      case .done(let result): return result
      }
    }
  }

  /// Runs the steps of a press's perform (see `Performing`) once its first binding's action gave
  /// `result`, unavailable.
  nonisolated(nonsending) func fallingThroughAwaited(
    _ perform: consuming Performing, after result: RequestResult<PerformResult>
  ) async -> KeyPressResult {
    var perform = perform
    var next = perform.next(after: result, at: self)
    while true {
      switch next {
      case .send(let request): next = perform.next(after: await send(request, tracing: nil), at: self)
      case .type(let insert): return perform.finished(.insertedText(insert, await trigger(insert)))
      case .done(let result): return result
      }
    }
  }

  /// A resolved binding's perform as it goes: the step the synchronous and the awaited press
  /// share, so that each of them only sends and triggers what a step asks for.
  struct Performing {
    /// What the press does next.
    enum Next {
      /// Perform this request (the binding's identifier, or the next one's after a fall-through).
      case send(PerformRequest)
      /// Trigger this text at the text owner: the key's binding fell through to its text.
      case type(InsertText)
      /// The press's result.
      case done(KeyPressResult)
    }

    /// The binding whose identifier was sent last.
    private var binding: KeyBinding
    private let cancelling: (PendingKeys, KeySequenceCancellation)?
    /// At a text owner, the text the key types if its binding falls through to it.
    private let typing: String?
    /// The kind of key event (a press, a repeat): a binding that does not take it ends the
    /// fall-through, as it does nothing for the event.
    private let kind: KeyEvent.Kind
    /// How many bindings of the keys were tried, in the order of precedence.
    private var tried = 1

    init(
      _ binding: KeyBinding, cancelling: (PendingKeys, KeySequenceCancellation)?, typing: String?,
      kind: KeyEvent.Kind
    ) {
      self.binding = binding
      self.cancelling = cancelling
      self.typing = typing
      self.kind = kind
    }

    /// What the press at `node` does once the last request gave `result`: done, unless the
    /// action was unavailable; then the next binding of the same keys in the order of precedence
    /// is performed (or moves the focus), or the key's text typed when it comes first.
    mutating func next(after result: RequestResult<PerformResult>, at node: Node) -> Next {
      guard result.isUnavailable else { return .done(finished(.resolved(binding, result))) }
      let next = node.fallThrough(binding.keys, after: tried)
      tried += 1
      if let typing, node.fallsToText(from: binding, before: next) { return .type(InsertText(typing)) }
      // A block, or a binding that does nothing for this kind of event, ends it.
      guard let next, !next.role.isBlock, next.events.includes(kind) else {
        return .done(finished(.resolved(binding, result)))
      }
      if case .moveFocus(let move) = next.role {
        return .done(finished(.movedFocus(next, node.moveFocus(move, in: node.root))))
      }
      binding = next
      return .send(node.request(performing: next))
    }

    /// The press's result, once it did `result`.
    func finished(_ result: KeyPressResult) -> KeyPressResult { .reporting(result, cancelling: cancelling) }
  }

  /// Whether a key whose `binding`, at this text owner, is unavailable goes on to its text: the
  /// text comes after the bindings the owner keeps before it, so when the next binding of the
  /// same keys is not one of them (or there is none), the key types.
  fileprivate func fallsToText(from binding: KeyBinding, before next: KeyBinding?) -> Bool {
    keepsBeforeText(binding) && !(next.map(keepsBeforeText) ?? false)
  }

  /// The binding a key falls through to when the actions of the first `tried` bindings of `keys`
  /// (in the order of precedence, the one that took the key first) are unavailable: the next,
  /// a block included (which ends the fall-through, unless the key's text comes before it).
  /// Counted by position, not by identity: two keymap entries may make equal bindings.
  fileprivate func fallThrough(_ keys: KeySequence, after tried: Int) -> KeyBinding? {
    let top = root
    if let treeKeys = top.treeKeys {
      return fallThroughBinding(of: keys, after: tried, top: top, treeKeys: treeKeys)
    }
    var seen = 0
    var next: KeyBinding?
    forEachBinding(startingWith: keys.chords[0], top: top) { found in
      guard found.keys == keys else { return false }
      seen += 1
      guard seen > tried else { return false }
      next = found
      return true
    }
    return next
  }

}
