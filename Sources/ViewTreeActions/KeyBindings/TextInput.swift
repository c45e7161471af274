import Actions
import ViewTree

/// Text typed, committed by an input method, or pasted into a text owner (see
/// `ModifierHost.takesText()`): triggered from the owner, it bubbles like any action,
/// so the owner (or a node above it) handles it with `handleAction(InsertText.self)`, a trace
/// records it, and a test can expect it.
///
/// ```swift
/// Node("name").focusable().takesText()
///   .handleAction(InsertText.self) { insert in name += insert.text }
/// ```
public struct InsertText: Action, Hashable, Sendable, CustomStringConvertible {
  /// The text.
  public var text: String
  /// Whether the text was pasted (bracketed paste), rather than typed or composed: it was never
  /// matched against key bindings.
  public var isPaste: Bool

  /// Creates the action.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - isPaste: Whether it was pasted.
  public init(_ text: String, isPaste: Bool = false) {
    self.text = text
    self.isPaste = isPaste
  }

  /// `insert "a"`, or `paste "…"`: the text quoted and escaped as a Swift string literal, so that
  /// a pasted line break or control character cannot break the line it is printed on.
  public var description: String { "\(isPaste ? "paste" : "insert") \(text.debugDescription)" }
}

/// Whether a node takes text (declared with `takesText()`).
enum TextOwnerAttachment: NodeAttachmentKey {
  static var defaultValue: Bool { false }
}

/// What a text owner reports while it runs: its caret and the text an input method composes;
/// and, on any node, whether the tree's key sequence is pending there (see
/// `Node.isPendingHere`), kept here because text arriving at a node reads both. Kept apart from
/// the declaration, which a re-declaration would reset.
struct TextOwnerState {
  var caret: NodeFrame?
  var preedit = ""
  var isKeySequencePending = false
}

enum TextOwnerStateAttachment: NodeAttachmentKey {
  static var defaultValue: TextOwnerState { TextOwnerState() }
}

extension ModifierHost {
  /// Declares that this node takes text: with it focused, a key press resolves in this order
  /// (see `Node.handleKey(_:)`):
  /// 1. priority bindings (a keymap's `priority` entries);
  /// 2. this node's own bindings (and keymap bindings matched at this node);
  /// 3. a key that types text (a character or space with no ctrl, alt or meta) triggers
  ///    ``InsertText`` from this node;
  /// 4. the ancestors' bindings.
  ///
  /// So a list's `j` binding does not take the `j` typed into a rename box inside it, while the
  /// box's own `j k` (leave insert mode) and the window's `ctrl+s` still work. While an input
  /// method composes (see `Node.updateComposition(_:)`), no key event reaches a binding.
  ///
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func takesText() -> Self { settingAttachment(TextOwnerAttachment.self, to: true) }
}

extension Node {
  /// Whether this node takes text (see ``ViewTree/ModifierHost/takesText()``).
  public var takesText: Bool { hasAttachments && hasAttachment(TextOwnerAttachment.self) }

  /// Where this text owner's caret is, in the coordinates of the frames the tree's nodes declare
  /// (see `NodeTree.textCaret`): what an input method places its window beside. The owner sets
  /// it when the caret moves; `nil` (the default) when it has not said, and always on a node that
  /// does not take text (a caret set there is kept for when it does).
  public var textCaret: NodeFrame? {
    get { takesText ? self[attachment: TextOwnerStateAttachment.self].caret : nil }
    set { self[attachment: TextOwnerStateAttachment.self].caret = newValue }
  }

  /// The text an input method is composing in this text owner (its preedit), empty when none
  /// is: while it is not empty, key events reach no binding (see ``updateComposition(_:)``).
  public var composition: String { takesText ? self[attachment: TextOwnerStateAttachment.self].preedit : "" }

  /// Whether an input method is composing at this node, known to be a text owner: its state is
  /// looked up only if it has one.
  var isComposing: Bool {
    hasAttachment(TextOwnerStateAttachment.self)
      && !self[attachment: TextOwnerStateAttachment.self].preedit.isEmpty
  }

  /// Tells this text owner what an input method is composing (its preedit): a toolkit calls it
  /// as its input method reports the preedit, and ``insertText(_:isPaste:)`` with what the input
  /// method commits. A composition that starts ends the key sequence pending in the tree first: at
  /// this node by the rule of ``KeySequenceCancellation/text`` (a prefix that is text is typed,
  /// any other is cancelled), elsewhere cancelled; while the preedit is not empty, key events do nothing
  /// (``KeyPressResult/composing(_:)``): the input method has them.
  ///
  /// On a node that does not take text, the preedit is kept but gates nothing, and
  /// ``composition`` stays empty, until the node takes text.
  ///
  /// - Parameter preedit: The text being composed; empty when the composition ends.
  /// - Returns: The key sequence the composition's start ended, if any.
  @discardableResult
  public func updateComposition(_ preedit: String) -> PendingKeys? {
    let starts = takesText && composition.isEmpty && !preedit.isEmpty
    var ended: PendingKeys?
    if starts {
      // Pending here, settled; pending elsewhere (the focus moved), cancelled.
      if let settled = settlePendingKeysForText() {
        if case .cancelled(let pending, _, _) = settled { ended = pending }
      } else {
        ended = root.tree?.cancelPendingKeys()
      }
    }
    self[attachment: TextOwnerStateAttachment.self].preedit = preedit
    return ended
  }

  /// Inserts text into this node: ends a composition, then triggers ``InsertText`` from here,
  /// never matched against key bindings. What a toolkit calls with an input method's commit or a
  /// paste (`TerminalInput.paste`), and what a key that types text becomes at a text owner.
  ///
  /// Keys and text arrive in order: a key sequence pending at this node ends first
  /// (``KeySequenceCancellation/text``), its prefix typed here if it is text and this node takes
  /// text (`j`, then a paste of `zz`, types `jzz`), else cancelled.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - isPaste: Whether it was pasted.
  /// - Returns: What happened to the action.
  @discardableResult
  public func insertText(_ text: String, isPaste: Bool = false) -> ActionOutcome {
    // One look at the node's text state: what is composed, and whether keys are pending here.
    if hasAttachments,
      let (composing, pending) = withAttachment(
        TextOwnerStateAttachment.self,
        {
          (!$0.preedit.isEmpty, $0.isKeySequencePending)
        })
    {
      if composing, takesText { self[attachment: TextOwnerStateAttachment.self].preedit = "" }
      if pending { settlePendingKeysForText() }
    }
    return trigger(InsertText(text, isPaste: isPaste))
  }
}

extension NodeTree {
  /// The caret of the focused node, when it takes text and has said where its caret is (see
  /// `Node.textCaret`): where a toolkit places its input method's window, and a terminal its
  /// cursor.
  public var textCaret: NodeFrame? { firstResponder.textCaret }
}

/// The identifier a text owner's typing shows as, where it hides a binding (see
/// `ActionEntry.shadowedBy`): it names the action the key becomes, ``InsertText``.
// Known to parse.
let typingIdentifier = try! ActionIdentifier(parsing: "InsertText")

extension KeyBinding {
  /// What a text owner does with a key that types text, as a binding it hides shows it: `chord`
  /// to `InsertText`, on the owner.
  init(typing chord: KeyChord, at owner: Node) {
    // Known to be valid: one chord, a press and its repeats.
    self.init(try! KeyBinding(KeySequence([chord]), to: typingIdentifier.text), on: owner)
  }
}

extension KeyChord {
  /// The text this chord types, typed at a text owner: a character or space with no ctrl, alt
  /// or meta, with shift applied (the event's text or shifted key when it reports one); `nil`
  /// for any other chord, and for a shifted character whose shifted form is not known: `shift+1`
  /// types `!` on one layout and `+` on another, so with no text or shifted key reported it
  /// types nothing rather than the wrong character (a letter's capital is known).
  func typedText(in event: KeyEvent?) -> String? {
    guard modifiers.intersection([.control, .alt, .meta]).isEmpty else { return nil }
    switch key {
    case .space: return event?.text ?? " "
    case .character(let character):
      if let text = event?.text { return text }
      guard modifiers.contains(.shift) else { return String(character) }
      if case .character(let shifted)? = event?.shiftedKey { return String(shifted) }
      let capital = String(character).uppercased()
      return capital == String(character) ? nil : capital
    default: return nil
    }
  }
}
