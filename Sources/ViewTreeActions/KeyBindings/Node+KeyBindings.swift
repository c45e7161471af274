import Actions
import ViewTree

/// A node's key bindings, in the order they were declared.
enum KeyBindingsAttachment: NodeAttachmentKey {
  static var defaultValue: KeyBindingList { KeyBindingList() }
}

/// A node's key bindings that take a press or a repeat, in the order they were declared, with
/// their keys recorded so that a new binding finds the one it overlaps in O(*s*), in the length
/// of its keys, however many the node has. Changed where it is kept (`updatingAttachment`),
/// declaring *b* bindings on a node, or on a declaration in one chain of modifiers, is O(*b*) in
/// all.
struct KeyBindingList {
  /// The bindings, in the order they were declared: what every key press and every list of
  /// bindings reads.
  private(set) var bindings: [KeyBinding] = []
  /// Each binding's keys, with its position in `bindings`.
  private var keys = OverlapIndex<Int>()

  /// Appends `binding`, unless its keys overlap a binding's (one begins with the other): then
  /// returns that binding and changes nothing.
  mutating func append(_ binding: KeyBinding) -> KeyBinding? {
    // Keys are never empty (a binding refuses them when made), so `claim` records them.
    if let position = keys.claim(binding.keys, for: bindings.count) { return bindings[position] }
    bindings.append(binding)
    return nil
  }
}

/// A node's key bindings that take a release (each of one chord), in the order they were
/// declared: kept apart from the others, which a release never reads and which never read
/// these, so that a key press pays nothing for them.
enum ReleaseBindingsAttachment: NodeAttachmentKey {
  static var defaultValue: [KeyBinding] { [] }
}

/// How a node's bindings show their keys, where `bindKey(_:to:shownAs:passesModal:on:)` said: kept beside the
/// bindings, not in them, so that a key press copies no text it does not show.
enum KeysShownAsAttachment: NodeAttachmentKey {
  static var defaultValue: [KeySequence: String] { [:] }
}

/// Keys bound to an identifier: what `bindKey(_:to:)` declares and a node keeps
/// (`Node.keyBindings`), what a tree falls back to (`NodeTree.defaultKeyBindings`), what a key
/// press resolves to, what a pending
/// sequence can complete, and the sender of the identifier a key press performs.
///
/// A binding found in effect from a node (by `Node.resolveKey(_:)`, a key press, or
/// `Node.bindingsInEffect(includingShadowed:)`) says which node declares it; in the list a node or
/// a tree keeps, ``node`` is `nil`.
///
/// ```swift
/// tree.defaultKeyBindings.append(try KeyBinding("ctrl+n", to: "focus.Next"))
/// ```
public struct KeyBinding: CustomStringConvertible {
  /// The keys: one chord, or a sequence of them.
  public let keys: KeySequence
  /// The identifier the keys perform, parsed when the binding was made.
  public let identifier: ActionIdentifier
  /// The node that declares the binding (the root for one of the tree's defaults), when the
  /// binding was found in effect from a node; `nil` in the list a node or a tree keeps.
  public let node: Node?
  /// Whether it is one of the tree's default bindings (`NodeTree.defaultKeyBindings`) rather than
  /// a node's own or a keymap's: its ``layer`` is ``KeymapLayer/treeDefaults``.
  public var isDefault: Bool { layer == .treeDefaults }
  /// Whether it resolves while a modal scope that its node is outside of holds the focus (a
  /// global quit): a binding outside the modal resolves only if it says so (see
  /// `Node.isInert`).
  public var passesModal: Bool { flags.contains(.passesModal) }
  /// The layer the binding comes from: ``KeymapLayer/nodes`` for a node's own,
  /// ``KeymapLayer/treeDefaults`` for a default, or the keymap it was found in (see
  /// `NodeTree.explainKey(_:at:)` for the keymap line).
  public let layer: KeymapLayer
  /// The kinds of key event the binding takes: a press and its repeats unless it says otherwise
  /// (see ``KeyEvent/Kind``).
  public var events: KeyEvent.Kinds { KeyEvent.Kinds(rawValue: flags.rawValue & Flags.events.rawValue) }
  /// The kinds of event (in ``KeyEvent/Kinds``' bits) and whether it passes a modal scope, in
  /// one byte: a key press copies every binding it looks at.
  private let flags: Flags

  /// A binding's kinds of event and ``passesModal``.
  private struct Flags: OptionSet {
    let rawValue: UInt8
    /// The bits of ``KeyEvent/Kinds``.
    static let events = Flags(rawValue: 0x0F)
    static let passesModal = Flags(rawValue: 0x10)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(passesModal: Bool, events: KeyEvent.Kinds) {
      rawValue = events.rawValue & Self.events.rawValue | (passesModal ? Self.passesModal.rawValue : 0)
    }
  }
  /// What a key press does with the identifier, told once when the binding is made.
  let role: Role

  /// What a key press does with a binding's identifier.
  enum Role: Sendable {
    /// Performs it.
    case perform
    /// Moves the focus (`focus.Next` and the others).
    case moveFocus(FocusMove)
    /// Performs the identifier of the action item the key is pressed at (`item.Activate`).
    case activateItem
    /// Does nothing: a keymap's block (`null`), which hides the bindings it takes precedence over.
    case block

    /// Whether the tree itself does what it says (a focus move, an item's activation), with no
    /// action registered.
    var isBuiltIn: Bool {
      switch self {
      case .moveFocus, .activateItem: true
      case .perform, .block: false
      }
    }

    /// Whether it is a block.
    var isBlock: Bool {
      guard case .block = self else { return false }
      return true
    }

    /// Whether it moves the focus.
    var isFocusMove: Bool {
      guard case .moveFocus = self else { return false }
      return true
    }

    init(_ identifier: ActionIdentifier) {
      if let move = FocusMove(identifier: identifier.text) {
        self = .moveFocus(move)
      } else {
        self = identifier.text == itemActivation ? .activateItem : .perform
      }
    }
  }

  /// Binds keys to an identifier, checking both as `bindKey(_:to:)` does on its own.
  ///
  /// - Parameters:
  ///   - keys: The chord or sequence; a ``KeyChord`` is a sequence of one
  ///     (`KeyBinding([KeyChord(.tab)], to: "Indent")`).
  ///   - identifier: The identifier to perform.
  ///   - passesModal: Whether the binding resolves from inside a modal scope its node is outside
  ///     of (see ``passesModal``).
  ///   - events: The kinds of key event it takes: a press and its repeats by default; `.press`
  ///     alone for an action that must not repeat while the key is held, `.release` for one that
  ///     fires when the key comes up (one chord only).
  /// - Throws: ``ViewTreeActionsError/invalidChord(_:)`` for no keys,
  ///   ``ViewTreeActionsError/escapeInSequence(_:)`` for Escape after the first key (it cancels a
  ///   pending sequence, so the binding could never complete),
  ///   ``ViewTreeActionsError/invalidKeyEvents(_:_:)`` for no kinds of event, or releases of a
  ///   sequence, and ``ViewTreeActionsError/invalidIdentifier(_:)`` for an identifier that does
  ///   not parse.
  public init(
    _ keys: KeySequence, to identifier: String, passesModal: Bool = false,
    on events: KeyEvent.Kinds = .pressAndRepeat
  ) throws(ViewTreeActionsError) {
    guard !keys.chords.isEmpty else {
      throw .invalidChord(ParseError(text: "", offset: 0, reason: InvalidKeyChord.empty))
    }
    if keys.chords.dropFirst().contains(KeyChord(.escape)) { throw .escapeInSequence(keys) }
    if events.intersection([.press, .repeat, .release]).isEmpty
      || (events.contains(.release) && keys.chords.count > 1)
    {
      throw .invalidKeyEvents(keys, events)
    }
    do throws(ParseError<InvalidIdentifier>) {
      self.identifier = try ActionIdentifier(parsing: identifier)
    } catch {
      throw .invalidIdentifier(error)
    }
    self.keys = keys
    node = nil
    flags = Flags(passesModal: passesModal, events: events)
    layer = .nodes
    role = Role(self.identifier)
  }

  /// Binds keys written as text (`"ctrl+s"`, `"ctrl+k ctrl+s"`) to an identifier.
  ///
  /// - Parameters:
  ///   - keys: The chord (see ``KeyChord``), or chords separated by spaces (see ``KeySequence``).
  ///   - identifier: The identifier to perform.
  ///   - passesModal: Whether the binding resolves from inside a modal scope its node is outside
  ///     of (see ``passesModal``).
  ///   - events: The kinds of key event it takes: a press and its repeats by default.
  /// - Throws: ``ViewTreeActionsError/invalidChord(_:)`` for keys that do not parse, and the
  ///   errors of ``init(_:to:passesModal:on:)-(KeySequence,_,_,_)``.
  public init(
    _ keys: String, to identifier: String, passesModal: Bool = false,
    on events: KeyEvent.Kinds = .pressAndRepeat
  ) throws(ViewTreeActionsError) {
    let sequence: KeySequence
    do throws(ParseError<InvalidKeyChord>) {
      sequence = try KeySequence(parsing: keys)
    } catch {
      throw .invalidChord(error)
    }
    try self.init(sequence, to: identifier, passesModal: passesModal, on: events)
  }

  /// This binding as found in effect: declared by `node` (the root for a default).
  init(_ binding: KeyBinding, on node: Node?, isDefault: Bool = false) {
    keys = binding.keys
    identifier = binding.identifier
    role = binding.role
    flags = binding.flags
    layer = isDefault ? .treeDefaults : binding.layer
    self.node = node
  }

  /// The keymap entry at `position` of `index`, a keymap of `layer` (a block included), as found
  /// in effect at `node`: the deepest node whose context its predicate matches (the root without
  /// one). Made from what the index keeps of the entry.
  init(_ position: Int, of index: KeymapIndex, in layer: KeymapLayer, on node: Node) {
    keys = index.keys[position]
    identifier = index.identifiers[position]
    role = index.roles[position]
    self.node = node
    flags = Flags(passesModal: index.priorities[position], events: index.events[position])
    self.layer = layer
  }

  /// Whether both bind the same keys to the same identifier, wherever they were found.
  func binds(_ other: KeyBinding) -> Bool { keys == other.keys && identifier == other.identifier }

  /// `ctrl+k ctrl+s -> SaveAll (on window/editor)`; without the node in a node's own list.
  public var description: String {
    "\(keys) -> \(identifier)" + (node.map { " (on \($0.path))" } ?? "")
  }
}

extension ModifierHost {
  /// Binds a key chord, or a sequence of chords, to an identifier on this node. A key press is
  /// resolved from the focused node upward; the nearest binding wins.
  ///
  /// ```swift
  /// Node("editor")
  ///   .bindKey("ctrl+s", to: "Save")
  ///   .bindKey("ctrl+k ctrl+s", to: "SaveAll")
  ///   .bindKey("g g", to: "GoToTop")
  /// ```
  ///
  /// It never throws, so that it fits a declaration in a `body`: keys that do not parse
  /// (``ViewTreeActionsError/invalidChord(_:)``), an identifier that does not parse
  /// (``ViewTreeActionsError/invalidIdentifier(_:)``), keys that this node already binds
  /// or that begin (or are the beginning of) a sequence it binds
  /// (``ViewTreeActionsError/keysConflict(keys:node:bound:identifier:)``), and a sequence with
  /// Escape after its first key, which cancels a pending sequence
  /// (``ViewTreeActionsError/escapeInSequence(_:)``), are not bound, and are reported instead
  /// (see ``ViewTree/ModifierHost/reporting(_:)``).
  ///
  /// - Parameters:
  ///   - keys: The chord, such as `"ctrl+s"` (see ``KeyChord``), or chords separated by spaces,
  ///     such as `"ctrl+k ctrl+s"` (see ``KeySequence``).
  ///   - identifier: The identifier to perform.
  ///   - shownAs: How a footer, a menu or a palette shows the keys, if not in
  ///     ``KeyNotation/display`` (`"⌘S"`); see `ActionEntry.formattedKeys(_:)`.
  ///   - passesModal: Whether the binding resolves while a modal scope this node is outside of
  ///     holds the focus (a global quit on the window): every other binding outside the modal
  ///     scope is inert until it closes (see `Node.isInert`).
  ///   - events: The kinds of key event it takes: a press and its repeats by default; `.press`
  ///     alone for an action that must not repeat while the key is held, `.release` (one chord
  ///     only) for one that fires when the key comes up, such as the end of push-to-talk. A
  ///     release binding overlaps only another release binding: `space` may be bound to one
  ///     identifier on press and another on release on the same node.
  /// - Returns: This node or declaration, for chaining.
  /// - Complexity: O(*s*) amortized, in the number of chords, however many bindings the node
  ///   has, on a node and in a chain of modifiers; a binding that takes releases, O(*r*) more, in
  ///   the release bindings the node has. A declaration kept in a variable and bound in a
  ///   loop (`declaration = declaration.bindKey(...)`) is copied with its bindings on each call:
  ///   write `declaration = (consume declaration).bindKey(...)` there.
  @discardableResult
  public consuming func bindKey(
    _ keys: String, to identifier: String, shownAs: String? = nil, passesModal: Bool = false,
    on events: KeyEvent.Kinds = .pressAndRepeat
  ) -> Self {
    do throws(ViewTreeActionsError) {
      return appending(
        try KeyBinding(keys, to: identifier, passesModal: passesModal, on: events), shownAs: shownAs)
    } catch {
      return reporting(error)
    }
  }

  /// Binds parsed keys to an identifier on this node (see
  /// ``bindKey(_:to:shownAs:passesModal:on:)-(String,_,_,_,_)``).
  ///
  /// - Parameters:
  ///   - keys: The chord or sequence; a ``KeyChord`` is a sequence of one
  ///     (`bindKey([KeyChord(.tab)], to: "Indent")`).
  ///   - identifier: The identifier to perform.
  ///   - shownAs: How to show the keys, if not in ``KeyNotation/display``.
  ///   - passesModal: Whether the binding resolves while a modal scope this node is outside of
  ///     holds the focus.
  ///   - events: The kinds of key event it takes: a press and its repeats by default.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func bindKey(
    _ keys: KeySequence, to identifier: String, shownAs: String? = nil, passesModal: Bool = false,
    on events: KeyEvent.Kinds = .pressAndRepeat
  ) -> Self {
    do throws(ViewTreeActionsError) {
      return appending(
        try KeyBinding(keys, to: identifier, passesModal: passesModal, on: events), shownAs: shownAs)
    } catch {
      return reporting(error)
    }
  }

  /// Adds `binding` to this host's bindings, with how its keys are shown if `shownAs` says, or
  /// reports the binding of theirs it overlaps.
  private consuming func appending(_ binding: KeyBinding, shownAs: String?) -> Self {
    // Changed where they are kept: a copy per binding would make declaring b bindings O(b²).
    var existing: KeyBinding?
    var host = self
    let takesReleases = binding.events.includes(.release)
    if takesReleases {
      // Checked first, and recorded last, so that a refused binding changes nothing.
      let chord = binding.keys.chords[0]
      existing = host[attachment: ReleaseBindingsAttachment.self].first { $0.keys.chords[0] == chord }
    }
    if existing == nil, binding.events != .release {
      host = host.updatingAttachment(KeyBindingsAttachment.self) { existing = $0.append(binding) }
    }
    if existing == nil, takesReleases {
      host = host.updatingAttachment(ReleaseBindingsAttachment.self) { $0.append(binding) }
    }
    if let existing {
      let description = host.hostDescription
      return host.reporting(
        ViewTreeActionsError.keysConflict(
          keys: binding.keys, node: description, bound: existing.keys,
          identifier: existing.identifier.text))
    }
    guard let shownAs else { return host }
    return host.updatingAttachment(KeysShownAsAttachment.self) { $0[binding.keys] = shownAs }
  }
}

extension Node {
  /// The keys bound on this node, in the order they were declared, those that take only releases
  /// last (each binding's ``KeyBinding/node`` is `nil`: it is this node).
  public var keyBindings: [KeyBinding] {
    self[attachment: KeyBindingsAttachment.self].bindings
      + self[attachment: ReleaseBindingsAttachment.self].filter { $0.events == .release }
  }

  /// Removes every key binding of this node.
  public func removeKeyBindings() {
    removeAttachment(KeyBindingsAttachment.self)
    removeAttachment(ReleaseBindingsAttachment.self)
    removeAttachment(KeysShownAsAttachment.self)
  }
}

/// The default key bindings of a tree, kept on its root once set; `nil` until then, when the
/// standard ones apply.
enum DefaultKeyBindingsAttachment: NodeAttachmentKey {
  static var defaultValue: [KeyBinding]? { nil }
}

/// The standard defaults, as what a binding is made of (keys, parsed identifier, role): a binding
/// holds a node, which cannot be shared between threads.
private let standardKeyBindings: [(keys: KeySequence, identifier: ActionIdentifier, role: KeyBinding.Role)] =
  [
    (KeySequence([KeyChord(.tab)]), "focus.Next"),
    (KeySequence([KeyChord(.tab, modifiers: .shift)]), "focus.Previous"),
    (KeySequence([KeyChord(.enter)]), itemActivation),
  ].map { keys, text in
    // Known to parse.
    let identifier = try! ActionIdentifier(parsing: text)
    return (keys, identifier, KeyBinding.Role(identifier))
  }

extension KeyBinding {
  /// One of the standard defaults, as found in effect on `root`, or as a tree lists it (`nil`).
  fileprivate init(
    standard: (keys: KeySequence, identifier: ActionIdentifier, role: Role), on root: Node?
  ) {
    keys = standard.keys
    identifier = standard.identifier
    role = standard.role
    node = root
    flags = Flags(passesModal: false, events: .pressAndRepeat)
    layer = .treeDefaults
  }
}

/// The identifier a block (`null`) shows as: it performs nothing.
// Known to parse.
let blockIdentifier = try! ActionIdentifier(parsing: "null")

/// The identifier that activates the action item a key is pressed at: Enter's default binding.
let itemActivation = "item.Activate"

extension NodeTree {
  /// The bindings a key press falls back to, after every node's from the focus up; by default
  /// Tab to `focus.Next`, Shift-Tab to `focus.Previous` and Enter to `item.Activate`.
  ///
  /// A node's own binding of the same keys wins, and so does one that begins with them or that
  /// they begin (so an editor can bind Tab to insert a tab character); set this to change or
  /// remove the defaults for the whole tree. The identifiers `focus.Next`, `focus.Previous`,
  /// `focus.Left`, `focus.Right`, `focus.Up` and `focus.Down` move the focus (see
  /// ``KeyPressResult/movedFocus(_:_:)``); `item.Activate` performs the identifier of the action
  /// item the key is pressed at (see ``ViewTree/ModifierHost/actionItem(_:)``), with the item as
  /// sender, as ``activate(_:)`` does, and is in effect only at an item; any other is performed.
  /// Each default is checked when made, as a node's bindings are (see ``KeyBinding/init(_:to:passesModal:on:)-(String,_,_,_)``);
  /// unlike a node's, two defaults may overlap: the first hides the second.
  public var defaultKeyBindings: [KeyBinding] {
    get {
      root[attachment: DefaultKeyBindingsAttachment.self]
        ?? standardKeyBindings.map { KeyBinding(standard: $0, on: nil) }
    }
    // Kept without nodes: a binding found in effect names its node, which the root must not
    // hold (it may be the root itself).
    set {
      root[attachment: DefaultKeyBindingsAttachment.self] = newValue.map {
        $0.node == nil ? $0 : KeyBinding($0, on: nil)
      }
    }
  }

  /// Calls `body` with each default binding, as found in effect (on the root), until it returns
  /// `true`; the binding it stopped at, if any. The standard defaults are made as they are read,
  /// so that a key press that falls back to them allocates nothing.
  @discardableResult
  func firstDefaultKeyBinding(where body: (KeyBinding) -> Bool) -> KeyBinding? {
    let root = root
    if let bindings = root[attachment: DefaultKeyBindingsAttachment.self] {
      for binding in bindings {
        let found = KeyBinding(binding, on: root, isDefault: true)
        if body(found) { return found }
      }
      return nil
    }
    for standard in standardKeyBindings {
      let found = KeyBinding(standard: standard, on: root)
      if body(found) { return found }
    }
    return nil
  }
}

extension FocusMove {
  /// The move a focus identifier names, such as `focus.Next`.
  init?(identifier: String) {
    // Every identifier a key press performs or a footer validates comes here first: most are
    // told apart by their first byte, before any comparison of whole strings.
    guard identifier.utf8.first == UInt8(ascii: "f") else { return nil }
    switch identifier {
    case "focus.Next": self = .next
    case "focus.Previous": self = .previous
    case "focus.Left": self = .left
    case "focus.Right": self = .right
    case "focus.Up": self = .up
    case "focus.Down": self = .down
    default: return nil
    }
  }
}
