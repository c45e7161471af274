import Actions
import ViewTree

// Names this module had, kept so that code using them gets a fix-it instead of "has no member".
// Each is listed in the CHANGELOG. They are grouped by type.

extension NodeTree {
  /// Removed: perform from ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.perform(_:sender:tracing:)")
  @discardableResult
  public func perform(_ identifier: String, sender: Any? = nil, tracing trace: ActionTrace? = nil)
    -> TreePerformResult
  {
    fatalError()
  }

  /// Removed: validate from ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.validate(_:sender:)")
  public func validate(_ identifier: String, sender: Any? = nil) -> Validation { fatalError() }

  /// Removed: resolve from ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.resolveKey(_:)")
  public func resolveKey(_ chord: KeyChord) -> KeyResolution { fatalError() }

  /// Removed: handle the key at ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.handleKey(_:)")
  @discardableResult
  public func handleKey(_ chord: KeyChord) -> KeyPressResult { fatalError() }

  /// Removed: parse the chord with `KeyChord(parsing:)`, then handle it at
  /// ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, message: "use firstResponder.handleKey(try KeyChord(parsing: text))")
  @discardableResult
  public func handleKey(_ chord: String) throws -> KeyPressResult { fatalError() }

  /// Removed: list them at ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.bindingsInEffect(includingShadowed:)")
  public func bindingsInEffect(includingShadowed: Bool = true) -> [ActionEntry] { fatalError() }
}

extension TreePerformResult {
  /// Removed: ``performResult`` is `Sendable`, and ``manager`` gives the node's path.
  @available(*, unavailable, message: "return performResult (Sendable) and manager?.path from the Task")
  public var summary: Never { fatalError() }
}

/// Removed: items, bindings in effect and palette entries are one type.
@available(*, unavailable, renamed: "ActionEntry")
public typealias ItemValidation = ActionEntry

/// Removed: items, bindings in effect and palette entries are one type.
@available(*, unavailable, renamed: "ActionEntry")
public typealias BindingInEffect = ActionEntry

extension CommandPalette {
  /// Removed: items, bindings in effect and palette entries are one type.
  @available(*, unavailable, renamed: "ActionEntry")
  public typealias Entry = ActionEntry
}

extension TreePerformResult {
  /// Renamed: "manager" names an `ActionManager` everywhere else.
  @available(*, unavailable, renamed: "managerNode")
  public var manager: Node? { fatalError() }
}

extension KeyPressResult {
  /// Renamed: the chord resolved to a binding; whether its action ran is the result's to say.
  @available(*, unavailable, renamed: "resolved")
  public static func handled(_ binding: KeyBinding, _ result: TreePerformResult) -> KeyPressResult {
    fatalError()
  }
}

extension KeyBinding {
  /// Renamed: a binding's keys are a chord or a sequence of chords.
  @available(*, unavailable, renamed: "keys")
  public var chord: KeySequence { fatalError() }
}

extension ActionEntry {
  /// Renamed: a binding's keys are a chord or a sequence of chords.
  @available(*, unavailable, renamed: "keys")
  public var chord: KeySequence? { fatalError() }

  /// Renamed: a binding's keys are a chord or a sequence of chords.
  @available(*, unavailable, renamed: "init(identifier:validation:keys:node:shadowedBy:)")
  public init(
    identifier: String, validation: Validation, chord: KeySequence?, node: Node? = nil,
    shadowedBy: KeyBinding? = nil
  ) { fatalError() }
}

extension ModifierHost {
  /// Removed: a chord is a sequence of one.
  @available(*, unavailable, message: "bind [chord], a KeySequence of one chord")
  public consuming func bindKey(_ chord: KeyChord, to identifier: String) -> Self { fatalError() }
}
