import Actions
import ViewTree

/// What a key pressed at a node resolves to (see `Node.resolveKey(_:)`).
public enum KeyResolution {
  /// No binding in effect begins with the keys.
  case unbound
  /// The keys complete a binding in effect.
  case binding(KeyBinding)
  /// The keys begin one or more longer bindings in effect: the sequence waits for its next key.
  case pending(PendingKeys)
}

/// A key sequence that waits for its next key: the keys typed so far, where, and what can follow.
public struct PendingKeys: CustomStringConvertible {
  /// The node the keys were pressed at.
  public let node: Node
  /// The bindings in effect that begin with the keys typed so far and are longer, in the order
  /// the rule of nearest binding takes them (nearest node first), and still bound.
  public let continuations: [KeyBinding]
  /// How many keys were typed.
  let count: Int
  /// Keys that begin with the keys typed: one continuation's, shared rather than copied.
  let source: KeySequence

  /// The keys typed so far.
  public var typed: KeySequence { KeySequence(Array(source.chords.prefix(count))) }

  /// `ctrl+k … (3 continuations)`.
  public var description: String {
    "\(typed) … (\(continuations.count) continuation\(continuations.count == 1 ? "" : "s"))"
  }

  /// The continuations as a which-key footer or popup shows them: sorted by the keys that follow,
  /// each the entry of its action in what ``node`` offers (see
  /// `NodeTree.offeredActions(at:itemsIn:includingRegistered:)`), as
  /// `Node.bindingsInEffect(includingShadowed:)` shows it. A continuation whose action the node no
  /// longer offers (the tree changed since the key was pressed) is left out: no key completes it.
  ///
  /// - Returns: One entry per continuation (``ActionEntry/keys`` is the whole sequence).
  /// - Complexity: What the list costs (one validation per action on the path), plus
  ///   O(*c* log *c*) to sort the continuations.
  public func validatedContinuations() -> [ActionEntry] {
    // Sorted by the chord that follows, read once per continuation, then by position; the
    // continuations that share that chord are then sorted by the rest of their keys.
    var order = continuations.indices.map { (key: continuations[$0].keys.chords[count].sortKey, index: $0) }
    order.sort { $0 < $1 }
    var start = 0
    while start < order.count {
      var end = start + 1
      while end < order.count, order[end].key == order[start].key { end += 1 }
      if end - start > 1 {
        order[start..<end].sort { lhs, rhs in
          continuations[lhs.index].keys.chords[(count + 1)...].lexicographicallyPrecedes(
            continuations[rhs.index].keys.chords[(count + 1)...], by: KeyChord.precedes)
        }
      }
      start = end
    }
    let list = node.offered(itemsIn: nil, includingRegistered: false)
    return order.compactMap { entry in
      let binding = continuations[entry.index]
      let identifier = node.performed(by: binding)
      guard let found = list.index[ActionIdentifier.unprefixed(identifier)] else { return nil }
      let offer = ActionEntry.Offer(
        binding.role.isFocusMove ? .focusMove : .binding, node: binding.node, binding: binding,
        shownAs: binding.node?[attachment: KeysShownAsAttachment.self][binding.keys], position: 0)
      return list.entries[found].row(for: offer)
    }
  }
}

/// The key sequence pending in a tree, as its root keeps it: every node held weakly, so that the
/// root does not keep itself alive through it, nor nodes that left the tree.
struct PendingState {
  /// A binding found in effect, with its node held weakly.
  struct Continuation {
    weak var node: Node?
    /// The binding as found, without its node.
    let binding: KeyBinding

    var keys: KeySequence { binding.keys }

    /// The binding, if its node is alive and still declares it on the path from `node`.
    func binding(at node: Node) -> KeyBinding? {
      guard let declaring = self.node, binding.isDeclared(by: declaring, onPathFrom: node) else { return nil }
      return KeyBinding(binding, on: declaring, isDefault: binding.isDefault)
    }
  }

  weak var node: Node?
  let count: Int
  let continuations: [Continuation]

  init(node: Node, count: Int, continuations: [KeyBinding]) {
    self.node = node
    self.count = count
    // The bindings are kept without their nodes, which the root must not hold.
    self.continuations = continuations.map {
      Continuation(node: $0.node, binding: KeyBinding($0, on: nil, isDefault: $0.isDefault))
    }
  }

  /// The sequence as reported: its continuations still bound, at the node it was typed at.
  func pending(at node: Node) -> PendingKeys {
    PendingKeys(
      node: node, continuations: continuations.compactMap { $0.binding(at: node) }, count: count,
      source: continuations[0].keys)
  }

  /// What `chord`, pressed at `node` (the sequence's node) as the next key, resolves to; `nil`
  /// when it does not continue the sequence.
  func resolution(continuedBy chord: KeyChord, at node: Node) -> KeyResolution? {
    var continuing: [KeyBinding] = []
    for candidate in continuations where candidate.keys.chords[count] == chord {
      guard let binding = candidate.binding(at: node) else { continue }
      // The continuations in effect do not overlap: one that ends here is the only one.
      if candidate.keys.chords.count == count + 1 { return .binding(binding) }
      continuing.append(binding)
    }
    if continuing.isEmpty { return nil }
    return .pending(
      PendingKeys(node: node, continuations: continuing, count: count + 1, source: continuing[0].keys))
  }

  /// Whether a continuation is still bound, for a key pressed at `node`.
  func hasBoundContinuation(at node: Node) -> Bool { continuations.contains { $0.binding(at: node) != nil } }
}

/// Why a pending key sequence was cancelled.
public enum KeySequenceCancellation: Hashable, Sendable {
  /// Escape was pressed. It does nothing else, unless the prefix was text at a text owner: then
  /// the prefix is typed, and Escape resolves on its own (vim's insert mode types the `j` of a
  /// pending `j k`, then leaves).
  case escape
  /// The key pressed does not continue the sequence; it was resolved on its own.
  case broken
  /// The key was pressed at another node than the sequence's (the focus moved); it was resolved
  /// on its own.
  case focusMoved
  /// Every binding the sequence could complete was removed from its node (or the node left the
  /// path from the focus); the key was resolved on its own.
  case bindingsRemoved
  /// The caller's timer ran out (see `NodeTree.pendingKeysTimedOut()`).
  case timedOut
  /// Text arrived while it was pending: a paste, an input method's commit, or a composition that
  /// starts (see `Node.insertText(_:isPaste:)` and `Node.updateComposition(_:)`). A prefix that
  /// is text was typed before it.
  case text
}

/// What a key press did.
public enum KeyPressResult: CustomStringConvertible {
  /// No binding in effect at the node begins with the chord.
  case unbound(KeyChord)
  /// The keys resolved to a binding, whose identifier was performed (validated first): the
  /// result says whether it ran, was disabled, or failed. A disabled binding does not fall
  /// through to outer bindings.
  case resolved(KeyBinding, RequestResult<PerformResult>)
  /// The keys resolved to a binding of one of the focus identifiers (`focus.Next`,
  /// `focus.Previous`, `focus.Left`, `focus.Right`, `focus.Up`, `focus.Down`), and the tree moved
  /// the focus (see `NodeTree.moveFocus(_:)`).
  case movedFocus(KeyBinding, FocusMoveResult)
  /// The keys begin longer bindings: the sequence waits for its next key.
  case pending(PendingKeys)
  /// The key cancelled the sequence that was pending, for the reason given; then, unless it was
  /// Escape, it was resolved on its own, with the result given.
  indirect case cancelled(PendingKeys, KeySequenceCancellation, then: KeyPressResult?)
  /// The key typed text at a text owner (see `ModifierHost.takesText()`), which
  /// triggered ``InsertText`` from it, with what happened to that action.
  case insertedText(InsertText, ActionOutcome)
  /// An input method is composing at the text owner (see `Node.updateComposition(_:)`): the key
  /// reached no binding.
  case composing(KeyChord)
  /// A pending prefix that is text, at a text owner, was replayed when its sequence broke or
  /// timed out: each key as its own binding if it has one, else as text; then the key that
  /// broke it, if one did, was resolved on its own.
  indirect case replayed([KeyPressResult], then: KeyPressResult?)

  /// A one-line summary.
  public var description: String {
    switch self {
    case .unbound(let chord): "\(chord): no binding"
    case .resolved(let binding, let result): "\(binding): \(result)"
    case .movedFocus(let binding, let result): "\(binding): \(result)"
    case .pending(let pending): "\(pending)"
    case .cancelled(let pending, let reason, let then):
      "\(pending.typed) cancelled (\(reason))" + (then.map { "; \($0)" } ?? "")
    case .insertedText(let insert, let outcome):
      "\(insert)" + (outcome.handler.map { " -> \($0.label)" } ?? ": \(outcome)")
    case .composing(let chord): "\(chord): composing"
    case .replayed(let results, let then):
      "replayed " + results.map(\.description).joined(separator: ", ") + (then.map { "; \($0)" } ?? "")
    }
  }
}

/// The key sequence pending in a tree, kept on its root.
enum PendingKeysAttachment: NodeAttachmentKey {
  static var defaultValue: PendingState? { nil }
}

extension PendingState {
  /// The keys typed so far, when each of them types text (a replayable prefix); `nil` otherwise.
  var textPrefix: [KeyChord]? {
    let typed = Array(continuations[0].keys.chords.prefix(count))
    return typed.allSatisfy { $0.typedText(in: nil) != nil } ? typed : nil
  }
}

/// When the pending key sequence's last key was typed, on the root beside the sequence: kept
/// apart, as an instant's layout is known only at run time, which would make every copy of the
/// sequence's state slower.
enum PendingTypedAtAttachment: NodeAttachmentKey {
  static var defaultValue: ContinuousClock.Instant? { nil }
}

/// How long a tree's pending key sequence waits (see `NodeTree.keySequenceTimeout`), on its root.
enum KeySequenceTimeoutAttachment: NodeAttachmentKey {
  static var defaultValue: Duration? { .seconds(1) }
}

/// How a pending prefix ends (see `Node.settle(_:_:top:)`).
enum Settlement {
  /// Its keys are typed, each as its own binding if it has one, else as text.
  case replay([KeyChord], (PendingKeys, KeySequenceCancellation))
  /// It is dropped.
  case cancelled((PendingKeys, KeySequenceCancellation))
}

extension Node {
  /// Ends `state`, the sequence pending in the tree whose top-most node is `top`, because of
  /// what arrived at this node (a key that does not continue it, Escape, text, the timer): by one
  /// rule, so that keys and text arrive in the order they were typed. A prefix that is text,
  /// pending at this node while it takes text and no input method composes, is replayed;
  /// any other prefix is cancelled.
  func settle(_ state: PendingState, _ reason: KeySequenceCancellation, top: Node) -> Settlement {
    top.pendingKeys = nil
    let ended = (state.pending(at: state.node ?? self), reason)
    guard state.node === self, takesText, !isComposing, let prefix = state.textPrefix else {
      return .cancelled(ended)
    }
    return .replay(prefix, ended)
  }

  /// Ends the sequence pending at this node because text arrives here (a paste, an input
  /// method's commit, or a composition that starts), as `settle(_:_:top:)` says, and replays its
  /// prefix here if it is text. A sequence pending at another node is left to the next key, which
  /// cancels it (the focus moved): text here has no prefix there to keep in order.
  ///
  /// - Returns: What ending it did; `nil` when no sequence was pending here.
  @discardableResult
  func settlePendingKeysForText() -> KeyPressResult? {
    guard isPendingHere else { return nil }
    let top = root
    guard let state = top.pendingKeys, state.node === self else { return nil }
    switch settle(state, .text, top: top) {
    case .replay(let prefix, let ended): return performing(.replay(prefix, cancelling: ended, then: nil))
    case .cancelled(let ended): return .cancelled(ended.0, ended.1, then: nil)
    }
  }
}

extension KeyBinding {
  /// Whether `declaring` (the root, for a default) still declares this binding, on the path from
  /// `node` up.
  func isDeclared(by declaring: Node, onPathFrom node: Node) -> Bool {
    if isDefault {
      // `declaring` is the root then: its tree is found at once.
      guard node.root === declaring, let tree = declaring.tree else { return false }
      return tree.firstDefaultKeyBinding { $0.binds(self) } != nil
    }
    if layer > .nodes {
      // Matched at `declaring`: still so while the keymap keeps an entry of these keys.
      guard node.isDescendant(of: declaring), let keymap = node.root.treeKeys?.keymap(layer) else {
        return false
      }
      return keymap.index.byFirstChord[keys.chords[0]]?.contains { position in
        let entry = keymap.entries[position]
        return entry.keys == keys && entry.effect == .perform(identifier)
      } ?? false
    }
    guard node.isDescendant(of: declaring), declaring.hasAttachments else { return false }
    return declaring.withAttachment(KeyBindingsAttachment.self) { $0.bindings.contains { $0.binds(self) } }
      ?? false
  }
}

extension KeyChord {
  /// An order for listing chords: by key (characters first, by their Unicode scalars; then the
  /// named keys; then function keys by number), then by modifiers.
  fileprivate static func precedes(_ lhs: KeyChord, _ rhs: KeyChord) -> Bool {
    let (left, right) = (lhs.sortKey, rhs.sortKey)
    if left != right { return left < right }
    // Characters that begin with the same scalar, such as `e` and `e` with a combining accent.
    guard case .character(let a) = lhs.key, case .character(let b) = rhs.key else { return false }
    return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value }
  }

  /// The chord's place in that order, but for the scalars of a character after its first, as
  /// one number: the key's rank, its first scalar, its modifiers.
  fileprivate var sortKey: UInt64 {
    var scalar: UInt32 = 0
    if case .character(let character) = key { scalar = character.unicodeScalars.first!.value }
    return UInt64(key.rank) << 40 | UInt64(scalar) << 8 | UInt64(modifiers.rawValue)
  }
}

extension KeyChord.Key {
  /// The key's place in the listing order, the same for every character: the characters, the
  /// named keys in their table's order, then the function keys.
  fileprivate var rank: Int {
    switch self {
    case .character: 0
    case .function(let number): 100 + number
    default: 1 + namedIndex!
    }
  }
}

extension NodeTree {
  /// The key sequence pending at the ``ViewTree/NodeTree/firstResponder``, if any: what a
  /// which-key footer shows (see ``PendingKeys/validatedContinuations()``). `nil` once the focus
  /// moved or none of its continuations is still bound.
  public var pendingKeys: PendingKeys? {
    let focus = firstResponder
    guard let state = root.pendingKeys, state.node === focus, state.hasBoundContinuation(at: focus) else {
      return nil
    }
    return state.pending(at: focus)
  }

  /// Ends the pending key sequence because the caller's timer ran out (see
  /// ``pendingKeysDeadline``): at a text owner that still has the focus, a prefix that is text is
  /// replayed, each key as its own binding if it has one, else as ``InsertText`` (insert-mode
  /// `j k` waits for its `k`, then types the `j`); elsewhere the sequence is cancelled.
  ///
  /// - Returns: The cancellation, with ``KeyPressResult/replayed(_:then:)`` after it when the
  ///   prefix was replayed; `nil` when no sequence was pending.
  @discardableResult
  public func pendingKeysTimedOut() -> KeyPressResult? {
    let top = root
    guard let state = top.pendingKeys else { return nil }
    guard let node = state.node else {
      top.pendingKeys = nil
      return nil
    }
    // Settled at the focus: a prefix whose focus moved is dropped.
    switch firstResponder.settle(state, .timedOut, top: top) {
    case .replay(let prefix, let ended): return node.performing(.replay(prefix, cancelling: ended, then: nil))
    case .cancelled(let ended): return .cancelled(ended.0, .timedOut, then: nil)
    }
  }

  /// How long a pending key sequence waits for its next key before ``pendingKeysTimedOut()``
  /// ends it: one second by default, as vim waits; `nil` to wait for ever, as VS Code does.
  public var keySequenceTimeout: Duration? {
    get { root[attachment: KeySequenceTimeoutAttachment.self] }
    set { root[attachment: KeySequenceTimeoutAttachment.self] = newValue }
  }

  /// When the pending key sequence times out: its last key's time plus
  /// ``keySequenceTimeout``; `nil` when no sequence is pending or it waits for ever. A read loop
  /// waits for input until then, then calls ``pendingKeysTimedOut()``.
  public var pendingKeysDeadline: ContinuousClock.Instant? {
    guard root.pendingKeys != nil, let timeout = keySequenceTimeout,
      let typedAt = root[attachment: PendingTypedAtAttachment.self]
    else { return nil }
    return typedAt + timeout
  }

  /// Cancels the pending key sequence, as a caller's timeout does (vim waits a second, VS Code
  /// for ever): the next key press starts a new one. Nothing is replayed (see
  /// ``pendingKeysTimedOut()`` for a timer at a text owner).
  ///
  /// - Returns: The sequence cancelled, or `nil` when none was pending.
  @discardableResult
  public func cancelPendingKeys() -> PendingKeys? {
    guard let state = root.pendingKeys else { return nil }
    root.pendingKeys = nil
    return state.node.map { state.pending(at: $0) }
  }
}
