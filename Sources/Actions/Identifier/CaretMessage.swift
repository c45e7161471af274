/// A message followed by the text it is about and a caret under one column:
///
/// ```
/// invalid identifier: expected ':' after the key 'a' (offset 7)
///   Save(a 1)
///          ^
/// ```
///
/// Shared, within the package, by the parse errors of Actions, ViewTreeActions and
/// ViewTreeTesting.
package func caretMessage(_ message: String, text: String, column: Int) -> String {
  "\(message)\n  \(text)\n  \(String(repeating: " ", count: max(0, column)))^"
}

/// The column (in characters) at which the UTF-8 offset `offset` of `text` falls.
package func column(ofUTF8Offset offset: Int, in text: String) -> Int {
  String(decoding: text.utf8.prefix(offset), as: UTF8.self).count
}
