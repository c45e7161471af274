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

extension Node {
  /// Resolves a key pressed at this node, as ``handleKey(_:)-(KeyChord)`` would, without
  /// performing anything or changing the pending sequence.
  ///
  /// The bindings in effect are taken nearest node first, each node's in the order declared, the
  /// tree's ``ViewTree/NodeTree/defaultKeyBindings`` last: a binding is in effect unless one
  /// taken before it and in effect *overlaps* it, that is, one of the two sequences begins with
  /// the other (or they are the same). So a nearer `g` hides a farther `g g`, and a nearer `g g`
  /// hides a farther `g`; bindings that overlap on one node are refused when declared.
  ///
  /// When a sequence is pending at this node, a chord that continues it resolves to the longer
  /// binding it completes, or to the sequence pending one key further; its continuations are those
  /// in effect when its first key was pressed that are still bound. Any other chord resolves on
  /// its own.
  ///
  /// - Parameter chord: The chord pressed.
  /// - Returns: The binding the keys complete, the sequence they leave pending, or that nothing
  ///   is bound.
  /// - Complexity: O(*d*) in the node's depth, plus the bindings of the nodes that have some;
  ///   when `chord` begins longer bindings, O(*s*) more for each, in the length of its keys.
  ///   Continuing a sequence is O(*d* + *b*) per continuation whose next key is `chord`, in the
  ///   bindings *b* of its node.
  public func resolveKey(_ chord: KeyChord) -> KeyResolution {
    // The pending sequence is read where the root keeps it: a copy would copy its weak references.
    if isPendingHere,
      let resolution = root.withAttachment(
        PendingKeysAttachment.self,
        { state in state?.node === self ? state?.resolution(continuedBy: chord, at: self) : nil }) ?? nil
    {
      return resolution
    }
    return resolveKey(startingWith: chord).resolution
  }

  /// Resolves `chord` as the first key of a sequence, by the rule of ``resolveKey(_:)``, and
  /// finds this node's top-most node in the same walk.
  private func resolveKey(startingWith chord: KeyChord) -> (
    resolution: KeyResolution, top: Node, blocked: Bool
  ) {
    // The first binding that begins with `chord` is in effect, since nothing before it overlaps
    // it; when it is `chord` alone, it hides every later one and the press resolves to it.
    var first: KeyBinding?
    let top = walkToTop { node in
      guard node.hasAttachments else { return false }
      // Compared where they are stored: most bindings begin with another chord. (Keys are never
      // empty: a binding refuses them when made.)
      node.withAttachment(KeyBindingsAttachment.self) { list in
        for index in list.bindings.indices
        where list.bindings[index].keys.chords[0] == chord && appliesHere(list.bindings[index].role) {
          first = KeyBinding(list.bindings[index], on: node)
          return
        }
      }
      return first != nil
    }
    if let keys = top.treeKeys {
      // Keymaps add bindings: the first of all in their order (see `Keymap`).
      first = firstBinding(startingWith: chord, top: top, keys: keys)
    } else if top.activeModal != nil {
      // A modal scope holds the focus: the walk again, passing over what it makes inert.
      first = nil
      forEachBinding(startingWith: chord, top: top) { binding in
        first = binding
        return true
      }
    } else if first == nil, let tree = top.tree {
      first = tree.firstDefaultKeyBinding { $0.keys.chords[0] == chord && appliesHere($0.role) }
    }
    guard let first else { return (.unbound, top, false) }
    // A block takes its keys from every later candidate, the text the key types at a text owner
    // included when the owner keeps the block before text.
    let blocked = first.role.isBlock && keepsBeforeText(first)
    if first.keys.chords.count == 1 { return (first.role.isBlock ? .unbound : .binding(first), top, blocked) }
    // Otherwise the press begins a sequence: every binding in effect that begins with `chord`
    // (a block among them makes its keys do nothing).
    var longer: [KeyBinding] = []
    var inEffect = OverlapIndex<Void>()
    forEachBinding(startingWith: chord, top: top) { binding in
      if inEffect.claim(binding.keys, for: ()) == nil, !binding.role.isBlock {
        longer.append(binding)
      }
      return false
    }
    // Blocks hid every sequence the chord begins.
    guard !longer.isEmpty else { return (.unbound, top, blocked) }
    return (
      .pending(PendingKeys(node: self, continuations: longer, count: 1, source: longer[0].keys)), top, blocked
    )
  }

  /// Calls `body` with each binding from this node up, as found in effect (with its node), in the
  /// order the rule of nearest binding takes them (see ``resolveKey(_:)``), until it returns
  /// `true`.
  ///
  /// A binding to `item.Activate` is in effect only at an action item: elsewhere it is skipped.
  /// While a modal scope holds the focus, what it makes inert is passed over (see `ModalReach`).
  /// When the tree has keymaps, their bindings come in too, all in the order of ``Keymap``, and
  /// a block (`null`) is one of them, which the caller hides its bindings with. Only bindings
  /// whose keys begin with `chord` are taken, when it is given. `top` is this node's top-most
  /// node, when the caller knows it.
  func forEachBinding(startingWith chord: KeyChord? = nil, top: Node? = nil, _ body: (KeyBinding) -> Bool) {
    let top = top ?? root
    if let keys = top.treeKeys {
      forEachRankedBinding(startingWith: chord, top: top, keys: keys, body)
      return
    }
    var reach = ModalReach(from: self, top: top)
    var stopped = false
    walkAncestors { node in
      defer { reach.passed(node) }
      guard node.hasAttachments else { return false }
      node.withAttachment(KeyBindingsAttachment.self) { list in
        for binding in list.bindings
        where (chord == nil || binding.keys.chords[0] == chord) && appliesHere(binding.role)
          && reach.admits(binding) && body(KeyBinding(binding, on: node))
        {
          stopped = true
          return
        }
      }
      return stopped
    }
    guard !stopped, reach.admitsDefaults, let tree = top.tree else { return }
    tree.firstDefaultKeyBinding {
      (chord == nil || $0.keys.chords[0] == chord) && appliesHere($0.role) && body($0)
    }
  }

  /// For the top-most node of a tree with a keymap: what key bindings keep for the tree (see
  /// `TreeKeys`), which every key press looks for.
  var treeKeys: TreeKeys? { keyBindingsSlot as? TreeKeys }

  /// Whether this node is an action item (see ``ViewTree/ModifierHost/actionItem(_:)``).
  var isActionItem: Bool { hasAttachments && hasAttachment(ActionItemAttachment.self) }

  /// Whether a binding to `identifier` is in effect at this node: one to `item.Activate` only at
  /// an item, which it activates.
  func appliesHere(_ role: KeyBinding.Role) -> Bool {
    guard case .activateItem = role else { return true }
    return isActionItem
  }

  /// The identifier a resolved binding performs from this node: the binding's, or for
  /// `item.Activate` this item's.
  func performed(by binding: KeyBinding) -> String {
    guard case .activateItem = binding.role, let item = actionItemIdentifier else {
      return binding.identifier.text
    }
    return item
  }

  /// The request a resolved binding sends from this node: the binding's identifier with the
  /// binding as sender (and the identifier parsed, so that the manager does not parse it again),
  /// or for `item.Activate` this item's identifier with the item.
  func request(performing binding: KeyBinding) -> PerformRequest {
    guard case .activateItem = binding.role, let item = actionItemIdentifier else {
      return PerformRequest(
        binding.identifier.text, from: .named(SenderBox(binding, parsed: binding.identifier)))
    }
    return PerformRequest(item, from: .origin(self))
  }

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

  /// What a resolved press does once its binding's identifier is performed, falling through
  /// while the action is unavailable; text is inserted, and a replayed prefix replayed, here.
  fileprivate func performing(_ pressed: consuming Press) -> KeyPressResult {
    switch consume pressed {
    case .finished(let result): return result
    case .perform(let binding, let request, let cancelling, let typing):
      // Most actions are available: the press is done without a step.
      let result = send(request, tracing: nil)
      guard result.isUnavailable else {
        return .reporting(.resolved(binding, result), cancelling: cancelling)
      }
      return fallingThrough(from: binding, after: result, cancelling: cancelling, typing: typing)
    case .insert(let insert, let cancelling):
      return .reporting(.insertedText(insert, trigger(insert)), cancelling: cancelling)
    case .replay(let prefix, let cancelling, let stroke):
      let results = prefix.map { performing(replaying($0)) }
      let then = stroke.map { performing(press($0)) }
      return .reporting(.replayed(results, then: then), cancelling: cancelling)
    }
  }

  /// `performing(_:)`, awaiting asynchronous actions.
  nonisolated(nonsending) private func performingAwaited(_ pressed: consuming Press) async -> KeyPressResult {
    switch consume pressed {
    case .finished(let result): return result
    case .perform(let binding, let request, let cancelling, let typing):
      // Most actions are available: the press is done without a step.
      let result = await send(request, tracing: nil)
      guard result.isUnavailable else {
        return .reporting(.resolved(binding, result), cancelling: cancelling)
      }
      return await fallingThroughAwaited(from: binding, after: result, cancelling: cancelling, typing: typing)
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

  /// Runs the steps of a press's perform (see `Performing`) once its first `binding`'s action
  /// gave `result`, unavailable. (Out of line: most presses never fall through.)
  @inline(never)
  fileprivate func fallingThrough(
    from binding: KeyBinding, after result: RequestResult<PerformResult>,
    cancelling: (PendingKeys, KeySequenceCancellation)?, typing: String?
  ) -> KeyPressResult {
    var perform = Performing(binding, cancelling: cancelling, typing: typing)
    var next = perform.next(after: result, at: self)
    while true {
      switch next {
      case .send(let request): next = perform.next(after: send(request, tracing: nil), at: self)
      case .type(let insert): return perform.finished(.insertedText(insert, trigger(insert)))
      case .done(let result): return result
      }
    }
  }

  /// Runs the steps of a press's perform (see `Performing`) once its first `binding`'s action
  /// gave `result`, unavailable.
  nonisolated(nonsending) private func fallingThroughAwaited(
    from binding: KeyBinding, after result: RequestResult<PerformResult>,
    cancelling: (PendingKeys, KeySequenceCancellation)?, typing: String?
  ) async -> KeyPressResult {
    var perform = Performing(binding, cancelling: cancelling, typing: typing)
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
  fileprivate struct Performing {
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
    /// How many bindings of the keys were tried, in the order of precedence.
    private var tried = 1

    init(_ binding: KeyBinding, cancelling: (PendingKeys, KeySequenceCancellation)?, typing: String?) {
      self.binding = binding
      self.cancelling = cancelling
      self.typing = typing
    }

    /// What the press at `node` does once the last request gave `result`: done, unless the
    /// action was unavailable; then the next binding of the same keys in the order of precedence
    /// is performed (or moves the focus), or the key's text typed when it comes first.
    mutating func next(after result: RequestResult<PerformResult>, at node: Node) -> Next {
      guard result.isUnavailable else { return .done(finished(.resolved(binding, result))) }
      let next = node.fallThrough(binding.keys, after: tried)
      tried += 1
      if let typing, node.fallsToText(from: binding, before: next) { return .type(InsertText(typing)) }
      guard let next else { return .done(finished(.resolved(binding, result))) }
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
  /// unless a block of the same keys comes first. Counted by position, not by identity: two
  /// keymap entries may make equal bindings.
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
      if !found.role.isBlock { next = found }
      return true
    }
    return next
  }

  /// What a key press does once resolved: everything but the perform, which the synchronous and
  /// the awaited `handleKey` each run their way.
  fileprivate enum Press {
    /// Nothing (more) to do: the press's result, a focus move included.
    case finished(KeyPressResult)
    /// A binding and the request that performs its identifier (or, for `item.Activate`, the
    /// item's); the result goes into the cancellation, if the press cancelled a pending sequence.
    /// At a text owner, `typing` is the text the key types if its binding falls through to it.
    case perform(
      KeyBinding, PerformRequest, cancelling: (PendingKeys, KeySequenceCancellation)?, typing: String?)
    /// Text typed at a text owner, to trigger from it.
    case insert(InsertText, cancelling: (PendingKeys, KeySequenceCancellation)?)
    /// A pending prefix that is text, to replay key by key at a text owner, then the key that
    /// broke it (none for a timeout), resolved on its own.
    /// (Boxed: the other cases stay small for every press.)
    indirect case replay([KeyChord], cancelling: (PendingKeys, KeySequenceCancellation), then: Stroke?)
  }

  /// A key event as a press resolves it: its chord and kind, and the event itself only when it
  /// has alternates to try, so that a plain press copies no event.
  fileprivate struct Stroke {
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
  private func press(_ stroke: borrowing Stroke) -> Press {
    if stroke.kind == .release { return release(stroke) }
    let isTextOwner = takesText
    if isTextOwner, isComposing { return .finished(.composing(stroke.chord)) }
    // A sequence pending here is continued by the key, or ended by it: by the rule every end of
    // a prefix follows (see `settle(_:_:)`), then the key is resolved on its own, unless it was
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
  private func typedText(_ stroke: borrowing Stroke, resolvedTo resolution: KeyResolution) -> String? {
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
  private func replaying(_ chord: KeyChord) -> Press {
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
  private func resolveKey(startingWith stroke: borrowing Stroke) -> (
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
  private func release(_ stroke: borrowing Stroke) -> Press {
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
      return .perform(binding, request(performing: binding), cancelling: cancelling, typing: typing)
    case .unbound: return .finished(.reporting(.unbound(stroke.chord), cancelling: cancelling))
    case .pending(let pending):
      top.pendingKeys = PendingState(node: self, count: pending.count, continuations: pending.continuations)
      return .finished(.reporting(.pending(pending), cancelling: cancelling))
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
  fileprivate func moveFocus(_ move: FocusMove, in top: Node) -> FocusMoveResult {
    guard let tree = top.tree else { return .intercepted(.notDispatched(.notInTree)) }
    return tree.moveFocus(move)
  }
}

/// Which bindings a walk from a node up reaches while a modal scope holds the focus of its tree:
/// those of the nodes inside the scope, and of the others only those declared to pass it
/// (`KeyBinding.passesModal`); the tree's defaults only from inside the scope, where they act on
/// the focus. With no modal scope, every one.
struct ModalReach {
  private let modal: Node?
  private let startsOutside: Bool
  /// Whether the nodes the walk is at now are outside the modal scope.
  private var isOutside: Bool

  /// A walk from `node`, whose top-most node is `top`.
  init(from node: Node, top: Node) {
    modal = top.activeModal
    startsOutside = modal.map { !node.isDescendant(of: $0) } ?? false
    isOutside = startsOutside
  }

  /// Whether the walk takes `binding`, found on the node it is at.
  func admits(_ binding: KeyBinding) -> Bool { !isOutside || binding.passesModal }

  /// Whether the walk takes the node's item (an item outside the modal scope is inert).
  var admitsItems: Bool { !isOutside }

  /// Whether the tree's defaults apply: the walk started inside the modal scope, if any.
  var admitsDefaults: Bool { !startsOutside }

  /// Notes that the walk is done with `node`: past the modal scope, it is outside.
  mutating func passed(_ node: Node) {
    if node === modal { isOutside = true }
  }

  /// Whether `node` is the modal scope.
  func isScope(_ node: Node) -> Bool { node === modal }

  /// Whether the node `distance` steps up from where the walk began, which it passed, is outside
  /// the modal scope, which it passed `scopeDistance` steps up (`Int.max` if it did not).
  func isInert(atDistance distance: Int, scopeDistance: Int) -> Bool {
    modal != nil && (startsOutside || distance > scopeDistance)
  }

  /// Whether `node`, of the walk's tree, is outside the modal scope.
  func isInert(_ node: Node) -> Bool { modal.map { !node.isDescendant(of: $0) } ?? false }
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
private enum Settlement {
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
  fileprivate func settle(_ state: PendingState, _ reason: KeySequenceCancellation, top: Node) -> Settlement {
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

extension KeyPressResult {
  /// `result`, inside the cancellation of the sequence the key press cancelled, if any.
  fileprivate static func reporting(
    _ result: KeyPressResult, cancelling: (PendingKeys, KeySequenceCancellation)?
  ) -> KeyPressResult {
    guard let (pending, reason) = cancelling else { return result }
    return .cancelled(pending, reason, then: result)
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
  static func precedes(_ lhs: KeyChord, _ rhs: KeyChord) -> Bool {
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
