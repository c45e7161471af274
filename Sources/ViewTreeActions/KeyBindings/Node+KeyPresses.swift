import Actions
import ViewTree

extension Node {
  /// Handles a key press at this node, as if it had focus: resolves it (see ``resolveKey(_:)``),
  /// then performs the identifier of the binding it completes from here, with the binding as
  /// sender; a focus identifier (such as `focus.Next`, Tab's default) moves the tree's focus
  /// instead, and `item.Activate` (Enter's default) performs this item's identifier with the
  /// item as sender. Keys that begin longer bindings leave the sequence pending in the tree until the
  /// next key press. It is ``handleKey(_:)-(KeyEvent)`` with a press of `chord`.
  ///
  /// A pending sequence ends when a key completes it, and is cancelled, as the result says, when:
  /// - Escape is pressed (it does nothing else, unless the prefix was text at a text owner: then
  ///   the prefix is typed and Escape resolved on its own; see <doc:TextInput>);
  /// - a key does not continue it: the key is then resolved on its own;
  /// - a key is pressed at another node (the focus moved): resolved on its own;
  /// - none of its continuations is still bound: resolved on its own;
  /// - the caller's timer says so, with ``ViewTree/NodeTree/cancelPendingKeys()``.
  ///
  /// A binding whose action is *unavailable* (no manager on the path answers, the manager does
  /// not know the identifier, or its validation hides it: no manager or provider on the chain can
  /// perform it) passes the key to the next binding of the same keys in the order of precedence
  /// (see ``Keymap``), and so on; a block of the same keys stops it. A binding whose action is
  /// *disabled* (visible, but not enabled) reports ``KeyPressResult/resolved(_:_:)`` with the
  /// disabled result and does not fall through, because it is the binding the user sees for the
  /// focused view.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: What the key press did.
  @discardableResult
  public func handleKey(_ chord: KeyChord) -> KeyPressResult { performing(press(Stroke(chord))) }

  /// Handles a key event at this node, as if it had focus: a press as ``handleKey(_:)-(KeyChord)``
  /// says, trying the event's ``KeyEvent/alternates`` in order while nothing is bound to the
  /// chord before them (so `ctrl+c` fires for ctrl and the Cyrillic `с` whose base-layout key is
  /// `c`); a repeat as a press, except that a binding that does not take repeats (see
  /// ``KeyBinding/events``) does nothing for it (``KeyPressResult/unbound(_:)``); a release only
  /// a binding that asks for releases, the nearest one of its chord (or of an alternate), and it
  /// never continues, breaks or cancels a pending sequence. A release no binding asks for is
  /// ``KeyPressResult/unbound(_:)``, with nothing done.
  ///
  /// - Parameter event: The key event.
  /// - Returns: What the event did.
  @discardableResult
  public func handleKey(_ event: KeyEvent) -> KeyPressResult { performing(press(Stroke(event))) }

  /// Handles a key press at this node, awaiting asynchronous actions: the same resolution as
  /// ``handleKey(_:)-(KeyChord)``, then an awaited perform.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: What the key press did.
  @discardableResult
  nonisolated(nonsending) public func handleKey(_ chord: KeyChord) async -> KeyPressResult {
    await performingAwaited(press(Stroke(chord)))
  }

  /// Handles a key event at this node, awaiting asynchronous actions: the same resolution as
  /// ``handleKey(_:)-(KeyEvent)``, then an awaited perform.
  ///
  /// - Parameter event: The key event.
  /// - Returns: What the event did.
  @discardableResult
  nonisolated(nonsending) public func handleKey(_ event: KeyEvent) async -> KeyPressResult {
    await performingAwaited(press(Stroke(event)))
  }

  /// What a key press does once resolved: everything but the perform, which the synchronous and
  /// the awaited `handleKey` each run their way.
  enum Press {
    /// Nothing (more) to do: the press's result, a focus move included.
    case finished(KeyPressResult)
    /// A binding and the request that performs its identifier (or, for `item.Activate`, the
    /// item's); the result goes into the cancellation, if the press cancelled a pending sequence.
    /// At a text owner, `typing` is the text the key types if its binding falls through to it;
    /// `kind` is the event's, which a binding the key falls through to must take.
    case perform(
      KeyBinding, PerformRequest, cancelling: (PendingKeys, KeySequenceCancellation)?, typing: String?,
      kind: KeyEvent.Kind)
    /// Text typed at a text owner, to trigger from it.
    case insert(InsertText, cancelling: (PendingKeys, KeySequenceCancellation)?)
    /// A pending prefix that is text, to replay key by key at a text owner, then the key that
    /// broke it (none for a timeout), resolved on its own.
    /// (Boxed: the other cases stay small for every press.)
    indirect case replay([KeyChord], cancelling: (PendingKeys, KeySequenceCancellation), then: Stroke?)
  }

  /// A key event as a press resolves it: its chord and kind, and the event itself only when it
  /// has alternates to try, so that a plain press copies no event.
  struct Stroke {
    let chord: KeyChord
    let kind: KeyEvent.Kind
    let alternates: KeyEvent?

    init(_ chord: KeyChord) {
      self.chord = chord
      kind = .press
      alternates = nil
    }

    init(_ event: KeyEvent) {
      chord = event.chord
      kind = event.kind
      alternates = event.shiftedKey == nil && event.baseKey == nil ? nil : event
    }

    /// The chord tried in place `index`: 0 the chord, then the alternates (see
    /// `KeyEvent.candidate(_:)`).
    func candidate(_ index: Int) -> KeyChord? { index == 0 ? chord : alternates?.candidate(index) }
  }

  /// Resolves a key event, updates the pending sequence, and moves the focus for a focus
  /// binding.
  func press(_ stroke: borrowing Stroke) -> Press {
    if stroke.kind == .release { return release(stroke) }
    let isTextOwner = takesText
    if isTextOwner, isComposing { return .finished(.composing(stroke.chord)) }
    // A sequence pending here is continued by the key, or ended by it: by the rule every end of
    // a prefix follows (see `settle(_:_:top:)`), then the key is resolved on its own, unless it was
    // Escape and ending the prefix was all it did.
    var cancelling: (PendingKeys, KeySequenceCancellation)?
    if isPendingHere {
      let top = root
      if let state = top.pendingKeys, state.node === self {
        let isEscape = stroke.chord == KeyChord(.escape)
        if !isEscape {
          for index in 0..<3 {
            if let chord = stroke.candidate(index),
              let continued = state.resolution(continuedBy: chord, at: self)
            {
              top.pendingKeys = nil
              return finish(stroke, index, continued, top: top, cancelling: nil)
            }
          }
        }
        let reason: KeySequenceCancellation =
          isEscape ? .escape : state.hasBoundContinuation(at: self) ? .broken : .bindingsRemoved
        switch settle(state, reason, top: top) {
        case .replay(let prefix, let ended): return .replay(prefix, cancelling: ended, then: copy stroke)
        case .cancelled(let ended):
          if isEscape { return .finished(.cancelled(ended.0, .escape, then: nil)) }
          cancelling = ended
        }
      }
    }
    // At a text owner, a key that types text needs no walk past the owner, as the ancestors'
    // bindings come after text: only a keymap's priority bindings and the owner's own go first.
    if isTextOwner, let text = stroke.chord.typedText(in: stroke.alternates), !bindsHere(stroke) {
      let top = root
      if top.treeKeys == nil {
        if cancelling == nil, let state = top.pendingKeys {
          top.pendingKeys = nil
          cancelling = (state.pending(at: state.node ?? self), .focusMoved)
        }
        return .insert(InsertText(text), cancelling: cancelling)
      }
    }
    // Otherwise the key is resolved on its own, in the walk that finds the top; a sequence
    // pending elsewhere (the focus moved, or its node is gone) is cancelled.
    let (index, resolution, top, blocked) = resolveKey(startingWith: stroke)
    if cancelling == nil, let state = top.pendingKeys {
      top.pendingKeys = nil
      // A node that is gone took the focus that typed the sequence with it.
      cancelling = (state.pending(at: state.node ?? self), .focusMoved)
    }
    if isTextOwner, !blocked, let text = typedText(stroke, resolvedTo: resolution) {
      return .insert(InsertText(text), cancelling: cancelling)
    }
    // At a text owner, a binding it keeps before text passes the key to the text when its action
    // is unavailable, unless another it keeps before text comes first.
    let typing = isTextOwner && !blocked ? stroke.chord.typedText(in: stroke.alternates) : nil
    return finish(stroke, index, resolution, top: top, cancelling: cancelling, typing: typing)
  }

  /// Whether this node binds the stroke's chord, or one of its alternates, itself (as the first
  /// key of a binding in effect here).
  private func bindsHere(_ stroke: borrowing Stroke) -> Bool {
    guard hasAttachments, hasAttachment(KeyBindingsAttachment.self) else { return false }
    let (chord, alternates) = (stroke.chord, stroke.alternates)
    return withAttachment(KeyBindingsAttachment.self) { list in
      list.bindings.contains { binding in
        let first = binding.keys.chords[0]
        let matches =
          first == chord || (alternates.map { $0.candidate(1) == first || $0.candidate(2) == first } ?? false)
        return matches && appliesHere(binding.role)
      }
    } ?? false
  }

  /// The text a key types at this text owner, when it resolved to nothing the owner keeps before
  /// text: not to a priority binding or one of the owner's own, nor to a sequence one of those
  /// begins. `nil` when the key types no text or keeps its binding.
  func typedText(_ stroke: borrowing Stroke, resolvedTo resolution: KeyResolution) -> String? {
    guard let text = stroke.chord.typedText(in: stroke.alternates) else { return nil }
    switch resolution {
    case .unbound: return text
    case .binding(let binding): return keepsBeforeText(binding) ? nil : text
    case .pending(let pending): return pending.continuations.contains(where: keepsBeforeText) ? nil : text
    }
  }

  /// Whether a binding found in effect at this text owner goes before text: a priority binding,
  /// or the owner's own (a keymap's matched at the owner included).
  func keepsBeforeText(_ binding: KeyBinding) -> Bool {
    binding.node === self || (binding.layer > .nodes && binding.passesModal)
  }

  /// What a key of a replayed prefix does at this text owner: its own binding, if it has one the
  /// owner keeps before text, else its text.
  func replaying(_ chord: KeyChord) -> Press {
    var own: KeyBinding?
    forEachBinding(startingWith: chord) { binding in
      guard binding.keys.chords.count == 1 else { return false }
      if !binding.role.isBlock, keepsBeforeText(binding) { own = binding }
      return true
    }
    if let own { return finish(Stroke(chord), 0, .binding(own), top: root, cancelling: nil) }
    return .insert(InsertText(chord.typedText(in: nil) ?? ""), cancelling: nil)
  }

  /// Resolves the stroke's chord as the first key of a sequence, then each of its alternates
  /// while nothing is bound: the place of the chord that resolved (0 when none did), its
  /// resolution, and this node's top-most node.
  func resolveKey(startingWith stroke: borrowing Stroke) -> (
    Int, KeyResolution, top: Node, blocked: Bool
  ) {
    let (resolution, top, blocked) = resolveKey(startingWith: stroke.chord)
    guard case .unbound = resolution, stroke.alternates != nil else { return (0, resolution, top, blocked) }
    for index in 1..<3 {
      guard let alternate = stroke.candidate(index) else { continue }
      let found = resolveKey(startingWith: alternate).resolution
      if case .unbound = found { continue }
      return (index, found, top, false)
    }
    return (0, resolution, top, blocked)
  }

  /// What a release does: the nearest binding that takes releases of its chord, or of an
  /// alternate, is performed; nothing else changes.
  func release(_ stroke: borrowing Stroke) -> Press {
    let top = root
    for index in 0..<3 {
      guard let chord = stroke.candidate(index), let binding = releaseBinding(of: chord, top: top) else {
        continue
      }
      return finish(stroke, index, .binding(binding), top: top, cancelling: nil)
    }
    return .finished(.unbound(stroke.chord))
  }

  /// The nearest binding from this node up that takes releases of `chord`, passing over what a
  /// modal scope makes inert.
  private func releaseBinding(of chord: KeyChord, top: Node) -> KeyBinding? {
    var reach = ModalReach(from: self, top: top)
    var found: KeyBinding?
    walkAncestors { node in
      defer { reach.passed(node) }
      guard node.hasAttachments else { return false }
      node.withAttachment(ReleaseBindingsAttachment.self) { bindings in
        for binding in bindings
        where binding.keys.chords[0] == chord && appliesHere(binding.role) && reach.admits(binding) {
          found = KeyBinding(binding, on: node)
          return
        }
      }
      return found != nil
    }
    return found
  }

  /// What `stroke`, resolved as its chord in place `index` to `resolution`, does at this node, in
  /// the tree whose top-most node is `top`.
  private func finish(
    _ stroke: borrowing Stroke, _ index: Int, _ resolution: KeyResolution, top: Node,
    cancelling: (PendingKeys, KeySequenceCancellation)?, typing: String? = nil
  ) -> Press {
    switch resolution {
    case .binding(let binding):
      // A binding in effect that does not take this kind of event (a repeat, mostly) does
      // nothing for it.
      if !binding.events.includes(stroke.kind) {
        return .finished(
          .reporting(.unbound(stroke.candidate(index) ?? stroke.chord), cancelling: cancelling))
      }
      if case .moveFocus(let move) = binding.role {
        return .finished(.reporting(.movedFocus(binding, moveFocus(move, in: top)), cancelling: cancelling))
      }
      return .perform(
        binding, request(performing: binding), cancelling: cancelling, typing: typing, kind: stroke.kind)
    case .unbound: return .finished(.reporting(.unbound(stroke.chord), cancelling: cancelling))
    case .pending(let pending):
      top.pendingKeys = PendingState(node: self, count: pending.count, continuations: pending.continuations)
      return .finished(.reporting(.pending(pending), cancelling: cancelling))
    }
  }

  /// What a resolved press does once its binding's identifier is performed, falling through
  /// while the action is unavailable; text is inserted, and a replayed prefix replayed, here.
  func performing(_ pressed: consuming Press) -> KeyPressResult {
    switch consume pressed {
    case .finished(let result): return result
    case .perform(let binding, let request, let cancelling, let typing, let kind):
      // Most actions are available: the press is done without a step.
      let result = send(request, tracing: nil)
      guard result.isUnavailable else {
        return .reporting(.resolved(binding, result), cancelling: cancelling)
      }
      return fallingThrough(
        Performing(binding, cancelling: cancelling, typing: typing, kind: kind), after: result)
    case .insert(let insert, let cancelling):
      return .reporting(.insertedText(insert, trigger(insert)), cancelling: cancelling)
    case .replay(let prefix, let cancelling, let stroke):
      let results = prefix.map { performing(replaying($0)) }
      let then = stroke.map { performing(press($0)) }
      return .reporting(.replayed(results, then: then), cancelling: cancelling)
    }
  }

  /// `performing(_:)`, awaiting asynchronous actions.
  nonisolated(nonsending) func performingAwaited(_ pressed: consuming Press) async -> KeyPressResult {
    switch consume pressed {
    case .finished(let result): return result
    case .perform(let binding, let request, let cancelling, let typing, let kind):
      // Most actions are available: the press is done without a step.
      let result = await send(request, tracing: nil)
      guard result.isUnavailable else {
        return .reporting(.resolved(binding, result), cancelling: cancelling)
      }
      return await fallingThroughAwaited(
        Performing(binding, cancelling: cancelling, typing: typing, kind: kind), after: result)
    case .insert(let insert, let cancelling):
      return .reporting(.insertedText(insert, await trigger(insert)), cancelling: cancelling)
    case .replay(let prefix, let cancelling, let stroke):
      var results: [KeyPressResult] = []
      for chord in prefix { results.append(await performingAwaited(replaying(chord))) }
      var then: KeyPressResult?
      if let stroke { then = await performingAwaited(press(stroke)) }
      return .reporting(.replayed(results, then: then), cancelling: cancelling)
    }
  }

  /// Whether a key sequence is pending at this node: its mark, read before anything else so
  /// that a key or text arriving with nothing pending here looks no further than this node.
  var isPendingHere: Bool {
    hasAttachments && (withAttachment(TextOwnerStateAttachment.self) { $0.isKeySequencePending } ?? false)
  }

  /// The sequence pending in this node's tree, on its root; setting it also marks the node it
  /// is pending at.
  var pendingKeys: PendingState? {
    get { hasAttachments ? self[attachment: PendingKeysAttachment.self] : nil }
    set {
      if let old = pendingKeys?.node, old.isPendingHere {
        old[attachment: TextOwnerStateAttachment.self].isKeySequencePending = false
      }
      if let newValue {
        self[attachment: PendingKeysAttachment.self] = newValue
        self[attachment: PendingTypedAtAttachment.self] = .now
        newValue.node?[attachment: TextOwnerStateAttachment.self].isKeySequencePending = true
      } else if hasAttachment(PendingKeysAttachment.self) {
        removeAttachment(PendingKeysAttachment.self)
        removeAttachment(PendingTypedAtAttachment.self)
      }
    }
  }

  /// Moves the focus of the tree whose top-most node is `top` (this node's, which the key press
  /// found), or reports that this node is in none.
  func moveFocus(_ move: FocusMove, in top: Node) -> FocusMoveResult {
    guard let tree = top.tree else { return .intercepted(.notDispatched(.notInTree)) }
    return tree.moveFocus(move)
  }
}

extension RequestResult where Answer == PerformResult {
  /// Whether nothing on the chain can perform the identifier: no manager answered, the manager
  /// does not know it, or its validation hides it. A disabled action that is shown is available.
  var isUnavailable: Bool {
    switch self {
    case .unanswered(.unhandled): true
    case .answered(.unknown, _): true
    case .answered(.disabled(_, let validation), _): !validation.isVisible
    default: false
    }
  }
}

extension KeyPressResult {
  /// `result`, inside the cancellation of the sequence the key press cancelled, if any.
  static func reporting(
    _ result: KeyPressResult, cancelling: (PendingKeys, KeySequenceCancellation)?
  ) -> KeyPressResult {
    guard let (pending, reason) = cancelling else { return result }
    return .cancelled(pending, reason, then: result)
  }
}
