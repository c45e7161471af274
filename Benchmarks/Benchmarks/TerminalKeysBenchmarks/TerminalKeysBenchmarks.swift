import Benchmark
import Fixtures

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    warmupIterations: 1,
    scalingFactor: .one,
    maxDuration: .seconds(3),
    maxIterations: 100
  )

  // A megabyte of mouse motion reports, and the same of arrow keys, decoded in reads of 4 KiB:
  // the cost per byte of each, to compare.
  Benchmark("DecodeMouse1MB") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.decodeAll())
    }
  } setup: {
    TerminalBytesState.mouseMotion()
  }

  Benchmark("DecodeArrows1MB") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.decodeAll())
    }
  } setup: {
    TerminalBytesState.arrows()
  }

  // A megabyte of kitty key events with event types (presses, repeats and releases), to compare
  // per byte with the arrow keys.
  Benchmark("DecodeKittyEvents1MB") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.decodeAll())
    }
  } setup: {
    TerminalBytesState.kittyEvents()
  }
}
