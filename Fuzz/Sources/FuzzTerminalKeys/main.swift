import TerminalKeys

// Any bytes must decode without trapping, and the inputs must not depend on how the reads split
// them: the first byte picks two cut points, and feeding the rest in three reads must give what
// feeding it at once gives.

/// libFuzzer's entry point: one input, decoded whole and in three reads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminalKeys(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: count - 1))
  var whole = TerminalKeyDecoder()
  let expected = whole.feed(bytes) + whole.flush()
  let first = bytes.isEmpty ? 0 : Int(data[0] & 0x0F) % (bytes.count + 1)
  let second = bytes.isEmpty ? 0 : first + Int(data[0] >> 4) % (bytes.count - first + 1)
  var split = TerminalKeyDecoder()
  let inputs =
    split.feed(bytes[..<first]) + split.feed(bytes[first..<second]) + split.feed(bytes[second...])
    + split.flush()
  precondition(inputs == expected, "a split at \(first), \(second) decoded differently")
  precondition(!split.isWaiting)
  return 0
}
