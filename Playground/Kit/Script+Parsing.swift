import ViewTreeActions

/// Parses a script of key chords separated by commas or spaces, such as `"tab, del, ctrl+z"`.
///
/// - Parameter script: The keys.
/// - Returns: The chords.
/// - Throws: `KeyChordParseError` for a malformed chord.
public func parseScript(_ script: String) throws(KeyChordParseError) -> [KeyChord] {
  var chords: [KeyChord] = []
  for part in script.split(whereSeparator: { $0 == "," || $0 == " " }) {
    chords.append(try KeyChord(parsing: String(part)))
  }
  return chords
}
