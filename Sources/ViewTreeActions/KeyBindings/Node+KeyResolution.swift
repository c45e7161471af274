import Actions
import ViewTree

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
  func resolveKey(startingWith chord: KeyChord) -> (
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

}
