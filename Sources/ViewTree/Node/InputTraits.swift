/// What a node declared about focus (``ModifierHost/focusable(_:order:focusOnPress:)``,
/// ``ModifierHost/focusScope(_:defaultFocus:ordered:autofocus:repair:)``,
/// ``ModifierHost/descendantsFocusable(_:)``).
///
/// One value, kept in a field of the node's extras rather than in its list of attachments, so
/// that a walk (Tab, a direction move, a press) reads one field per node; plain data, so that
/// reading it copies bytes and counts no references. The attachment key is how a declaration
/// names it; a node's `settingAttachment` and `removeAttachment` for the key write the field.
@usableFromInline
struct InputTraits {
  var isFocusable = false
  var scope: FocusScopeKind?
  var ordered = false
  var autofocus = false
  var descendantsFocusable = true
  var focusOnPress = true
  var order = 0
  var repair = FocusRepair.ancestor
}

@usableFromInline
enum InputTraitsKey: NodeAttachmentKey {
  @usableFromInline static var defaultValue: InputTraits? { nil }
}

/// What a node declared about where it is (``ModifierHost/frame(_:zIndex:hitBehavior:)``): kept
/// in a field of the node's extras rather than in its list of attachments, as hit testing reads
/// it for every sibling it tries. The attachment key is how a declaration names it; a node's
/// `settingAttachment` and `removeAttachment` for the key write the field.
@usableFromInline
struct NodeGeometry: Equatable {
  var frame: NodeFrame?
  var zIndex = 0
  var hitBehavior = HitBehavior.opaque
}

@usableFromInline
enum NodeGeometryKey: NodeAttachmentKey {
  @usableFromInline static var defaultValue: NodeGeometry? { nil }
}
