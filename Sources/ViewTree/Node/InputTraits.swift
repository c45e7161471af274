/// What a node declared about input: focus (``ModifierHost/focusable(_:order:focusOnPress:)``,
/// ``ModifierHost/focusScope(_:defaultFocus:ordered:autofocus:)``,
/// ``ModifierHost/descendantsFocusable(_:)``) and the pointer (``ModifierHost/frame(_:zIndex:hitBehavior:)``).
///
/// One attachment, so that a walk (Tab, a direction move, a hit test) reads one value per node;
/// plain data, so that reading it copies bytes and counts no references. The fields are ordered so
/// that the one-byte ones fill the frame's padding.
struct InputTraits {
  var frame: NodeFrame?
  var isFocusable = false
  var scope: FocusScopeKind?
  var ordered = false
  var autofocus = false
  var descendantsFocusable = true
  var focusOnPress = true
  var hitBehavior = HitBehavior.opaque
  var order = 0
  var zIndex = 0
}

enum InputTraitsKey: NodeAttachmentKey {
  static var defaultValue: InputTraits? { nil }
}
