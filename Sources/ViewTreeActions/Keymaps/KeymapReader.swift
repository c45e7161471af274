import Actions

/// Reads the keymap file format (see <doc:Keymaps>) line by line, keeping the entries of the
/// lines that read well and an issue for each that does not.
struct KeymapReader {
  let source: String
  private(set) var entries: [KeymapEntry] = []
  private(set) var issues: [KeymapIssue] = []
  /// The predicate of the section being read.
  private var section: KeyPredicate?
  /// The line of the section header that did not parse, while its lines are read.
  private var brokenSection: Int?

  init(source: String) { self.source = source }

  mutating func read(_ text: String) {
    var number = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      let line = rawLine.last == "\r" ? rawLine.dropLast() : rawLine[...]
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
    var end = bytes.count
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
    var isPriority = false
    var isUnbind = false
    // `priority` and `unbind` are words before the keys; a key named so would be written with a
    // modifier or quoted by the chord grammar, so the words are read first.
    for (word, flag) in [("priority ", 0), ("unbind ", 1)] where hasPrefix(bytes, word, at: position) {
      if flag == 0 { isPriority = true } else { isUnbind = true }
      position += word.utf8.count
      while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
    }
    guard let separator = self.separator(in: bytes, from: position) else {
      report(line, number, at: bytes.count, "expected ' = ' between the keys and what they do")
      return
    }
    let keysEnd = trimmedEnd(bytes, position, separator)
    let keys: KeySequence
    do throws(ParseError<InvalidKeyChord>) {
      keys = try KeySequence(parsing: String(decoding: bytes[position..<keysEnd], as: UTF8.self))
    } catch {
      report(line, number, at: position + error.offset, "invalid key chord: \(error.reason.message)")
      return
    }
    var valueStart = separator + 1
    while valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
    let valueEnd = trimmedEnd(bytes, valueStart, bytes.count)
    let value = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
    if keys.chords.dropFirst().contains(KeyChord(.escape)) {
      report(
        line, number, at: position, "'\(keys)' can never complete: Escape cancels a pending key sequence")
      return
    }
    let effect: KeymapEntry.Effect
    if value == "null" {
      if isUnbind {
        report(line, number, at: valueStart, "an unbind names the identifier it removes, not null")
        return
      }
      effect = .block
    } else {
      do throws(ParseError<InvalidIdentifier>) {
        let identifier = try ActionIdentifier(parsing: value)
        effect = isUnbind ? .unbind(identifier) : .perform(identifier)
      } catch {
        let reason =
          value.isEmpty ? "expected an identifier or null" : "invalid identifier: \(error.reason.message)"
        report(line, number, at: valueStart + error.offset, reason)
        return
      }
    }
    if isPriority && isUnbind {
      report(line, number, at: start, "an unbind cannot be a priority binding")
      return
    }
    entries.append(
      KeymapEntry(keys, effect, when: section, isPriority: isPriority, source: "\(source):\(number)"))
  }

  /// The `=` between keys and value: the first with a space before it and a space (or the end)
  /// after it, so that `ctrl+= = ZoomIn` binds the chord `ctrl+=`.
  private func separator(in bytes: [UInt8], from start: Int) -> Int? {
    var index = start + 1
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "="), bytes[index - 1] == UInt8(ascii: " "),
        index + 1 == bytes.count || bytes[index + 1] == UInt8(ascii: " ")
      {
        return index
      }
      index += 1
    }
    return nil
  }

  private func hasPrefix(_ bytes: [UInt8], _ word: String, at position: Int) -> Bool {
    let word = Array(word.utf8)
    return bytes.count >= position + word.count && Array(bytes[position..<(position + word.count)]) == word
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
    let column = String(decoding: line.utf8.prefix(offset), as: UTF8.self).count + 1
    issues.append(KeymapIssue(source: source, line: number, column: column, text: line, reason: reason))
  }
}
