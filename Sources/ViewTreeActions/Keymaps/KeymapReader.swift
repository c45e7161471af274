import Actions

/// Reads the keymap file format (see <doc:Keymaps>) line by line, keeping the entries of the
/// lines that read well and an issue for each that does not.
struct KeymapReader {
  let source: String
  private(set) var entries: [KeymapEntry] = []
  /// Where each entry's identifier (or `null`) is written: its line, column and the line's text.
  private(set) var valuePlaces: [KeymapValuePlace] = []
  private(set) var issues: [KeymapIssue] = []
  /// The predicate of the section being read.
  private var section: KeyPredicate?
  /// The line of the section header that did not parse, while its lines are read.
  private var brokenSection: Int?

  init(source: String) { self.source = source }

  mutating func read(_ text: String) {
    var number = 0
    // Lines end at LF, CRLF or a lone CR: a file saved on Windows or by an old Mac editor reads
    // as the same lines. (CRLF is one `Character`, so splitting at "\n" alone would miss it.)
    for line in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    {
      number += 1
      read(line: String(line), number: number)
    }
  }

  private mutating func read(line: String, number: Int) {
    let bytes = Array(line.utf8)
    var start = 0
    while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
      start += 1
    }
    guard start < bytes.count, bytes[start] != UInt8(ascii: "#") else { return }
    if bytes[start] == UInt8(ascii: "[") {
      readSection(line: line, bytes: bytes, start: start, number: number)
      return
    }
    if let broken = brokenSection {
      report(line, number, at: start, "in the section of line \(broken), which did not parse: not read")
      return
    }
    readEntry(line: line, bytes: bytes, start: start, number: number)
  }

  private mutating func readSection(line: String, bytes: [UInt8], start: Int, number: Int) {
    var end = commentStart(in: bytes, from: start)
    while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") {
      end -= 1
    }
    guard bytes[end - 1] == UInt8(ascii: "]"), end - 1 > start else {
      brokenSection = number
      report(line, number, at: end, "expected ']' at the end of the section header")
      return
    }
    let inner = String(decoding: bytes[(start + 1)..<(end - 1)], as: UTF8.self)
    if inner.allSatisfy({ $0 == " " || $0 == "\t" }) {
      section = nil
      brokenSection = nil
      return
    }
    do throws(ParseError<InvalidKeyPredicate>) {
      section = try KeyPredicate(parsing: inner)
      brokenSection = nil
    } catch {
      brokenSection = number
      report(line, number, at: start + 1 + error.offset, "invalid key predicate: \(error.reason.message)")
    }
  }

  private mutating func readEntry(line: String, bytes: [UInt8], start: Int, number: Int) {
    var position = start
    // `priority`, `press` and `unbind` are words before the keys (no key has one of these names).
    func take(_ word: String) -> Bool {
      guard bytes[position...].starts(with: word.utf8) else { return false }
      position += word.utf8.count
      while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
      return true
    }
    let isPriority = take("priority ")
    let pressOnly = take("press ")
    let isUnbind = take("unbind ")
    // The keys and what they do are split at a ` = `; keys may hold the chord `=` (`ctrl+k =`),
    // so the split is the first after which both read. A value never holds ` = ` outside its
    // arguments, so when both read at two splits, the first is the only one a writer meant.
    var firstFailure: (offset: Int, reason: String)?
    for separator in separators(in: bytes, from: position) {
      switch split(bytes, keysFrom: position, at: separator, isUnbind: isUnbind) {
      case .success(let (keys, effect, valueStart)):
        if keys.chords.dropFirst().contains(KeyChord(.escape)) {
          report(
            line, number, at: position, "'\(keys)' can never complete: Escape cancels a pending key sequence")
          return
        }
        if isPriority && isUnbind {
          report(line, number, at: start, "an unbind cannot be a priority binding")
          return
        }
        let performs = if case .perform = effect { true } else { false }
        if pressOnly && !performs {
          report(
            line, number, at: start,
            "'press' is for a binding that performs an action, not a block or an unbind")
          return
        }
        entries.append(
          KeymapEntry(
            keys, effect, when: section, isPriority: isPriority, source: "\(source):\(number)",
            repeats: !pressOnly))
        valuePlaces.append(
          KeymapValuePlace(line: number, column: column(of: valueStart, in: line), text: line))
        return
      case .failure(let failure):
        if firstFailure == nil { firstFailure = (failure.offset, failure.reason) }
      }
    }
    let failure = firstFailure ?? (bytes.count, "expected ' = ' between the keys and what they do")
    report(line, number, at: failure.offset, failure.reason)
  }

  /// Why one split of a line does not read: where, and the reason.
  private struct SplitFailure: Error {
    let offset: Int
    let reason: String
  }

  /// The keys before `separator` (from `keysStart`) and what the value after it does.
  private func split(_ bytes: [UInt8], keysFrom keysStart: Int, at separator: Int, isUnbind: Bool)
    -> Result<(KeySequence, KeymapEntry.Effect, valueStart: Int), SplitFailure>
  {
    let keysEnd = trimmedEnd(bytes, keysStart, separator)
    let keys: KeySequence
    do throws(ParseError<InvalidKeyChord>) {
      keys = try KeySequence(parsing: String(decoding: bytes[keysStart..<keysEnd], as: UTF8.self))
    } catch {
      return .failure(
        SplitFailure(offset: keysStart + error.offset, reason: "invalid key chord: \(error.reason.message)"))
    }
    var valueStart = separator + 1
    while valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
    let valueEnd = trimmedEnd(bytes, valueStart, commentStart(in: bytes, from: valueStart))
    let value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
    if value == "null" {
      guard !isUnbind else {
        return .failure(
          SplitFailure(offset: valueStart, reason: "an unbind names the identifier it removes, not null"))
      }
      return .success((keys, .block, valueStart))
    }
    do throws(ParseError<InvalidIdentifier>) {
      let identifier = try ActionIdentifier(parsing: value)
      return .success((keys, isUnbind ? .unbind(identifier) : .perform(identifier), valueStart))
    } catch {
      let reason =
        value.isEmpty ? "expected an identifier or null" : "invalid identifier: \(error.reason.message)"
      return .failure(SplitFailure(offset: valueStart + error.offset, reason: reason))
    }
  }

  /// Where keys and value may be split: each `=` with a space before it and a space (or the end)
  /// after it, in order.
  private func separators(in bytes: [UInt8], from start: Int) -> [Int] {
    var found: [Int] = []
    var index = start + 1
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "="), bytes[index - 1] == UInt8(ascii: " "),
        index + 1 == bytes.count || bytes[index + 1] == UInt8(ascii: " ")
      {
        found.append(index)
      }
      index += 1
    }
    return found
  }

  /// Where a comment after the text from `start` begins: the first `#` with a space or a tab
  /// before it, outside a quoted string; the end of the line when there is none. (Keys are read
  /// before the value, so a key `#` is never taken for one: `shift+3 = Hash` and `g # = Jump`
  /// read as written.)
  private func commentStart(in bytes: [UInt8], from start: Int) -> Int {
    var index = start
    var isQuoted = false
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""): isQuoted.toggle()
      case UInt8(ascii: "\\") where isQuoted: index += 1
      case UInt8(ascii: "#")
      where !isQuoted && index > start
        && (bytes[index - 1] == UInt8(ascii: " ") || bytes[index - 1] == UInt8(ascii: "\t")):
        return index
      default: break
      }
      index += 1
    }
    return bytes.count
  }

  private func trimmedEnd(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
    var end = end
    while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") {
      end -= 1
    }
    return end
  }

  /// Reports `reason` at the UTF-8 `offset` of `line`.
  private mutating func report(_ line: String, _ number: Int, at offset: Int, _ reason: String) {
    issues.append(
      KeymapIssue(
        source: source, line: number, column: column(of: offset, in: line), text: line, reason: reason))
  }

  /// The column, in characters from 1, of the UTF-8 `offset` of `line`.
  private func column(of offset: Int, in line: String) -> Int {
    String(decoding: line.utf8.prefix(offset), as: UTF8.self).count + 1
  }
}

/// Where a keymap entry's identifier is written in its file, for a report about it.
struct KeymapValuePlace: Sendable {
  let line: Int
  let column: Int
  let text: String
}
