import Actions
import Fixtures
import Foundation
import ViewTree
import ViewTreeActions

// Runs one benchmark's loop body a given number of times on the benchmark's own fixture, outside
// the benchmark harness: for instruction counts (`valgrind --tool=callgrind`, which the
// harness's threads and sampling would blur) and for timing experiments with other compiler
// flags. `probe.sh` drives it.
//
//   Probe <benchmark> <operations>          runs the loop (0 operations: only the setup)
//   Probe --time <benchmark> <operations>   also prints the best of 7 rounds, in ns per operation
//   Probe --list                            prints the benchmarks it knows, one per line

/// A benchmark's loop on its fixture, built once: runs the loop body the given number of times.
/// The loop is inside the closure and the results go to a function in another module, as in the
/// benchmark harness.
typealias Loop = (Int) -> Void

/// A trigger handled at the root of a chain `depth` nodes deep, from its bottom node.
func triggers(depth: Int) -> Loop {
  let state = ChainState(depth: depth)
  return { count in for _ in 0..<count { sink(state.leaf.trigger(Hit())) } }
}

/// A request answered 8 levels up.
func requests(observed: Bool) -> Loop {
  let state = RequestState(depth: 9, observed: observed)
  return { count in for _ in 0..<count { sink(try? state.leaf.request(Lookup(key: 7))) } }
}

/// A perform from the bottom of a chain `depth` nodes deep with `providers` providers, recorded
/// into a reused trace when `traced`.
func performs(
  depth: Int = 16, providers: Int, rootExtra: RootExtra = .none, protocolHandlers: Bool = false,
  traced: Bool = false
) -> Loop {
  let (tree, leaf) = makeChain(
    depth: depth, providers: providers, rootExtra: rootExtra, protocolHandlers: protocolHandlers)
  let trace = traced ? ActionTrace() : nil
  return { count in
    withExtendedLifetime(tree) {
      for _ in 0..<count {
        trace?.removeAll()
        sink(leaf.perform("menu.Save", tracing: trace))
      }
    }
  }
}

/// What runs inside it is all that `probe.sh` counts for the probes that build a fixture for each
/// operation (it passes valgrind `--toggle-collect` for them): the operation without its setup.
@inline(never) func probeMeasured(_ body: () -> Void) { body() }

/// A chain removed from its tree, built again before each removal (see `ChainRemovalState`).
func chainRemovals(depth: Int, focused: Bool) -> Loop {
  let state = ChainRemovalState(depth: depth, focused: focused)
  return { count in
    for _ in 0..<count {
      state.build()
      probeMeasured { state.remove() }
    }
  }
}

/// A view placing itself (and taken out again, outside the count) in a tree of `sections`
/// sections of `rows` placed rows.
func placements(sections: Int, rows: Int) -> Loop {
  let state = PlacementState(sections: sections, rows: rows)
  return { count in
    for _ in 0..<count {
      probeMeasured { state.place() }
      state.unplace()
    }
  }
}

/// The plain reference for `placements`.
func minimalPlacements(sections: Int, rows: Int) -> Loop {
  let state = MinimalPlacementState(sections: sections, rows: rows)
  return { count in
    for _ in 0..<count {
      probeMeasured { state.place() }
      state.unplace()
    }
  }
}

/// A branch made inactive and active again; only the deactivation is counted, or only the
/// activation when `measuring` says so.
func activity(size: Int, measuring activation: Bool) -> Loop {
  let state = BranchState(size: size)
  return { count in
    for _ in 0..<count {
      if activation {
        state.branch.isActive = false
        probeMeasured { state.branch.isActive = true }
      } else {
        probeMeasured { state.branch.isActive = false }
        state.branch.isActive = true
      }
    }
  }
}

let probes: [String: () -> Loop] = [
  "Bubble16": { triggers(depth: 16) },
  "HitTest10k": {
    let state = HitGridState()
    return { count in for _ in 0..<count { sink(state.tree.node(at: state.location)) } }
  },
  "MinimalHitTest10k": {
    let grid = MinimalHitGrid()
    return { count in for _ in 0..<count { sink(grid.hit(grid.location)) } }
  },
  "PointerMoveHover64": {
    let state = HoverState()
    return { count in for index in 0..<count { sink(state.tree.handlePointer(state.move(index))) } }
  },
  "MinimalPointerMove64": {
    let tree = MinimalHoverTree()
    return { count in
      for index in 0..<count { sink(tree.move(to: index % 2 == 0 ? tree.left : tree.right)) }
    }
  },
  "MinimalClickToFocus16": {
    let chain = MinimalClickChain()
    return { count in for _ in 0..<count { sink(chain.click()) } }
  },
  "DecodeMouse1MB": {
    let state = TerminalBytesState.mouseMotion()
    return { count in for _ in 0..<count { sink(state.decodeAll()) } }
  },
  "DecodeKittyEvents1MB": {
    let state = TerminalBytesState.kittyEvents()
    return { count in for _ in 0..<count { sink(state.decodeAll()) } }
  },
  "DecodeArrows1MB": {
    let state = TerminalBytesState.arrows()
    return { count in for _ in 0..<count { sink(state.decodeAll()) } }
  },
  "PlaceOneViewOf10k": { placements(sections: 100, rows: 100) },
  "PlaceOneViewOf100k": { placements(sections: 1_000, rows: 100) },
  "MinimalPlaceOneViewOf10k": { minimalPlacements(sections: 100, rows: 100) },
  "InsertRowInMiddle1000": { placements(sections: 1, rows: 1_000) },
  "InsertRowInMiddle10000": { placements(sections: 1, rows: 10_000) },
  "DeactivateBranch10k": { activity(size: 10_000, measuring: false) },
  "ActivateBranch10k": { activity(size: 10_000, measuring: true) },
  "DeactivateBranch100k": { activity(size: 100_000, measuring: false) },
  "ClickToFocus16": {
    let state = ClickToFocusState()
    return { count in for _ in 0..<count { state.click() } }
  },
  "RemoveChain10k": { chainRemovals(depth: 10_000, focused: false) },
  "RemoveFocusedChain10k": { chainRemovals(depth: 10_000, focused: true) },
  "RemoveChain100k": { chainRemovals(depth: 100_000, focused: false) },
  "RemoveFocusedChain100k": { chainRemovals(depth: 100_000, focused: true) },
  "RemoveChain1M": { chainRemovals(depth: 1_000_000, focused: false) },
  "RemoveFocusedChain1M": { chainRemovals(depth: 1_000_000, focused: true) },
  "TriggerOnTarget": { triggers(depth: 1) },
  "Trigger9Up": { triggers(depth: 9) },
  "Bubble64": { triggers(depth: 64) },
  "Bubble65": { triggers(depth: 65) },
  "Bubble256": { triggers(depth: 256) },
  "Request8Up": { requests(observed: false) },
  "Request8UpObserved": { requests(observed: true) },
  "MinimalRequest8Up": {
    let chain = MinimalRequestChain(depth: 9)
    return { count in for _ in 0..<count { sink(chain.request(Lookup(key: 7))) } }
  },
  "RuledRequest8Up": {
    let chain = RuledRequestChain(depth: 9)
    return { count in for _ in 0..<count { sink(chain.request(Lookup(key: 7))) } }
  },
  "TreePerform16DeepNoProviders": { performs(providers: 0) },
  "TreePerform16DeepProtocolHandlers": { performs(providers: 0, protocolHandlers: true) },
  "TreePerform16Deep4Providers": { performs(providers: 4) },
  "TreePerform16Deep4ProvidersObserved": { performs(providers: 4, rootExtra: .observer) },
  "TreePerform16Deep4ProvidersTraced": { performs(providers: 4, traced: true) },
  "TreePerform64Deep16Providers": { performs(depth: 64, providers: 16) },
  "MinimalPerform16x4": {
    let chain = MinimalPerformChain(depth: 16, providers: 4)
    return { count in for _ in 0..<count { sink(chain.perform("menu.Save")) } }
  },
  "RuledPerform16x4": {
    let chain = RuledPerformChain(depth: 16, providers: 4)
    return { count in for _ in 0..<count { sink(chain.perform("menu.Save")) } }
  },
  "MinimalPerform64x16": {
    let chain = MinimalPerformChain(depth: 64, providers: 16)
    return { count in for _ in 0..<count { sink(chain.perform("menu.Save")) } }
  },
  "TreePerform16Deep4ProvidersCaptured": { performs(providers: 4, rootExtra: .capture) },
  "Redeclare1000Unchanged": {
    let tree = NodeTree(declaring: declareThousand())
    return { count in for _ in 0..<count { tree.update(to: declareThousand()) } }
  },
  "FocusNext100k": {
    let state = FocusNextState()
    return { count in for _ in 0..<count { sink(state.tree.moveFocus(.next)) } }
  },
  "FocusNextSparse100k": {
    let state = FocusSparseState()
    return { count in for _ in 0..<count { sink(state.tree.moveFocus(.next)) } }
  },
  "ReferenceFlagWalk10k": {
    let state = FlagWalkState()
    return { count in for _ in 0..<count { sink(state.next()) } }
  },
  "FocusDirection1k": {
    let state = FocusGridState()
    return { count in for index in 0..<count { sink(state.tree.moveFocus(index % 2 == 0 ? .right : .left)) } }
  },
  "UpdateOneViewOf10k": {
    let state = PerViewState(nodes: 10_000)
    return { count in for _ in 0..<count { state.section.update(to: state.declaration) } }
  },
  "UpdateOneViewOf100k": {
    let state = PerViewState(nodes: 100_000)
    return { count in for _ in 0..<count { state.section.update(to: state.declaration) } }
  },
  "UpdateFrozenSubtree10k": {
    let state = FrozenSubtreeState(nodes: 10_000)
    return { count in for _ in 0..<count { state.root.update(to: state.declaration) } }
  },
  "ResolveKeyChord16Deep": {
    let state = KeyState()
    return { count in for _ in 0..<count { sink(state.tree.firstResponder.resolveKey(state.chord)) } }
  },
  "TypeCharacter16Deep": {
    let state = TextOwnerState()
    return { count in for _ in 0..<count { sink(state.tree.firstResponder.handleKey(state.chord)) } }
  },
  "InsertText16Deep": {
    let state = TextOwnerState()
    let owner = state.tree.firstResponder
    return { count in for _ in 0..<count { sink(owner.insertText("a")) } }
  },
  "PressKey16Deep": {
    let state = KeyState()
    return { count in for _ in 0..<count { sink(state.tree.firstResponder.handleKey(state.chord)) } }
  },
  "ResolveUnboundKey16Deep": {
    let state = KeyState()
    let chord = KeyChord(.character("x"))
    return { count in for _ in 0..<count { sink(state.tree.firstResponder.resolveKey(chord)) } }
  },
  "ResolveKeyChord16DeepKeymap": {
    let state = KeymapState()
    return { count in for _ in 0..<count { sink(state.tree.firstResponder.resolveKey(state.chord)) } }
  },
  "PressKey16DeepKeymapFallsThrough": {
    let state = KeymapState()
    guard case .resolved(let binding, .answered) = state.tree.firstResponder.handleKey(state.chord),
      binding.identifier.text == "Save"
    else { fatalError("ctrl+s does not fall through to the root's Save") }
    return { count in for _ in 0..<count { sink(state.tree.firstResponder.handleKey(state.chord)) } }
  },
  "ReferenceKeymapResolve16Deep": {
    let state = KeymapReference()
    precondition(state.resolve() == "Find")
    return { count in for _ in 0..<count { sink(state.resolve()) } }
  },
  "StringKeymapResolve16Deep": {
    let state = StringKeymapReference()
    precondition(state.resolve() == "Find")
    return { count in for _ in 0..<count { sink(state.resolve()) } }
  },
  "ExplainKey16Deep": {
    let state = KeymapState()
    return { count in
      for _ in 0..<count { sink(state.tree.explainKey(state.chord, at: state.tree.firstResponder)) }
    }
  },
  "LoadKeymap1000": {
    let (tree, text) = (KeyState().tree, keymapText(bindings: 1_000))
    return { count in for _ in 0..<count { tree.userKeymap = Keymap(parsing: text) } }
  },
  "LoadKeymap10000": {
    let (tree, text) = (KeyState().tree, keymapText(bindings: 10_000))
    return { count in for _ in 0..<count { tree.userKeymap = Keymap(parsing: text) } }
  },
  "ResolveSequence16Deep": {
    let state = SequenceState()
    return { count in for _ in 0..<count { sink(state.tree.firstResponder.resolveKey(state.chord)) } }
  },
  "PendingContinuations": {
    let state = ContinuationsState()
    return { count in for _ in 0..<count { sink(state.pending.validatedContinuations()) } }
  },
  "OfferedAt16Deep40": {
    let state = OfferedState()
    return { count in for _ in 0..<count { sink(state.tree.offeredActions()) } }
  },
  "BindingsInEffect16Deep40": {
    let state = OfferedState()
    return { count in for _ in 0..<count { sink(state.tree.firstResponder.bindingsInEffect()) } }
  },
  "PaletteFilter1000": {
    let palette = makePalette()
    return { count in for _ in 0..<count { sink(palette.matches("sv doc")) } }
  },
  "ReferenceValidate50": {
    let state = ContinuationsState()
    return { count in for _ in 0..<count { sink(state.validateEach()) } }
  },
  "PerformRegistered": {
    let box = ActionManagerBox()
    return { count in for _ in 0..<count { sink(box.manager.perform("menu.Save")) } }
  },
  "Bind4000KeysOnOneNode": {
    let state = ManyBindingsState()
    return { count in for _ in 0..<count { sink(state.bindAll()) } }
  },
  "ValidateRegistered": {
    let box = ActionManagerBox()
    return { count in for _ in 0..<count { sink(box.manager.validate("menu.Save")) } }
  },
]

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--list"] {
  for name in probes.keys.sorted() { print(name) }
  exit(0)
}
let timed = arguments.first == "--time"
if timed { arguments.removeFirst() }
guard arguments.count == 2, let make = probes[arguments[0]], let count = Int(arguments[1]), count >= 0 else {
  print("usage: Probe [--time] <benchmark> <operations>")
  print("benchmarks: \(probes.keys.sorted().joined(separator: ", "))")
  exit(2)
}
let loop = make()
if timed {
  var best = Duration.seconds(1_000)
  for _ in 0..<7 {
    let start = ContinuousClock.now
    loop(count)
    best = min(best, ContinuousClock.now - start)
  }
  let nanoseconds = Double(best.components.attoseconds) / 1e9 + Double(best.components.seconds) * 1e9
  print("\(arguments[0]): \(Int((nanoseconds / Double(max(count, 1))).rounded())) ns")
} else {
  loop(count)
}
