import Actions
import ViewTree

// Names this module had, kept so that code using them gets a fix-it instead of "has no member".
// Each is listed in the CHANGELOG. They sit in extensions marked `public` so that a member needs
// no modifier of its own.

public extension NodeTree {
  /// Removed: perform from ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.perform(_:sender:tracing:)")
  @discardableResult
  func perform(_ identifier: String, sender: Any? = nil, tracing trace: ActionTrace? = nil) -> TreePerformResult {
    fatalError()
  }

  /// Removed: validate from ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.validate(_:sender:)")
  func validate(_ identifier: String, sender: Any? = nil) -> Validation { fatalError() }

  /// Removed: resolve from ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.resolveKey(_:)")
  func resolveKey(_ chord: KeyChord) -> KeyBinding? { fatalError() }

  /// Removed: handle the key at ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.handleKey(_:)")
  @discardableResult
  func handleKey(_ chord: KeyChord) -> KeyPressResult { fatalError() }

  /// Removed: parse the chord with `KeyChord(parsing:)`, then handle it at
  /// ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, message: "use firstResponder.handleKey(try KeyChord(parsing: text))")
  @discardableResult
  func handleKey(_ chord: String) throws -> KeyPressResult { fatalError() }

  /// Removed: list them at ``ViewTree/NodeTree/firstResponder``.
  @available(*, unavailable, renamed: "firstResponder.bindingsInEffect(includingShadowed:)")
  func bindingsInEffect(includingShadowed: Bool = true) -> [BindingInEffect] { fatalError() }
}
