import Actions
import ViewTree

/// Where a key binding comes from, lowest first: a binding of a higher layer wins over one of a
/// lower layer that matches at the same depth (see ``Keymap``).
public enum KeymapLayer: Int, Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The tree's `NodeTree.defaultKeyBindings` (Tab, Shift-Tab, Enter).
  case treeDefaults
  /// Bindings declared on nodes with `bindKey(_:to:shownAs:passesModal:on:)`.
  case nodes
  /// The toolkit's keymap (`NodeTree.toolkitKeymap`).
  case toolkit
  /// The user's keymap (`NodeTree.userKeymap`).
  case user

  /// Orders layers lowest first.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `tree defaults`, `nodes`, `toolkit` or `user`.
  public var description: String {
    switch self {
    case .treeDefaults: "tree defaults"
    case .nodes: "nodes"
    case .toolkit: "toolkit"
    case .user: "user"
    }
  }
}

/// One line of a keymap: keys, where they apply, and what they do.
public struct KeymapEntry: Hashable, Sendable, CustomStringConvertible {
  /// What an entry does with its keys.
  public enum Effect: Hashable, Sendable {
    /// The keys perform the identifier (or move the focus, for `focus.Next` and the others).
    case perform(ActionIdentifier)
    /// The keys do nothing where the predicate matches and below, sequences they begin included
    /// (Zed's `null`): every binding of the keys that the block takes precedence over is hidden.
    case block
    /// The one binding of these keys to this identifier in a lower layer is filtered out, where
    /// the predicate holds (everywhere without one); resolution goes on past it, so the next
    /// binding of the keys, if any, takes them.
    case unbind(ActionIdentifier)
  }

  /// The keys: one chord, or a sequence of them.
  public var keys: KeySequence
  /// Where the entry applies; `nil` matches at the root, so any binding with a context can
  /// override it.
  public var predicate: KeyPredicate?
  /// What the keys do.
  public var effect: Effect
  /// Whether the binding resolves before every other, whatever its depth (a global quit), and
  /// also while a modal scope holds the focus.
  public var isPriority: Bool
  /// Where the entry was written, for reports: `user.keymap:12` for a line of a file.
  public var source: String
  /// Whether the binding takes the key's repeats as well as its press (the default); `false`
  /// (`press` in a keymap file) for the press alone, so that holding the key performs the action
  /// once. Only an entry that performs an action reads it. (A release is bound on a node:
  /// `bindKey(_:to:on:)` with `on: .release`.)
  public var repeats: Bool

  /// An entry of parsed parts.
  ///
  /// - Parameters:
  ///   - keys: The chord or sequence.
  ///   - effect: What the keys do.
  ///   - predicate: Where the entry applies (`nil`: at the root, so everywhere).
  ///   - isPriority: Whether it resolves before every other binding.
  ///   - source: Where it was written, for reports.
  ///   - repeats: Whether its binding takes the key's repeats as well as its press.
  public init(
    _ keys: KeySequence, _ effect: Effect, when predicate: KeyPredicate? = nil, isPriority: Bool = false,
    source: String = "", repeats: Bool = true
  ) {
    self.keys = keys
    self.effect = effect
    self.predicate = predicate
    self.isPriority = isPriority
    self.source = source
    self.repeats = repeats
  }

  /// The kinds of key event the entry's binding takes.
  var events: KeyEvent.Kinds {
    guard case .perform = effect, !repeats else { return .pressAndRepeat }
    return .press
  }

  /// The entry as a line of a keymap file (without its section): `ctrl+s = Save`,
  /// `alt+b = null`, `unbind ctrl+w = CloseTab`, `priority ctrl+q = Quit`, `press j = Down`.
  public var description: String {
    let head = (isPriority ? "priority " : "") + (events == .press ? "press " : "")
    switch effect {
    case .perform(let identifier): return "\(head)\(keys) = \(identifier.text)"
    case .block: return "\(head)\(keys) = null"
    case .unbind(let identifier): return "unbind \(keys) = \(identifier.text)"
    }
  }
}

extension KeymapEntry: Codable {
  private enum CodingKeys: String, CodingKey {
    case keys, context, action, unbind, priority, source, repeats
  }

  /// Decodes `{"keys": "ctrl+s", "context": "Editor", "action": "Save"}`; `"action": null` is a
  /// block, `"unbind": "CloseTab"` an unbind; `"priority"`, `"source"` and `"repeats"` (`false`
  /// for a binding that takes the press alone) are optional.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func parsed<T, Reason>(_ key: CodingKeys, _ parse: (String) throws(ParseError<Reason>) -> T) throws -> T {
      let text = try container.decode(String.self, forKey: key)
      do throws(ParseError<Reason>) {
        return try parse(text)
      } catch {
        throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(error)")
      }
    }
    keys = try parsed(.keys) { (text) throws(ParseError<InvalidKeyChord>) in try KeySequence(parsing: text) }
    predicate =
      try container.contains(.context) && !container.decodeNil(forKey: .context)
      ? parsed(.context) { (text) throws(ParseError<InvalidKeyPredicate>) in try KeyPredicate(parsing: text) }
      : nil
    let identifier: (CodingKeys) throws -> ActionIdentifier = { key in
      try parsed(key) { (text) throws(ParseError<InvalidIdentifier>) in try ActionIdentifier(parsing: text) }
    }
    if container.contains(.unbind) {
      effect = .unbind(try identifier(.unbind))
    } else if try container.decodeNil(forKey: .action) {
      effect = .block
    } else {
      effect = .perform(try identifier(.action))
    }
    isPriority = try container.decodeIfPresent(Bool.self, forKey: .priority) ?? false
    source = try container.decodeIfPresent(String.self, forKey: .source) ?? ""
    repeats = try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? true
    let performs = if case .perform = effect { true } else { false }
    if !repeats && !performs {
      throw DecodingError.dataCorruptedError(
        forKey: .repeats, in: container, debugDescription: "'repeats' is for an entry that performs an action"
      )
    }
  }

  /// Encodes the entry in the shape `init(from:)` reads.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(keys.description, forKey: .keys)
    try container.encodeIfPresent(predicate?.description, forKey: .context)
    switch effect {
    case .perform(let identifier): try container.encode(identifier.text, forKey: .action)
    case .block: try container.encodeNil(forKey: .action)
    case .unbind(let identifier): try container.encode(identifier.text, forKey: .unbind)
    }
    if isPriority { try container.encode(true, forKey: .priority) }
    if !source.isEmpty { try container.encode(source, forKey: .source) }
    if events == .press { try container.encode(false, forKey: .repeats) }
  }
}

/// A layer of key bindings with context predicates, blocks and unbinds: what a toolkit ships
/// (`NodeTree.toolkitKeymap`) and what a user writes (`NodeTree.userKeymap`),
/// on top of the bindings declared on nodes and the tree's defaults.
///
/// At a key press, every binding whose keys begin with the chord is a candidate, and they are
/// taken in this order (see <doc:Keymaps>):
/// 1. priority bindings first;
/// 2. then by *match depth*, deeper first: a node's own binding is at its node's depth, a keymap
///    binding at the depth of the deepest node whose context its predicate matches (the root's,
///    0, without a predicate), a tree default at the root;
/// 3. then by layer, higher first: user, toolkit, nodes, tree defaults;
/// 4. then by declaration, later first in a keymap (a node's and the defaults' in their order).
///
/// The first candidate in that order takes the keys, and hides every later one whose keys it
/// overlaps (one sequence begins with the other), as between nodes today. Unbinds filter before
/// the order is taken.
public struct Keymap: Sendable, CustomStringConvertible {
  /// The entries, in the order they were declared.
  public let entries: [KeymapEntry]
  /// The lines that could not be read, when the keymap was parsed from text (see
  /// ``init(parsing:source:)``).
  public let issues: [KeymapIssue]
  /// The entries as a key press reads them.
  let index: KeymapIndex
  /// Where each entry's identifier is written, when the keymap was read from text.
  let valuePlaces: [KeymapValuePlace]

  /// A keymap of the given entries.
  ///
  /// - Parameter entries: The entries, in the order they take effect (a later entry of a layer
  ///   wins a tie with an earlier one).
  /// - Complexity: O(*n*) in the number of entries.
  public init(_ entries: [KeymapEntry] = []) {
    self.entries = entries
    issues = []
    index = KeymapIndex(entries)
    valuePlaces = []
  }

  /// The keymap a text in the keymap file format describes (see <doc:Keymaps>), keeping every line
  /// that reads well and reporting each that does not in ``issues``.
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - source: The file's name, for each entry's ``KeymapEntry/source`` (`name:line`) and for
  ///     the issues.
  /// - Complexity: O(*n*) in the length of the text.
  public init(parsing text: String, source: String = "keymap") {
    var reader = KeymapReader(source: source)
    reader.read(text)
    entries = reader.entries
    issues = reader.issues
    index = KeymapIndex(entries)
    valuePlaces = reader.valuePlaces
  }

  /// The keymap in the file format: one section per predicate, in the order first used.
  public var description: String {
    var lines: [String] = []
    var section: KeyPredicate?
    for entry in entries {
      if entry.predicate != section {
        if !lines.isEmpty { lines.append("") }
        lines.append("[\(entry.predicate?.description ?? "")]")
        section = entry.predicate
      }
      lines.append(entry.description)
    }
    return lines.joined(separator: "\n")
  }
}

extension Keymap {
  /// The entries whose identifier names an action `manager` does not register, each reported as
  /// a ``KeymapIssue`` at the identifier (or, for a keymap not read from text, at its entry's
  /// source): what a toolkit shows beside ``issues`` once it knows its actions. The focus
  /// identifiers (`focus.Next` and the others) and `item.Activate` are known to every tree.
  ///
  /// An entry bound to an unknown action stays in the keymap: at a key press it is unavailable,
  /// and the key goes on to the next binding (see `Node.handleKey(_:)`).
  ///
  /// - Parameter manager: The manager whose registrations the identifiers should name.
  /// - Returns: One issue per entry whose action is unknown, in the order of the entries.
  public func unknownActions(in manager: ActionManager) -> [KeymapIssue] {
    var found: [KeymapIssue] = []
    for (position, entry) in entries.enumerated() {
      let identifier: ActionIdentifier
      switch entry.effect {
      case .perform(let bound), .unbind(let bound): identifier = bound
      case .block: continue
      }
      guard !index.roles[position].isBuiltIn, manager.action(named: identifier.name) == nil else { continue }
      let reason = "unknown action '\(identifier.name)': the manager registers no action by that name"
      if position < valuePlaces.count {
        let place = valuePlaces[position]
        let source = entry.source.split(separator: ":").dropLast().joined(separator: ":")
        found.append(
          KeymapIssue(
            source: source, line: place.line, column: place.column, text: place.text, reason: reason))
      } else {
        found.append(
          KeymapIssue(
            source: entry.source, line: position + 1, column: 1, text: entry.description, reason: reason))
      }
    }
    return found
  }
}

/// A keymap's entries as a key press reads them, made once: by first chord, and each entry's
/// parts in arrays of their own, read where they are kept. One object, so that a keymap is
/// copied with a single retain.
final class KeymapIndex: Sendable {
  /// The positions of the entries that bind keys (blocks included), by their first chord; later
  /// first.
  let byFirstChord: [KeyChord: [Int]]
  /// The positions of the unbinds, by their first chord.
  let unbinds: [KeyChord: [Int]]
  let keys: [KeySequence]
  let predicates: [KeyPredicate?]
  let priorities: [Bool]
  /// The kinds of key event each entry's binding takes.
  let events: [KeyEvent.Kinds]
  /// Each entry's identifier, `null` for a block.
  let identifiers: [ActionIdentifier]
  /// What a key press does with each entry's identifier.
  let roles: [KeyBinding.Role]

  init(_ entries: [KeymapEntry]) {
    keys = entries.map(\.keys)
    predicates = entries.map(\.predicate)
    priorities = entries.map(\.isPriority)
    events = entries.map(\.events)
    let identifiers = entries.map { entry in
      switch entry.effect {
      case .perform(let identifier), .unbind(let identifier): identifier
      case .block: blockIdentifier
      }
    }
    self.identifiers = identifiers
    roles = zip(entries, identifiers).map { entry, identifier in
      if case .block = entry.effect { return .block }
      return KeyBinding.Role(identifier)
    }
    var byFirstChord: [KeyChord: [Int]] = [:]
    var unbinds: [KeyChord: [Int]] = [:]
    for (position, entry) in entries.enumerated().reversed() {
      guard let first = entry.keys.chords.first else { continue }
      if case .unbind = entry.effect {
        unbinds[first, default: []].append(position)
      } else {
        byFirstChord[first, default: []].append(position)
      }
    }
    self.byFirstChord = byFirstChord
    self.unbinds = unbinds
  }
}

/// A line of a keymap file that could not be read: where, and why.
public struct KeymapIssue: Hashable, Sendable, CustomStringConvertible {
  /// The file's name, as given to ``Keymap/init(parsing:source:)``.
  public let source: String
  /// The line, from 1.
  public let line: Int
  /// The column of the offending character, from 1, in characters.
  public let column: Int
  /// The line's text.
  public let text: String
  /// What went wrong.
  public let reason: String

  /// `user.keymap:3:7: invalid key chord: ...`, then the line and a caret under the column.
  public var description: String {
    "\(source):\(line):\(column): \(reason)\n  \(text)\n  \(String(repeating: " ", count: column - 1))^"
  }
}

/// What key bindings keep for a tree once it has a keymap, in the slot its engine holds for them
/// (`Node.keyBindingsSlot` of its root).
final class TreeKeys {
  let toolkit: Keymap?
  let user: Keymap?
  /// A key press's context levels and predicate sets, taken out and put back by each press, so
  /// that a press allocates nothing once they have grown. (They hold distances and context terms,
  /// no node.)
  var scratch = ContextLevels()

  /// The keymaps' indexes, which a key press reads: reading a `Keymap` from here would copy it,
  /// retaining each of its arrays.
  let toolkitIndex: KeymapIndex?
  let userIndex: KeymapIndex?

  init(toolkit: Keymap?, user: Keymap?) {
    self.toolkit = toolkit
    self.user = user
    toolkitIndex = toolkit?.index
    userIndex = user?.index
  }

  /// The index of the keymap of `layer`, if it is one a tree keeps.
  func index(_ layer: KeymapLayer) -> KeymapIndex? {
    switch layer {
    case .toolkit: toolkitIndex
    case .user: userIndex
    case .treeDefaults, .nodes: nil
    }
  }

  /// The keymap of `layer`, if it is one a tree keeps.
  func keymap(_ layer: KeymapLayer) -> Keymap? {
    switch layer {
    case .toolkit: toolkit
    case .user: user
    case .treeDefaults, .nodes: nil
    }
  }
}

extension NodeTree {
  /// The toolkit's keymap: bindings above those declared on nodes, below the user's (see
  /// ``Keymap`` for the order). Set it again to replace it; the footer, which-key, the palette,
  /// menus and the offered list read it at once. A pending key sequence is cancelled when it
  /// changes.
  public var toolkitKeymap: Keymap? {
    get { root.treeKeys?.toolkit }
    set { setKeymaps(toolkit: newValue, user: userKeymap) }
  }

  /// The user's keymap, the highest layer (see ``Keymap`` for the order): load a user's file
  /// with ``Keymap/init(parsing:source:)`` and show its ``Keymap/issues``.
  ///
  /// ```swift
  /// let keymap = Keymap(parsing: text, source: "user.keymap")
  /// for issue in keymap.issues { print(issue) }
  /// tree.userKeymap = keymap
  /// ```
  public var userKeymap: Keymap? {
    get { root.treeKeys?.user }
    set { setKeymaps(toolkit: toolkitKeymap, user: newValue) }
  }

  private func setKeymaps(toolkit: Keymap?, user: Keymap?) {
    root.keyBindingsSlot = toolkit == nil && user == nil ? nil : TreeKeys(toolkit: toolkit, user: user)
    cancelPendingKeys()
  }
}
