// swift-tools-version:6.1
import PackageDescription

/// The library's modules, which the fixtures and the probe use.
let library: [Target.Dependency] = [
  .product(name: "ViewTree", package: "ActionHierarchy"),
  .product(name: "Actions", package: "ActionHierarchy"),
  .product(name: "ViewTreeActions", package: "ActionHierarchy"),
  .product(name: "TerminalKeys", package: "ActionHierarchy"),
]

/// A benchmark target: an executable under `Benchmarks/`, which the harness's plugin finds and
/// runs, for the library modules it measures.
func benchmarkTarget(_ name: String, using modules: String...) -> Target {
  .executableTarget(
    name: name,
    dependencies: ["Fixtures", .product(name: "Benchmark", package: "benchmark")]
      + modules.map { .product(name: $0, package: "ActionHierarchy") },
    path: "Benchmarks/\(name)",
    plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
  )
}

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
    .target(name: "Fixtures", dependencies: library, path: "Fixtures"),
    // One benchmark's loop, without the harness, for instruction counts (see `probe.sh`). Not
    // under `Benchmarks/`, where the plugin would take it for a benchmark.
    .executableTarget(name: "Probe", dependencies: ["Fixtures"] + library, path: "Tools/Probe"),
    // The flows `probe.sh flows` traces.
    .executableTarget(
      name: "Flows", dependencies: library, path: "Tools/Flows", exclude: ["trace.py", "count.py"]),
    benchmarkTarget("ViewTreeBenchmarks", using: "ViewTree"),
    benchmarkTarget("ActionsBenchmarks", using: "Actions"),
    benchmarkTarget("ViewTreeActionsBenchmarks", using: "ViewTree", "Actions", "ViewTreeActions"),
    benchmarkTarget("TerminalKeysBenchmarks", using: "TerminalKeys"),
  ],
  swiftLanguageModes: [.v6]
)
