/// What a node declared about focus (``ModifierHost/focusable(_:order:focusOnPress:)``,
/// ``ModifierHost/focusScope(_:defaultFocus:ordered:autofocus:repair:)``,
/// ``ModifierHost/descendantsFocusable(_:)``).
///
/// One value, kept in a field of the node's extras (focus's slot) rather than in its list of
/// attachments, so that a walk (Tab, a direction move, a press) reads one field per node; plain
/// data, so that reading it copies bytes and counts no references. `InputTraitsKey`, a field key,
/// is how a declaration names it.
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
