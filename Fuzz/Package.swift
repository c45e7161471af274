// swift-tools-version:6.2
import PackageDescription

// libFuzzer harnesses for ActionHierarchy, in their own package so that the library's users never
// build them. From this folder:
//
//   swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
//   .build/release/FuzzIdentifierParser Corpus/IdentifierParser -max_total_time=60
//
// (The `-Xswiftc` flag keeps both sanitizers: SwiftPM passes the two `--sanitize` values in no
// fixed order, and `-sanitize=address` after `-sanitize=fuzzer` drops the coverage
// instrumentation libFuzzer needs.)
//
// Each harness is the `main.swift` of an executable target and defines only
// `LLVMFuzzerTestOneInput`.
let harnessSettings: [SwiftSetting] = [
  // NB: libFuzzer brings its own `main`; parsed as a library, `main.swift` does not define one.
  .unsafeFlags(["-parse-as-library"])
]

let package = Package(
  name: "ActionHierarchyFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "ActionHierarchy", path: "..")],
  targets: [
    .executableTarget(
      name: "FuzzIdentifierParser",
      dependencies: [.product(name: "Actions", package: "ActionHierarchy")],
      swiftSettings: harnessSettings),
    .executableTarget(
      name: "FuzzKeyChordParser",
      dependencies: [.product(name: "ViewTreeActions", package: "ActionHierarchy")],
      swiftSettings: harnessSettings),
    .executableTarget(
      name: "FuzzKeyResolver",
      dependencies: [
        .product(name: "ViewTree", package: "ActionHierarchy"),
        .product(name: "Actions", package: "ActionHierarchy"),
        .product(name: "ViewTreeActions", package: "ActionHierarchy"),
      ],
      swiftSettings: harnessSettings),
    .executableTarget(
      name: "FuzzKeymapParser",
      dependencies: [.product(name: "ViewTreeActions", package: "ActionHierarchy")],
      swiftSettings: harnessSettings),
    .executableTarget(
      name: "FuzzTerminalKeys",
      dependencies: [.product(name: "TerminalKeys", package: "ActionHierarchy")],
      swiftSettings: harnessSettings),
    .executableTarget(
      name: "FuzzTreeOperations",
      dependencies: [
        .product(name: "ViewTree", package: "ActionHierarchy"),
        .product(name: "Actions", package: "ActionHierarchy"),
        .product(name: "ViewTreeActions", package: "ActionHierarchy"),
      ],
      swiftSettings: harnessSettings),
    .executableTarget(
      name: "FuzzKeySequences",
      dependencies: [
        .product(name: "ViewTree", package: "ActionHierarchy"),
        .product(name: "Actions", package: "ActionHierarchy"),
        .product(name: "ViewTreeActions", package: "ActionHierarchy"),
      ],
      swiftSettings: harnessSettings),
    .executableTarget(
      name: "FuzzPointerSequences",
      dependencies: [.product(name: "ViewTree", package: "ActionHierarchy")],
      swiftSettings: harnessSettings),
    .executableTarget(
      name: "FuzzTreeMutations",
      dependencies: [
        .product(name: "ViewTree", package: "ActionHierarchy"),
        .product(name: "Actions", package: "ActionHierarchy"),
        .product(name: "ViewTreeActions", package: "ActionHierarchy"),
      ],
      swiftSettings: harnessSettings),
  ],
  swiftLanguageModes: [.v6]
)
