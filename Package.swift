// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "ActionHierarchy",
  platforms: [
    // `Synchronization.Atomic` (the deep-path spare, the raw terminal's one-at-a-time flag) needs
    // these on Apple platforms.
    .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
  ],
  products: [
    .library(name: "ViewTree", targets: ["ViewTree"]),
    .library(name: "Actions", targets: ["Actions"]),
    .library(name: "ViewTreeActions", targets: ["ViewTreeActions"]),
    .library(name: "ViewTreeTesting", targets: ["ViewTreeTesting"]),
    .library(name: "TerminalKeys", targets: ["TerminalKeys"]),
    .executable(name: "Playground", targets: ["Playground"]),
  ],
  targets: [
    .target(name: "ViewTree", exclude: ["Engine/INVARIANTS.md"]),
    .target(name: "Actions"),
    .target(name: "ViewTreeActions", dependencies: ["ViewTree", "Actions"]),
    .target(name: "ViewTreeTesting", dependencies: ["ViewTree", "Actions", "ViewTreeActions"]),
    // Terminal input decoding, in its own module so that non-terminal users never build it.
    .target(name: "TerminalKeys", dependencies: ["ViewTree", "ViewTreeActions"]),
    .target(
      name: "PlaygroundKit", dependencies: ["ViewTree", "Actions", "ViewTreeActions", "TerminalKeys"],
      path: "Playground/Kit"),
    .executableTarget(
      name: "Playground", dependencies: ["PlaygroundKit", "ViewTreeActions"], path: "Playground/App"),
    // Helpers shared by the test targets; not a product.
    .target(name: "TestSupport", dependencies: ["ViewTree", "Actions"], path: "Tests/TestSupport"),
    .testTarget(name: "ViewTreeTests", dependencies: ["ViewTree", "TestSupport"]),
    .testTarget(name: "ActionsTests", dependencies: ["Actions", "TestSupport"]),
    // The Playground executable too: a test runs it as a separate process to end it by a signal.
    .testTarget(
      name: "TerminalKeysTests",
      dependencies: [
        "TerminalKeys", "ViewTreeActions", "ViewTree", "TestSupport", "Playground", "PlaygroundKit",
      ]),
    .testTarget(
      name: "ViewTreeActionsTests", dependencies: ["ViewTreeActions", "ViewTree", "Actions", "TestSupport"]),
    .testTarget(
      name: "PlaygroundTests",
      dependencies: ["PlaygroundKit", "ViewTreeActions", "ViewTree", "Actions", "TerminalKeys"]),
    .testTarget(
      name: "ViewTreeTestingTests",
      dependencies: ["ViewTreeTesting", "ViewTree", "Actions", "ViewTreeActions", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
