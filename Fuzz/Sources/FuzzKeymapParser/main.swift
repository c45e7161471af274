import ViewTreeActions

// Any bytes, read as a key predicate, a key context and a keymap file, must parse or fail with an
// error inside the text, never trap. What parses prints back to itself: a predicate's and a
// context's description parse to an equal value, and a keymap's description reads back to the
// same entries with no issue. A predicate matches a stack at one of its levels or none, and the
// same predicate read from its description matches at the same level. A keymap's certain conflicts
// hold in the context they give as an example.

/// Stacks to match predicates against, root first: names and values the inputs are likely to use.
private let stacks: [[KeyContext]] = [
  [],
  ["Workspace", "Pane", "Editor mode=insert", "Picker"],
  ["a", "b c", "a=b", "x y=z", "a", "b"],
  Array(repeating: "a b=c", count: 70) + ["Editor"],
].map { $0.map { try! KeyContext(parsing: $0) } }

/// libFuzzer's entry point: one input, read three ways.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeymapParser(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
  do {
    let predicate = try KeyPredicate(parsing: text)
    let again = try KeyPredicate(parsing: predicate.description)
    precondition(again == predicate, "\(predicate) does not round-trip (\(again))")
    for stack in stacks {
      let level = predicate.matchLevel(in: stack)
      precondition(level.map { stack.indices.contains($0) } ?? true, "level \(level!) out of the stack")
      precondition(again.matchLevel(in: stack) == level, "\(predicate) matches differently once printed")
    }
  } catch {
    precondition(error.offset >= 0 && error.offset <= text.utf8.count, "offset out of range: \(error.offset)")
    precondition(!error.description.isEmpty)
  }
  do {
    let context = try KeyContext(parsing: text)
    let again = try KeyContext(parsing: context.description)
    precondition(again == context, "\(context) does not round-trip (\(again))")
  } catch {
    precondition(error.offset >= 0 && error.offset <= text.utf8.count, "offset out of range: \(error.offset)")
  }
  let keymap = Keymap(parsing: text)
  // Lines end at LF, CRLF or a lone CR, as the reader counts them.
  let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count
  for issue in keymap.issues {
    precondition(
      issue.line >= 1 && issue.line <= lines && issue.column >= 1, "issue out of the text: \(issue)")
  }
  let reread = Keymap(parsing: keymap.description)
  precondition(reread.issues.isEmpty, "a printed keymap does not read back: \(reread.issues)")
  precondition(
    reread.entries.map(\.description) == keymap.entries.map(\.description)
      && reread.entries.map(\.predicate) == keymap.entries.map(\.predicate),
    "a keymap does not round-trip")
  // A certain conflict's example is a context in which both entries' predicates hold.
  for conflict in keymap.conflicts() where conflict.certainty == .certain {
    let example = conflict.example!
    for predicate in [conflict.first.predicate, conflict.second.predicate] {
      precondition(
        predicate.map { $0.matchLevel(in: [example]) == 0 } ?? true, "\(conflict): not in \(example)")
    }
  }
  return 0
}
