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
