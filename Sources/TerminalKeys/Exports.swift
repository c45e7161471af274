// What this module's API names comes with it: `TerminalInput` carries a `KeyChord`
// (ViewTreeActions) and a `PointerInput` (ViewTree).
@_exported import ViewTreeActions
