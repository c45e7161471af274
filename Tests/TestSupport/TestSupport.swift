import Foundation
import Testing

/// Checks that `README.md` shows, in a Swift code block that starts with `imports`, exactly the
/// code between `// <marker>:begin` and `// <marker>:end` in the calling test file, so that every
/// README example is compiled and run by a test.
///
/// - Parameters:
///   - marker: The marker's name, such as `readme-example`.
///   - imports: The import lines the block starts with.
///   - document: The document, relative to the package root.
///   - filePath: The calling test file (the default is right).
///   - sourceLocation: Where a failure is reported.
public func expectReadmeShows(
  marker: String, imports: [String], document: String = "README.md", filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let testFile = URL(fileURLWithPath: filePath)
  let packageRoot = testFile.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let readme = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
  let source = try String(contentsOf: testFile, encoding: .utf8)
  let start = try #require(source.range(of: "// \(marker):begin\n"), sourceLocation: sourceLocation)
  let end = try #require(
    source.range(of: "// \(marker):end", range: start.upperBound..<source.endIndex),
    sourceLocation: sourceLocation)
  let example = String(source[start.upperBound..<end.lowerBound])
  let block = "```swift\n" + imports.joined(separator: "\n") + "\n\n" + example + "```"
  #expect(
    readme.contains(block), "\(document) does not show the code between the \(marker) markers",
    sourceLocation: sourceLocation)
}

/// A small seeded random number generator, so random tests are reproducible.
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  /// A generator that always produces the same sequence for the same seed.
  public init(seed: UInt64) { state = seed }

  /// The next value.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension Trait where Self == ConditionTrait {
  /// Marks a stress case (a million-node tree, a long randomized loop): it runs only when the
  /// environment sets `STRESS=1`, as CI's optimized step does (`STRESS=1 swift test -c release`),
  /// so that the everyday `swift test` stays quick.
  public static var stress: Self {
    .enabled(
      if: ProcessInfo.processInfo.environment["STRESS"] == "1",
      "a stress case: STRESS=1 swift test -c release runs it")
  }
}

/// The package's root folder, found from this source file's path.
public func packageRoot(filePath: String = #filePath) -> URL {
  URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
}

/// The DocC articles of every module, relative to `root`.
public func articles(under root: URL) throws -> [String] {
  let sources = root.appendingPathComponent("Sources")
  var found: [String] = []
  for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
    let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
    guard let pages = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
    for page in pages.sorted() where page.hasSuffix(".md") {
      found.append("Sources/\(module)/\(module).docc/\(page)")
    }
  }
  return found
}

/// A Swift code block of a document: where it starts, its imports and its other lines.
public struct SwiftBlock {
  /// The line of its opening fence, from 1.
  public let line: Int
  /// Whether its fence says it is a fragment (` ```swift fragment `), which no test compiles.
  public let isFragment: Bool
  /// The modules its `import` lines name.
  public let imports: [String]
  /// Its lines after the imports and the blank lines that follow them.
  public let lines: [String]
}

/// The Swift blocks of a Markdown document.
public func swiftBlocks(in text: String) -> [SwiftBlock] {
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  var blocks: [SwiftBlock] = []
  var index = 0
  while index < lines.count {
    let fence = lines[index].trimmingCharacters(in: .whitespaces)
    guard fence.hasPrefix("```swift") else {
      index += 1
      continue
    }
    var end = index + 1
    while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
    var body = Array(lines[(index + 1)..<min(end, lines.count)])
    var imports: [String] = []
    while let first = body.first, first.hasPrefix("import ") || (first.isEmpty && !imports.isEmpty) {
      if first.hasPrefix("import ") { imports.append(String(first.dropFirst("import ".count))) }
      body.removeFirst()
    }
    blocks.append(
      SwiftBlock(line: index + 1, isFragment: fence.contains("fragment"), imports: imports, lines: body))
    index = end + 1
  }
  return blocks
}

/// A region of a test file between `// NAME:begin` and `// NAME:end`, with the file's imports.
public struct MarkedRegion {
  /// The modules the file imports.
  public let imports: [String]
  /// The region's lines.
  public let lines: [String]

  /// A region.
  public init(imports: [String], lines: [String]) {
    self.imports = imports
    self.lines = lines
  }

  /// Whether the region is `block`, line for line once both lose their common indentation, in a
  /// file that imports what the block imports.
  public func shows(_ block: SwiftBlock) -> Bool {
    Set(block.imports).isSubset(of: imports) && Self.dedented(lines) == Self.dedented(block.lines)
  }

  private static func dedented(_ lines: [String]) -> [String] {
    var lines = lines
    while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
    let indent =
      lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map {
      $0.count >= indent ? String($0.dropFirst(indent)) : $0.trimmingCharacters(in: .whitespaces)
    }
  }
}

/// The marked regions of every Swift file under `folder`.
public func markedRegions(under folder: URL) throws -> [MarkedRegion] {
  var regions: [MarkedRegion] = []
  guard let files = FileManager.default.enumerator(atPath: folder.path) else { return [] }
  for case let file as String in files where file.hasSuffix(".swift") {
    let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let imports = lines.compactMap { line -> String? in
      let words = line.split(separator: " ")
      guard let module = words.last, words.contains("import") else { return nil }
      return String(module)
    }
    var start: (name: Substring, line: Int)?
    for (index, line) in lines.enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("// "), !trimmed.contains(" ", after: 3) else { continue }
      if trimmed.hasSuffix(":begin") {
        start = (trimmed.dropFirst(3).dropLast(":begin".count), index)
      } else if trimmed.hasSuffix(":end"), let open = start,
        trimmed.dropFirst(3).dropLast(":end".count) == open.name
      {
        regions.append(MarkedRegion(imports: imports, lines: Array(lines[(open.line + 1)..<index])))
        start = nil
      }
    }
  }
  return regions
}

extension String {
  /// Whether a space occurs at or after the character offset `offset`.
  fileprivate func contains(_ character: Character, after offset: Int) -> Bool {
    dropFirst(offset).contains(character)
  }
}
