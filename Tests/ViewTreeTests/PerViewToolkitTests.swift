import TestSupport
import Testing
@_spi(Invariants) import ViewTree

/// A miniature SwiftUI-like toolkit that re-renders one view at a time: each view has storage
/// (its state, its children's storage, a `NodeHandle`); a state change marks only that view
/// dirty; a render pass re-evaluates the dirty views' bodies, a child's after its parent's, the
/// rows of a list in a shuffled order, and skips the clean (frozen) ones. After every random
/// change the live tree must be what a whole-tree declaration of the same state gives.
@Suite struct PerViewToolkitTests {
  struct Select: Action {}

  enum Kind { case app, list, row }

  /// What a handler saw: the view that handled, and the state it captured.
  struct Seen: Equatable {
    var key: Int
    var version: Int
  }

  /// One view's storage, kept across renders like SwiftUI's.
  final class Storage {
    let kind: Kind
    let key: Int
    let handle = NodeHandle()
    /// The state: the app's list keys, a list's row keys, or a row's version.
    var state: [Int]
    var children: [Storage] = []
    var isDirty = true

    init(_ kind: Kind, key: Int, state: [Int]) {
      self.kind = kind
      self.key = key
      self.state = state
    }

    var childKind: Kind? {
      switch kind {
      case .app: .list
      case .list: .row
      case .row: nil
      }
    }

    /// The view's `body` for the responder chain, with `children` where its child views go.
    func declaration(seen: Log<Seen>, children: [NodeDeclaration]) -> NodeDeclaration {
      let (key, version) = (self.key, state.first ?? 0)
      switch kind {
      case .app:
        let count = state.count
        return NodeDeclaration("app") { for child in children { child } }
          .handleAction(Save.self) { _ in seen(Seen(key: -1, version: count)) }
      case .list:
        return NodeDeclaration("list\(key)") {
          NodeDeclaration("header\(key)")
          for child in children { child }
        }
        .onAction { _ in }
      case .row:
        return NodeDeclaration("row\(key)").focusable().handleAction(Select.self) { _ in
          seen(Seen(key: key, version: version))
        }
      }
    }

    /// The same state declared as a whole tree, with no handles: what the live tree must equal.
    func wholeDeclaration(seen: Log<Seen>) -> NodeDeclaration {
      declaration(seen: seen, children: children.map { $0.wholeDeclaration(seen: seen) })
    }
  }

  final class Log<Entry> {
    var entries: [Entry] = []
    func callAsFunction(_ entry: Entry) { entries.append(entry) }
  }

  /// The toolkit: storage, the render pass, and the adapter's one call per evaluated body.
  final class Toolkit {
    let app = Storage(.app, key: 0, state: [1, 2, 3])
    let seen = Log<Seen>()
    var generator = SplitMix64(seed: 7)
    var nextKey = 100
    var evaluated = 0

    /// Re-evaluates the dirty views, parents before children, rows in a shuffled order.
    func render(_ storage: Storage) {
      if storage.isDirty {
        evaluated += 1
        // The toolkit's own identity: child storage kept by key.
        if let kind = storage.childKind {
          var old = Dictionary(uniqueKeysWithValues: storage.children.map { ($0.key, $0) })
          storage.children = storage.state.map { key in
            old.removeValue(forKey: key) ?? Storage(kind, key: key, state: kind == .list ? [key * 10] : [0])
          }
        }
        storage.handle.update(
          to: storage.declaration(
            seen: seen, children: storage.children.map { NodeDeclaration.slot($0.handle) }))
        storage.isDirty = false
      }
      for child in storage.children.shuffled(using: &generator) { render(child) }
    }

    var allStorage: [Storage] {
      var result: [Storage] = []
      var stack = [app]
      while let storage = stack.popLast() {
        result.append(storage)
        stack.append(contentsOf: storage.children)
      }
      return result
    }

    func fresh() -> Int {
      nextKey += 1
      return nextKey
    }

    /// One random state change, marking only the changed view dirty.
    func change() {
      let storage = allStorage.randomElement(using: &generator)!
      let roll = Int(generator.next() % 4)
      switch storage.kind {
      case .row: storage.state[0] += 1
      case .app, .list:
        let keys = storage.state
        switch roll {
        case 0 where !keys.isEmpty: storage.state.remove(at: Int(generator.next() % UInt64(keys.count)))
        case 1: storage.state.insert(fresh(), at: Int(generator.next() % UInt64(keys.count + 1)))
        case 2: storage.state.shuffle(using: &generator)
        default: storage.state.append(fresh())
        }
      }
      storage.isDirty = true
    }
  }

  @Test(.stress) func aThousandRandomChangesKeepTheTreeExactlyWhatAWholeDeclarationGives() throws {
    let toolkit = Toolkit()
    toolkit.render(toolkit.app)
    let tree = try NodeTree(root: try #require(toolkit.app.handle.node))
    var reported: [String] = []
    tree.onProblem = { problem, node in reported.append("\(node.path): \(problem)") }
    var skipped = 0
    for step in 0..<1_000 {
      // A focused row, if any, and the nodes of the views a change may remove; held weakly, so
      // that a view the change removes is freed with its handle.
      weak let focusedRow = toolkit.allStorage.filter { $0.kind == .row }.randomElement(
        using: &toolkit.generator)
      if let node = focusedRow?.handle.node { try tree.focus(node) }
      let weakNodes = toolkit.allStorage.map { WeakNode($0.handle.node) }

      toolkit.change()
      let before = toolkit.evaluated
      toolkit.render(toolkit.app)
      skipped += toolkit.allStorage.count - (toolkit.evaluated - before)

      // Exactly what a whole declaration of the same state gives, from scratch.
      let expected = Node(declaring: toolkit.app.wholeDeclaration(seen: toolkit.seen)).snapshot()
      let actual = tree.root.snapshot()
      #expect(actual.nodes == expected.nodes, "step \(step)")
      #expect(tree.checkInvariants().isEmpty, "step \(step)")

      // Focus stays on the row while the row lives, else goes to its list.
      if let focusedRow, let node = focusedRow.handle.node, node.tree != nil {
        #expect(tree.focusedNode === node, "step \(step)")
      }
      // Nodes of views that went away are gone, not kept by a handle, the focus or a list.
      let live = Set(toolkit.allStorage.compactMap { $0.handle.node.map(ObjectIdentifier.init) })
      for weak in weakNodes {
        if let node = weak.node { #expect(live.contains(ObjectIdentifier(node)), "step \(step)") }
      }

      // Every trigger comes from the node of the view that sent it, to a handler with its state.
      if let row = toolkit.allStorage.filter({ $0.kind == .row }).randomElement(using: &toolkit.generator) {
        toolkit.seen.entries.removeAll()
        #expect(row.handle.triggerAction(Select()).handler === row.handle.node, "step \(step)")
        #expect(toolkit.seen.entries == [Seen(key: row.key, version: row.state[0])], "step \(step)")
      }
      toolkit.seen.entries.removeAll()
      tree.firstResponder.trigger(Save())
      #expect(toolkit.seen.entries == [Seen(key: -1, version: toolkit.app.state.count)], "step \(step)")
    }
    #expect(reported.isEmpty)
    // Most views were frozen at each step: only the changed one was evaluated.
    #expect(skipped > 1_000 * 5)
  }
}

/// A weak reference to a node, to check it was freed.
struct WeakNode {
  weak var node: Node?
  init(_ node: Node?) { self.node = node }
}
