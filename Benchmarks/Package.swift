// swift-tools-version:6.1
import PackageDescription

// The benchmark harness lives in its own package so that users of the library never resolve
// ordo-one/benchmark. Run from this folder: `swift package benchmark`.
let package = Package(
  name: "ActionHierarchyBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "ActionHierarchy", path: ".."),
    // NB: the trait is named explicitly; the default traits pull in a package the local mirror
    // does not have.
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    // The fixtures the benchmarks measure, shared with the probe.
    .target(
      name: "Fixtures",
      dependencies: [
        .product(name: "ViewTree", package: "ActionHierarchy"),
        .product(name: "Actions", package: "ActionHierarchy"),
        .product(name: "ViewTreeActions", package: "ActionHierarchy"),
      ],
      path: "Fixtures"
    ),
    // One benchmark's loop, without the harness, for instruction counts (see `probe.sh`).
    .executableTarget(
      name: "Probe",
      dependencies: [
        "Fixtures",
        .product(name: "ViewTree", package: "ActionHierarchy"),
        .product(name: "Actions", package: "ActionHierarchy"),
        .product(name: "ViewTreeActions", package: "ActionHierarchy"),
      ],
      path: "Tools/Probe"
    ),
    .executableTarget(
      name: "ViewTreeBenchmarks",
      dependencies: [
        "Fixtures",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "ViewTree", package: "ActionHierarchy"),
      ],
      path: "Benchmarks/ViewTreeBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "ActionsBenchmarks",
      dependencies: [
        "Fixtures",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Actions", package: "ActionHierarchy"),
      ],
      path: "Benchmarks/ActionsBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "ViewTreeActionsBenchmarks",
      dependencies: [
        "Fixtures",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "ViewTree", package: "ActionHierarchy"),
        .product(name: "Actions", package: "ActionHierarchy"),
        .product(name: "ViewTreeActions", package: "ActionHierarchy"),
      ],
      path: "Benchmarks/ViewTreeActionsBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
