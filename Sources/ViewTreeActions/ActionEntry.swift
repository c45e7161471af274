import Actions
import ViewTree

/// An action as a node offers it (see `NodeTree.offeredActions(at:itemsIn:includingRegistered:)`):
/// its identifier, how it should look there now, every way it reaches the user, and the keys that
/// reach it.
///
/// The list of what a node offers has one entry per action. Its views show the same entries:
/// - `NodeTree.validateItems(in:)` gives one per item node (``node`` is the item);
/// - `Node.bindingsInEffect(includingShadowed:)` gives one per key binding (``keys``, and
///   ``node`` declares it), with the nearer binding that hides it, if any;
/// - ``CommandPalette`` gives one per action, with the keys in effect for it;
/// - `PendingKeys.validatedContinuations()` gives one per binding a pending sequence can complete.
///
/// A view that shows one row per item or binding sets ``keys``, ``node`` and ``shadowedBy`` to
/// that item or binding; everything else is the list's entry.
public struct ActionEntry: CustomStringConvertible {
  /// The identifier, as `perform` takes it.
  public let identifier: String
  /// Its validation from the node the entries were listed from, once per action (with its nearest
  /// item or binding as sender): title, summary, enabled, visible, state.
  public let validation: Validation
  /// The keys shown for it (a chord or a sequence): the nearest binding in effect, if any.
  public let keys: KeySequence?
  /// The nearest item or node that binds its keys; `nil` when only a manager offers it.
  public let node: Node?
  /// The nearer binding that hides ``keys`` (the same keys, or keys that begin or are begun by
  /// them), if any.
  public let shadowedBy: KeyBinding?
  /// The identifier parsed (its name and arguments); `nil` when the text does not parse, as an
  /// item's identifier may not (it is checked when performed).
  public var actionIdentifier: ActionIdentifier? {
    parsedIdentifier ?? (try? ActionIdentifier(parsing: identifier))
  }
  /// The identifier as a binding parsed it; `nil` where it is parsed when asked (an item's, a
  /// registration's).
  let parsedIdentifier: ActionIdentifier?
  /// Every way the action reaches the user from the node, nearest first: its items, the bindings
  /// of keys to it (those a nearer binding hides marked), the manager that registers it. Empty
  /// for an entry made with ``init(identifier:validation:keys:node:shadowedBy:)``.
  public let offers: [Offer]
  /// Whether it is the node's default: what activating the node (Enter at an item, a click on a
  /// button) performs. It comes first in the list.
  public let isDefault: Bool
  /// How ``keys`` are shown, when their binding says.
  let keysShownAs: String?

  /// Creates an entry, for palettes of other sources (see ``CommandPalette/init(entries:)``).
  ///
  /// - Parameters:
  ///   - identifier: The identifier to perform.
  ///   - validation: Its validation.
  ///   - keys: The keys bound to it, if any.
  ///   - node: The item node or the node that binds the keys, if any.
  ///   - shadowedBy: The nearer binding that hides this one, if any.
  public init(
    identifier: String, validation: Validation, keys: KeySequence? = nil, node: Node? = nil,
    shadowedBy: KeyBinding? = nil
  ) {
    self.init(
      identifier: identifier, parsedIdentifier: nil, validation: validation, offers: [], isDefault: false,
      keys: keys, keysShownAs: nil, node: node,
      shadowedBy: shadowedBy)
  }

  init(
    identifier: String, parsedIdentifier: ActionIdentifier?, validation: Validation, offers: [Offer],
    isDefault: Bool, keys: KeySequence?, keysShownAs: String?, node: Node?, shadowedBy: KeyBinding?
  ) {
    self.identifier = identifier
    self.parsedIdentifier = parsedIdentifier
    self.validation = validation
    self.offers = offers
    self.isDefault = isDefault
    self.keys = keys
    self.keysShownAs = keysShownAs
    self.node = node
    self.shadowedBy = shadowedBy
  }

  /// The text shown and matched: the validation's title, or the identifier.
  public var title: String { validation.title ?? identifier }

  /// One sentence saying what the action does, if its validation or its action gives one.
  public var summary: String? { validation.summary }

  /// The keys that reach the action, written for their reader:
  /// - ``KeyNotation/display``: ``keys``, as `bindKey(_:to:shownAs:passesModal:on:)` said to show them if it did;
  /// - ``KeyNotation/aria``: every chord in effect for it, space-separated (`Control+S F2`), as
  ///   `aria-keyshortcuts` takes them; sequences have no ARIA form and are left out;
  /// - ``KeyNotation/atspi``: AT-SPI's `GetKeyBinding`, `"mnemonic;sequence;shortcut"`: no
  ///   mnemonic, the nearest sequence in effect as its "sequence", the nearest chord in effect as
  ///   its "shortcut" (`;<Control>k:<Control>s;<Control>s`).
  ///
  /// - Parameter notation: Who reads them.
  /// - Returns: The text; `nil` when no key in effect reaches it in that notation.
  public func formattedKeys(_ notation: KeyNotation) -> String? {
    switch notation {
    case .display:
      return keysShownAs ?? keys?.formatted(.display)
    case .aria:
      var written: [String] = []
      for keys in keysInEffect {
        if let text = keys.formatted(.aria), !written.contains(text) { written.append(text) }
      }
      return written.isEmpty ? nil : written.joined(separator: " ")
    case .atspi:
      let inEffect = keysInEffect
      let sequence = inEffect.first { $0.chords.count > 1 }
      let shortcut = inEffect.first { $0.chords.count == 1 }
      guard sequence != nil || shortcut != nil else { return nil }
      return ";" + (sequence?.formatted(.atspi) ?? "") + ";" + (shortcut?.formatted(.atspi) ?? "")
    }
  }

  /// The keys of the bindings in effect for it, nearest first; ``keys`` alone when it has no
  /// offers (an entry made for a palette).
  private var keysInEffect: [KeySequence] {
    guard !offers.isEmpty else { return keys.map { [$0] } ?? [] }
    return offers.compactMap { $0.isShadowed ? nil : $0.binding?.keys }
  }

  /// `ctrl+k ctrl+s  Save All`, with `(shadowed by editor)` and `(disabled)` when so.
  public var description: String {
    var text = formattedKeys(.display).map { "\($0)  " } ?? ""
    text += title
    if let by = shadowedBy?.node { text += " (shadowed by \(by.label))" }
    if !validation.isEnabled { text += " (disabled)" }
    return text
  }

  /// This entry as a view's row about one of its offers: its keys, node and shadowing binding.
  /// An item's row keeps the entry's keys: the shortcut a menu shows beside it.
  func row(for offer: Offer) -> ActionEntry {
    ActionEntry(
      identifier: identifier, parsedIdentifier: parsedIdentifier, validation: validation, offers: offers,
      isDefault: isDefault, keys: offer.binding == nil ? keys : offer.binding?.keys,
      keysShownAs: offer.binding == nil ? keysShownAs : offer.shownAs, node: offer.node,
      shadowedBy: offer.shadowedBy)
  }
}

extension ActionEntry {
  /// One way an action reaches the user from a node.
  public struct Offer {
    /// What offers the action.
    public enum Source: Hashable, Sendable {
      /// An item (see `ModifierHost.actionItem(_:)`): a button, a menu entry.
      case item
      /// A key binding to its identifier, or Enter's binding to `item.Activate` at an item.
      case binding
      /// A key binding that moves the focus (`focus.Next` and the others).
      case focusMove
      /// The manager that would perform it registers it.
      case manager
    }

    /// What offers the action.
    public let source: Source
    /// The item, or the node that declares the binding (the root for a default); `nil` for a
    /// manager.
    public let node: Node?
    /// The binding, for ``Source/binding`` and ``Source/focusMove``.
    public let binding: KeyBinding?
    /// The nearer binding that hides this one's keys, if any.
    public let shadowedBy: KeyBinding?
    /// How the binding's node said to show its keys (`bindKey(_:to:shownAs:passesModal:on:)`), if it did.
    public let shownAs: String?
    /// Where the offer was found, counted across every entry of the list.
    let position: Int

    init(
      _ source: Source, node: Node?, binding: KeyBinding? = nil, shadowedBy: KeyBinding? = nil,
      shownAs: String? = nil, position: Int
    ) {
      self.source = source
      self.node = node
      self.binding = binding
      self.shadowedBy = shadowedBy
      self.shownAs = shownAs
      self.position = position
    }

    /// Whether a nearer binding hides this one's keys.
    public var isShadowed: Bool { shadowedBy != nil }
  }
}
