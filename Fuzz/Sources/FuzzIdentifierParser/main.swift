import Actions

// Any bytes, decoded as UTF-8 with replacement characters, must parse or fail with an error that
// points inside the text; a parse must be deterministic and agree with the manager's cache.

/// libFuzzer's entry point: one input, parsed as an identifier.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdentifierParser(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
  let manager = ActionManager()
  do {
    let identifier = try ActionIdentifier(parsing: text)
    precondition(
      !identifier.name.isEmpty, "an identifier parsed with an empty name: \(text.debugDescription)")
    let again = try ActionIdentifier(parsing: text)
    precondition(
      again == identifier && again.arguments == identifier.arguments, "parsing is not deterministic")
    let cached = try manager.identifier(parsing: text)
    precondition(cached == identifier && cached.arguments == identifier.arguments, "the cache disagrees")
    precondition(Set(identifier.arguments.map(\.key)).count == identifier.arguments.count, "duplicate keys")
  } catch {
    precondition(error.offset >= 0 && error.offset <= text.utf8.count, "offset out of range: \(error.offset)")
    precondition(!error.description.isEmpty)
  }
  _ = manager.perform(text)
  _ = manager.validate(text)
  return 0
}
