/// A message followed by an excerpt of the text it is about and a caret under one column:
///
/// ```
/// invalid identifier: expected ':' after the key 'a' (offset 7)
///   Save(a 1)
///          ^
/// ```
///
/// The excerpt is bounded: at most `caretContext` characters on each side of the caret, with `…`
/// where the text was cut, so a megabyte of input makes a message of a few lines. Control
/// characters are shown escaped (`\n`, `\u{0}`), so the message prints on one line and the caret
/// stays under its character.
func caretMessage(_ message: String, text: String, column: Int) -> String {
  let characters = Array(text)
  let caret = min(max(0, column), characters.count)
  let start = max(0, caret - caretContext)
  let end = min(characters.count, caret + caretContext)
  var excerpt = start > 0 ? "…" : ""
  var caretColumn = excerpt.count
  for index in start..<end {
    let shown = displayed(characters[index])
    if index < caret { caretColumn += shown.count }
    excerpt += shown
  }
  if end < characters.count { excerpt += "…" }
  return "\(message)\n  \(excerpt)\n  \(String(repeating: " ", count: caretColumn))^"
}

/// How many characters of the text a caret message shows on each side of the caret.
let caretContext = 40

/// A piece of input as a message quotes it: at most `caretContext` characters, with `…` where it
/// was cut, and control characters escaped.
package func quoted(_ text: some StringProtocol) -> String {
  var result = ""
  var count = 0
  for character in text {
    if count == caretContext { return result + "…" }
    result += displayed(character)
    count += 1
  }
  return result
}

/// A character as a caret message shows it: control characters escaped.
private func displayed(_ character: Character) -> String {
  guard character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
    return String(character)
  }
  return character.unicodeScalars.map { scalar in
    switch scalar {
    case "\n": "\\n"
    case "\r": "\\r"
    case "\t": "\\t"
    default:
      scalar.properties.generalCategory == .control
        ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
    }
  }.joined()
}

/// The column (in characters) at which the UTF-8 offset `offset` of `text` falls.
func column(ofUTF8Offset offset: Int, in text: String) -> Int {
  String(decoding: text.utf8.prefix(offset), as: UTF8.self).count
}
