import ViewTreeActions

// Any bytes must parse as a chord or fail with an error inside the text; a chord's canonical
// spelling must parse back to the same chord. The same for the bytes as a sequence of chords.

/// libFuzzer's entry point: one input, parsed as a key chord.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyChordParser(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
  do {
    let chord = try KeyChord(parsing: text)
    let again = try KeyChord(parsing: chord.description)
    precondition(again == chord, "\(chord) does not round-trip (\(again))")
  } catch {
    precondition(error.offset >= 0 && error.offset <= text.utf8.count, "offset out of range: \(error.offset)")
    precondition(!error.description.isEmpty)
  }
  do {
    let sequence = try KeySequence(parsing: text)
    let again = try KeySequence(parsing: sequence.description)
    precondition(again == sequence && !sequence.chords.isEmpty, "\(sequence) does not round-trip (\(again))")
  } catch {
    precondition(error.offset >= 0 && error.offset <= text.utf8.count, "offset out of range: \(error.offset)")
    precondition(!error.description.isEmpty)
  }
  return 0
}
