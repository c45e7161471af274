import Actions
import Benchmark
import Fixtures

enum DocumentKey: ActionContextKey {
  static let defaultValue = 0
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    warmupIterations: 3,
    scalingFactor: .kilo,
    maxDuration: .seconds(3),
    maxIterations: 10_000
  )

  let identifier = #"menu.SetColor("color": "red", "size": 3)"#

  // Parsing from scratch, every time.
  Benchmark("ParseIdentifier") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try? ActionIdentifier(parsing: identifier))
    }
  }

  // Identifiers with 10,000 and 100,000 arguments (about 0.1 and 1.2 MB): parsing is linear in
  // the length, so the second takes about ten times the first.
  for count in [10_000, 100_000] {
    let bulk = "Bulk(" + (0..<count).map { "k\($0): \"a\\nb\"" }.joined(separator: ", ") + ")"
    Benchmark(
      "ParseIdentifier\(count / 1_000)kArguments",
      configuration: .init(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1, scalingFactor: .one)
    ) { benchmark in
      for _ in benchmark.scaledIterations {
        blackHole(try? ActionIdentifier(parsing: bulk))
      }
    }
  }

  // The manager's cache, which answers repeated identifiers.
  Benchmark("ParseIdentifierCached") { benchmark, manager in
    for _ in benchmark.scaledIterations {
      blackHole(try? manager.identifier(parsing: identifier))
    }
  } setup: {
    ActionManagerBox()
  }

  // Performing a registered identifier with the context the manager builds (sender, identifier).
  Benchmark("PerformRegistered") { benchmark, box in
    for _ in benchmark.scaledIterations {
      blackHole(box.manager.perform("menu.Save"))
    }
  } setup: {
    ActionManagerBox()
  }

  // Validating a registered identifier: what a menu item or a button asks before it is drawn.
  Benchmark("ValidateRegistered") { benchmark, box in
    for _ in benchmark.scaledIterations {
      blackHole(box.manager.validate("menu.Save"))
    }
  } setup: {
    ActionManagerBox()
  }

  // Two identifiers in turn, so that every perform goes through the cache's dictionary.
  Benchmark("PerformRegisteredAlternating") { benchmark, box in
    for index in benchmark.scaledIterations {
      blackHole(box.manager.perform(index & 1 == 0 ? "menu.Save" : "toolbar.Save"))
    }
  } setup: {
    ActionManagerBox()
  }

  // The same with one caller value in the context.
  Benchmark("PerformRegisteredOneValue") { benchmark, box in
    for _ in benchmark.scaledIterations {
      blackHole(box.manager.perform("menu.Save") { $0[DocumentKey.self] = 1 })
    }
  } setup: {
    ActionManagerBox()
  }
}
