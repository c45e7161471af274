import Actions
import Benchmark
import Fixtures
import ViewTree
import ViewTreeActions

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    warmupIterations: 3,
    scalingFactor: .kilo,
    maxDuration: .seconds(3),
    maxIterations: 10_000
  )

  // perform("menu.Save") from the bottom of a 16-node chain with 4 providers on the path.
  Benchmark("TreePerform16Deep4Providers") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.1.perform("menu.Save"))
    }
  } setup: {
    makeChain(depth: 16, providers: 4)
  }

  // The same work in plain safe Swift over arrays and indexes, no library code: the reference.
  Benchmark("MinimalPerform16x4") { benchmark, chain in
    for _ in benchmark.scaledIterations {
      blackHole(chain.perform("menu.Save"))
    }
  } setup: {
    MinimalPerformChain(depth: 16, providers: 4)
  }

  // The same with the rules the library keeps and that one skips (a capture phase, no modifier
  // added during the dispatch runs, limits on nesting, observers, the answering node): the
  // reference with rules.
  Benchmark("RuledPerform16x4") { benchmark, chain in
    for _ in benchmark.scaledIterations {
      blackHole(chain.perform("menu.Save"))
    }
  } setup: {
    RuledPerformChain(depth: 16, providers: 4)
  }

  // The reference for that one: what 12 more providers and 48 more hops cost in plain Swift.
  Benchmark("MinimalPerform64x16") { benchmark, chain in
    for _ in benchmark.scaledIterations {
      blackHole(chain.perform("menu.Save"))
    }
  } setup: {
    MinimalPerformChain(depth: 64, providers: 16)
  }

  // perform("menu.Save") from the bottom of a 64-node chain with 16 providers on the path: against
  // `TreePerform16Deep4Providers`, what each further provider (and hop) costs.
  Benchmark("TreePerform64Deep16Providers") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.1.perform("menu.Save"))
    }
  } setup: {
    makeChain(depth: 64, providers: 16)
  }

  // The same chain without providers: what a perform through the tree costs before any provider.
  Benchmark("TreePerform16DeepNoProviders") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.1.perform("menu.Save"))
    }
  } setup: {
    makeChain(depth: 16, providers: 0)
  }

  // The same chain without providers, with a handler typed by a protocol the request does not
  // conform to on each of its 16 nodes.
  Benchmark("TreePerform16DeepProtocolHandlers") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.1.perform("menu.Save"))
    }
  } setup: {
    makeChain(depth: 16, providers: 0, protocolHandlers: true)
  }

  // The same, recorded into a trace that is emptied and reused for every perform. (The trace is
  // made in the setup: made in the loop's closure, it and its list would be two allocations per
  // sample, which the threshold check counts.)
  Benchmark("TreePerform16Deep4ProvidersTraced") { benchmark, state in
    for _ in benchmark.scaledIterations {
      state.trace.removeAll()
      blackHole(state.leaf.perform("menu.Save", tracing: state.trace))
    }
  } setup: {
    TracedPerformState()
  }

  // The same with an untyped `onAction` observer at the root.
  Benchmark("TreePerform16Deep4ProvidersObserved") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.1.perform("menu.Save"))
    }
  } setup: {
    makeChain(depth: 16, providers: 4, rootExtra: .observer)
  }

  // The same with an untyped capture modifier at the root.
  Benchmark("TreePerform16Deep4ProvidersCaptured") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.1.perform("menu.Save"))
    }
  } setup: {
    makeChain(depth: 16, providers: 4, rootExtra: .capture)
  }

  // Validating 1,000 items against a focus 8 levels deep.
  Benchmark(
    "ValidateItems1000",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 3, scalingFactor: .one)
  ) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.validateItems(in: state.menu))
    }
  } setup: {
    ItemsState()
  }

  // 4,000 key bindings declared on one node, one `bindKey` at a time (each checked for overlaps).
  Benchmark(
    "Bind4000KeysOnOneNode",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one)
  ) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.bindAll())
    }
  } setup: {
    ManyBindingsState()
  }

  // Resolving a key chord bound at the root from a focus 16 levels deep.
  Benchmark("ResolveKeyChord16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.firstResponder.resolveKey(state.chord))
    }
  } setup: {
    KeyState()
  }

  // Pressing the chord of `ResolveKeyChord16Deep`: resolved, then its identifier performed from
  // the focus (a key event with no alternates, no text owner).
  Benchmark("PressKey16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.firstResponder.handleKey(state.chord))
    }
  } setup: {
    KeyState()
  }

  // A character typed at a text owner 16 levels deep, which the root binds too: it becomes the
  // InsertText the owner handles.
  Benchmark("TypeCharacter16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.firstResponder.handleKey(state.chord))
    }
  } setup: {
    TextOwnerState()
  }

  // Text inserted at the same text owner (an input method's commit, a paste): the InsertText
  // action alone, handled at the owner 16 levels deep.
  Benchmark("InsertText16Deep") { benchmark, state in
    let owner = state.tree.firstResponder
    for _ in benchmark.scaledIterations {
      blackHole(owner.insertText("a"))
    }
  } setup: {
    TextOwnerState()
  }

  // Resolving a chord nothing on the path binds (a letter typed into a field) from the same
  // focus: the walk goes to the top, then through the tree's standard defaults.
  Benchmark("ResolveUnboundKey16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.firstResponder.resolveKey(KeyChord(.character("x"))))
    }
  } setup: {
    KeyState()
  }

  // The second key of `g g`, bound at the root, from the same focus: the sequence's first key
  // was pressed in the setup, and resolving does not change what is pending.
  Benchmark("ResolveSequence16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.firstResponder.resolveKey(state.chord))
    }
  } setup: {
    SequenceState()
  }

  // `ctrl+s` again, with 8 key contexts on the path and a 1,000-binding user keymap: one of its
  // three `ctrl+s` bindings matches deeper than the root's and wins.
  Benchmark("ResolveKeyChord16DeepKeymap") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.firstResponder.resolveKey(state.chord))
    }
  } setup: {
    KeymapState()
  }

  // Its reference: the same work as plain safe Swift would do it, names interned as integers and
  // the context levels as bit sets (see `KeymapReference`).
  Benchmark("ReferenceKeymapResolve16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.resolve())
    }
  } setup: {
    KeymapReference()
  }

  // The reference's work with names compared as strings (see `StringKeymapReference`).
  Benchmark("StringKeymapResolve16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.resolve())
    }
  } setup: {
    StringKeymapReference()
  }

  // `ctrl+s` pressed on the tree of `ResolveKeyChord16DeepKeymap`: no manager performs `Find`
  // nor `SaveAll`, so the press falls through both, in the order of precedence, to the root's
  // `Save`.
  Benchmark("PressKey16DeepKeymapFallsThrough") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.firstResponder.handleKey(state.chord))
    }
  } setup: {
    KeymapState()
  }

  // Every candidate for the keymap's `ctrl+s`, with what became of each.
  Benchmark("ExplainKey16Deep") { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.explainKey(state.chord, at: state.tree.firstResponder))
    }
  } setup: {
    KeymapState()
  }

  // Parsing a keymap file of 1,000 (10,000) bindings and installing it as a tree's user keymap.
  for count in [1_000, 10_000] {
    Benchmark(
      "LoadKeymap\(count)",
      configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one)
    ) { benchmark, state in
      for _ in benchmark.scaledIterations {
        state.tree.userKeymap = Keymap(parsing: state.text)
      }
    } setup: {
      (tree: KeyState().tree, text: keymapText(bindings: count))
    }
  }

  // What can follow `ctrl+k` when 50 sequences begin with it: sorted and validated.
  Benchmark(
    "PendingContinuations",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one)
  ) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.pending.validatedContinuations())
    }
  } setup: {
    ContinuationsState()
  }

  // Its reference: the same 50 validations, and nothing else.
  Benchmark(
    "ReferenceValidate50",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one)
  ) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.validateEach())
    }
  } setup: {
    ContinuationsState()
  }

  // What a focus 16 deep offers, with 40 bindings and 10 items on the path: one list, each
  // action validated once.
  Benchmark(
    "OfferedAt16Deep40",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one)
  ) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.offeredActions())
    }
  } setup: {
    OfferedState()
  }

  // The footer's view of it on the same tree: one row per binding.
  Benchmark(
    "BindingsInEffect16Deep40",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one)
  ) { benchmark, state in
    for _ in benchmark.scaledIterations {
      blackHole(state.tree.firstResponder.bindingsInEffect())
    }
  } setup: {
    OfferedState()
  }

  // A command palette of 1,000 registered actions, filtered by typed text (one keystroke).
  Benchmark("PaletteFilter1000") { benchmark, palette in
    for _ in benchmark.scaledIterations {
      blackHole(palette.matches("sv doc"))
    }
  } setup: {
    makePalette()
  }
}

/// The chain of `TreePerform16Deep4Providers` and a trace to reuse.
final class TracedPerformState {
  let tree: NodeTree
  let leaf: Node
  let trace = ActionTrace()

  init() { (tree, leaf) = makeChain(depth: 16, providers: 4) }
}

/// A tree whose root carries a manager, a menu of 1,000 items and a focused chain 8 levels deep.
final class ItemsState {
  let tree: NodeTree
  let menu: Node

  init() {
    let (chainTree, leaf) = makeChain(depth: 8, providers: 4)
    let menu = Node("menu") {
      for index in 0..<1_000 { Node().actionItem(index % 2 == 0 ? "menu.Save" : "menu.Missing") }
    }
    try! chainTree.root.addChild(menu)
    try! chainTree.focus(leaf.focusable())
    tree = chainTree
    self.menu = menu
  }
}
