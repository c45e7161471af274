import TerminalKeys

/// A megabyte of what a terminal sends, and the decoder it is fed to in reads of 4 KiB, as a
/// program's read loop feeds it: sequences that a read cuts in two are held until the next.
package final class TerminalBytesState {
  package let reads: [[UInt8]]
  var decoder = TerminalKeyDecoder()

  /// SGR mouse reports of a pointer moving with no button down (`ESC [ < 35 ; x ; y M`) over an
  /// 80-by-24 screen, about 11 bytes each.
  package static func mouseMotion() -> TerminalBytesState {
    var bytes: [UInt8] = []
    var index = 0
    while bytes.count < 1 << 20 {
      bytes += Array("\u{1B}[<35;\(1 + index % 80);\(1 + index / 80 % 24)M".utf8)
      index += 1
    }
    return TerminalBytesState(bytes)
  }

  /// The four arrow keys in turn (`ESC [ A` to `ESC [ D`), 3 bytes each.
  package static func arrows() -> TerminalBytesState {
    var bytes: [UInt8] = []
    var index = 0
    while bytes.count < 1 << 20 {
      bytes += [0x1B, 0x5B, 0x41 + UInt8(index % 4)]
      index += 1
    }
    return TerminalBytesState(bytes)
  }

  /// Kitty key events with event types: a letter pressed, repeated and released in turn, with
  /// ctrl on every other one (`ESC [ 97 ; 5 : 2 u`), 8 to 11 bytes each.
  package static func kittyEvents() -> TerminalBytesState {
    var bytes: [UInt8] = []
    var index = 0
    while bytes.count < 1 << 20 {
      let letter = 97 + index % 26
      let modifiers = index % 2 == 0 ? 1 : 5
      bytes += Array("\u{1B}[\(letter);\(modifiers):\(1 + index % 3)u".utf8)
      index += 1
    }
    return TerminalBytesState(bytes)
  }

  init(_ bytes: [UInt8]) {
    reads = stride(from: 0, to: bytes.count, by: 4096).map { Array(bytes[$0..<min($0 + 4096, bytes.count)]) }
  }

  /// Decodes every read; returns how many inputs they made.
  package func decodeAll() -> Int {
    var count = 0
    for read in reads { count += decoder.feed(read).count }
    return count
  }
}
