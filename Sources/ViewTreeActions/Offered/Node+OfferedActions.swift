import Actions
import ViewTree

extension NodeTree {
  /// Every action a user can invoke at a node, nearest first, one entry per identifier: the one
  /// menus, footers, which-key, the palette and assistive technology read.
  ///
  /// ```swift
  /// for entry in tree.offeredActions() where entry.validation.isVisible {
  ///   print(entry.title, entry.formattedKeys(.display) ?? "", entry.validation.isEnabled)
  /// }
  /// ```
  ///
  /// The list walks from `node` to the root. At each node it takes the node's item (see
  /// ``ViewTree/ModifierHost/actionItem(_:)``; the node's own item is its default and comes first),
  /// then the node's key bindings in the order they were declared; then the tree's
  /// ``ViewTree/NodeTree/defaultKeyBindings`` (focus moves, and Enter at an item, which joins the
  /// item's entry), then the items of `subtree` (a menu), depth-first, then what the manager that
  /// would perform from `node` registers. An identifier offered twice (an item and the binding of
  /// its keys) is one entry with two ``ActionEntry/offers``, and so are identifiers that differ
  /// only in their prefix, which is ignored (`menu.Save` and `Save`); a binding that a nearer one hides
  /// (see ``Node/resolveKey(_:)``) is kept, marked.
  ///
  /// Each entry is validated once, from `node`, with its nearest item or binding as sender, after
  /// the walk: a validation runs user code, which may change the tree. Each gives what
  /// `node.validate(_:sender:)` would, but when only the nearest manager would see a validation
  /// request on the path (no capture, observer or other modifier takes one, no step observer),
  /// the path's providers are gathered once and the manager asked directly, again after any
  /// change to the tree. A focus move is always enabled, titled "Focus next" and so on, and no
  /// manager is asked. Performing an entry's ``ActionEntry/identifier`` from `node` goes through
  /// the chain as any perform does.
  ///
  /// - Parameters:
  ///   - node: Where the actions would be invoked: the focus (``ViewTree/NodeTree/firstResponder``)
  ///     when `nil`.
  ///   - subtree: A subtree whose items to list too, as a menu or a toolbar offers them; none when
  ///     `nil`.
  ///   - includingRegistered: Whether to list what the manager registers that nothing on the path
  ///     offers, as a palette does (default: yes).
  /// - Returns: The entries.
  /// - Complexity: O(*d* + *b*·*s* + *i* + *r*) in the depth, the bindings on the path and the
  ///   length of their keys, the subtree's size and the registered actions, plus one validation
  ///   per entry (its action's `validate` and the path's providers).
  public func offeredActions(
    at node: Node? = nil, itemsIn subtree: Node? = nil, includingRegistered: Bool = true
  ) -> [ActionEntry] {
    (node ?? firstResponder).offered(itemsIn: subtree, includingRegistered: includingRegistered).entries
  }
}

/// What a node offers, validated, with where each item of a subtree is in it.
struct OfferedList {
  var entries: [ActionEntry]
  /// The subtree's items, depth-first: the index of each one's entry, and of its offer there.
  var itemRows: [(entry: Int, offer: Int)]
  /// How many offers the entries hold together: their positions are below it.
  var offerCount: Int
  /// Each action's entry, by its identifier without a prefix (`ActionIdentifier.unprefixed`).
  var index: [String: Int]
}

extension Node {
  /// The list `NodeTree.offeredActions(at:itemsIn:includingRegistered:)` gives, and where the
  /// subtree's items are in it; every view of the list reads it from here.
  func offered(itemsIn subtree: Node?, includingRegistered: Bool) -> OfferedList {
    var list = OfferGathering()
    let start = self
    // The path's items, to find them again among the subtree's.
    var pathItems: [ObjectIdentifier: (entry: Int, offer: Int)] = [:]
    // The bindings found, and which of them claimed which keys.
    var bindings: [KeyBinding] = []
    var inEffect = OverlapIndex<Int>()
    // At a text owner, a key that types text is text unless the owner keeps its binding first.
    let isTextOwner = takesText
    func add(_ binding: KeyBinding, shownAs: String? = nil) {
      let shadowedBy: KeyBinding?
      if isTextOwner, binding.keys.chords[0].typedText(in: nil) != nil, !start.keepsBeforeText(binding) {
        shadowedBy = KeyBinding(typing: binding.keys.chords[0], at: start)
      } else {
        shadowedBy = inEffect.claim(binding.keys, for: bindings.count).map { bindings[$0] }
      }
      bindings.append(binding)
      switch binding.role {
      case .perform:
        list.add(
          binding.identifier.text, parsed: binding.identifier, .binding, binding: binding,
          shadowedBy: shadowedBy, shownAs: shownAs)
      case .moveFocus:
        list.add(
          binding.identifier.text, parsed: binding.identifier, .focusMove, binding: binding,
          shadowedBy: shadowedBy, shownAs: shownAs)
      case .activateItem:
        // In effect only at an item, whose identifier it performs.
        guard let item = start.actionItemIdentifier else { return }
        list.add(item, parsed: nil, .binding, binding: binding, shadowedBy: shadowedBy, shownAs: shownAs)
      case .block:
        // A block offers nothing; it hides what it takes precedence over.
        return
      }
    }
    // While a modal scope holds the focus, what it makes inert is not reachable: left out.
    let top = root
    var reach = ModalReach(from: self, top: top)
    // With keymaps, the bindings are taken after the walk, in the keymaps' order.
    let hasKeymaps = top.treeKeys != nil
    walkAncestors { node in
      defer { reach.passed(node) }
      guard node.hasAttachments else { return false }
      if reach.admitsItems, let item = node[attachment: ActionItemAttachment.self]?.identifier {
        let found = list.add(item, parsed: nil, .item, node: node)
        if subtree != nil { pathItems[ObjectIdentifier(node)] = found }
      }
      guard !hasKeymaps else { return false }
      let shown = node[attachment: KeysShownAsAttachment.self]
      node.withAttachment(KeyBindingsAttachment.self) { declared in
        list.reserveCapacity(declared.bindings.count)
        for binding in declared.bindings where appliesHere(binding.role) && reach.admits(binding) {
          add(KeyBinding(binding, on: node), shownAs: shown.isEmpty ? nil : shown[binding.keys])
        }
      }
      return false
    }
    if hasKeymaps {
      forEachBinding(top: top) { binding in
        let shown = binding.layer == .nodes ? binding.node?[attachment: KeysShownAsAttachment.self] : nil
        add(binding, shownAs: shown?[binding.keys])
        return false
      }
    } else if reach.admitsDefaults {
      top.tree?.firstDefaultKeyBinding { binding in
        if appliesHere(binding.role) { add(binding) }
        return false
      }
    }
    var itemRows: [(entry: Int, offer: Int)] = []
    for (item, identifier) in subtree?.items() ?? [] where !reach.isInert(item) {
      itemRows.append(
        pathItems[ObjectIdentifier(item)] ?? list.add(identifier, parsed: nil, .item, node: item))
    }
    if includingRegistered, let manager = nearestActionManager {
      let registered = manager.registeredIdentifiers
      list.reserveCapacity(registered.count)
      for identifier in registered { list.add(identifier, parsed: nil, .manager) }
    }
    return OfferedList(
      entries: list.validated(from: self, isDefault: isActionItem), itemRows: itemRows,
      offerCount: list.position, index: list.index)
  }

  /// The manager a perform from here would reach first.
  var nearestActionManager: ActionManager? {
    var manager: ActionManager?
    walkAncestors { ancestor in
      manager = ancestor.attachedActionManager
      return manager != nil
    }
    return manager
  }
}

/// The offers found so far, one gathered entry per identifier in the order each was first found.
private struct OfferGathering {
  struct Gathered {
    let identifier: String
    let parsed: ActionIdentifier?
    var offers: [ActionEntry.Offer]
  }

  var gathered: [Gathered] = []
  /// By the identifier without its prefix, which names no other action.
  var index: [String: Int] = [:]
  /// The next offer's position.
  var position = 0

  /// Makes room for `count` more entries, so that the index grows without rehashing every
  /// identifier each time it doubles.
  mutating func reserveCapacity(_ count: Int) {
    index.reserveGrowing(by: count)
  }

  /// Adds an offer of `identifier`; its entry's index, and its own there.
  @discardableResult
  mutating func add(
    _ identifier: String, parsed: ActionIdentifier?, _ source: ActionEntry.Offer.Source, node: Node? = nil,
    binding: KeyBinding? = nil, shadowedBy: KeyBinding? = nil, shownAs: String? = nil
  ) -> (entry: Int, offer: Int) {
    let offer = ActionEntry.Offer(
      source, node: binding?.node ?? node, binding: binding, shadowedBy: shadowedBy, shownAs: shownAs,
      position: position)
    position += 1
    let key = ActionIdentifier.unprefixed(identifier)
    if let found = index.existingValue(forKey: key, orInserting: gathered.count) {
      gathered[found].offers.append(offer)
      return (found, gathered[found].offers.count - 1)
    }
    gathered.append(Gathered(identifier: identifier, parsed: parsed, offers: [offer]))
    return (gathered.count - 1, 0)
  }

  /// The entries, each validated once from `start`; the first is the default when `isDefault`
  /// (the start is an item: its own item was found first).
  func validated(from start: Node, isDefault: Bool) -> [ActionEntry] {
    var route = ValidationRoute(from: start)
    return gathered.enumerated().map { position, entry in
      let first = entry.offers[0]
      let validation: Validation
      switch first.source {
      case .item:
        validation = route.validate(entry.identifier, sender: first.node)
      case .binding:
        validation = route.validate(entry.identifier, sender: first.binding)
      case .focusMove:
        if let binding = first.binding, case .moveFocus(let move) = binding.role {
          validation = Validation(title: "Focus \(move)")
        } else {
          validation = .unavailable
        }
      case .manager:
        validation = route.validate(entry.identifier, sender: nil)
      }
      let shown = entry.offers.first { $0.binding != nil && !$0.isShadowed }
      return ActionEntry(
        identifier: entry.identifier, parsedIdentifier: entry.parsed, validation: validation,
        offers: entry.offers,
        isDefault: isDefault && position == 0, keys: shown?.binding?.keys, keysShownAs: shown?.shownAs,
        node: first.node,
        shadowedBy: nil)
    }
  }
}

/// Validations of many identifiers from one node, each what `Node.validate(_:sender:)` from it
/// gives, at the cost of one walk: when the nearest manager is the only modifier on the path
/// that would see a validation request (see `Node.soleResponder(for:)`), the manager and the
/// providers of the nodes from the start up to it are gathered once, and each validation asks
/// the manager directly with them. Otherwise each is a request sent up the tree.
///
/// A validation runs user code (its action's `validate`, the providers), which may change the
/// tree: the gathering holds while its `PathStamp` is current, and is made again when it is not.
struct ValidationRoute {
  private let start: Node
  /// The answering manager and the providers on the way, nearest first; `nil` when each
  /// validation is a request.
  private var direct: (manager: ActionManager, providers: [NodeProviders], stamp: PathStamp)?
  /// One box naming a sender, reused from validation to validation while nothing else keeps it.
  private var box: SenderBox?

  init(from start: Node) {
    self.start = start
    gather()
  }

  private mutating func gather() {
    direct = nil
    guard let stamp = PathStamp(from: start),
      let responder = start.soleResponder(for: ValidationRequest.self),
      let manager = responder.attachedActionManager
    else { return }
    var providers: [NodeProviders] = []
    start.walkAncestors { node in
      if node.hasAttachments, let provided = node[attachment: ContextProviders.self] {
        providers.append(provided)
      }
      return node === responder
    }
    direct = (manager, providers, stamp)
  }

  /// The validation of `identifier` from the start with `sender`, the start when `nil`.
  mutating func validate(_ identifier: String, sender: Any?) -> Validation {
    // NB: `direct` is read where it is: a copy would retain the manager, the providers and the
    // stamp's path.
    if direct?.stamp.isCurrent == false { gather() }
    guard direct != nil else {
      guard let node = sender as? Node else { return start.validate(identifier, sender: sender) }
      return start.validate(identifier, sender: node, reusing: &box)
    }
    return direct!.manager.validateProviding(identifier, sender: sender ?? start) { context in
      for index in direct!.providers.indices { direct!.providers[index].callAll(context) }
    }
  }
}
