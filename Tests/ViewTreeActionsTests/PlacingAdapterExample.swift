import Actions
import TestSupport
import Testing
@_spi(Invariants) import ViewTree
import ViewTreeActions

// The third adapter of the article "Integrating a declarative toolkit", for toolkits whose views
// know their parent (through the environment) but whose parents cannot list their child views.
// A miniature toolkit shaped like such a toolkit runs it below; `theArticleShowsThisAdapter`
// checks that the article shows exactly the code between the markers.

// placing-adapter:begin
/// The toolkit's environment key that hands a view its parent view's handle (computed: a stored
/// `static let` of a non-`Sendable` type is an error in Swift 6).
enum ParentHandleKey {
  static var defaultValue: NodeHandle? { nil }
}

/// The responder tree of one window, in which each view's node places itself.
final class PlacingResponderGraph {
  let rootHandle = NodeHandle()
  let tree: NodeTree

  init() {
    tree = NodeTree(declaring: NodeDeclaration().bound(to: rootHandle))
    tree.onProblem = { problem, node in print("responder: \(node.path): \(problem)") }
  }

  /// After a view's `body` ran (`node`), before its children exist, or when it moved without
  /// running (`nil`): `order` is its position in its parent's content, a row's index included.
  func viewDidUpdate(
    _ node: NodeDeclaration?, handle: NodeHandle, parent: NodeHandle?, order: PlacementOrder
  ) {
    if let node { handle.update(to: node) }
    handle.place(in: parent ?? rootHandle, order: order)
  }

  /// The toolkit hides a branch it keeps (a stack's other page), shows it, or removes the view.
  func visibilityChanged(_ handle: NodeHandle, isVisible: Bool) { handle.isActive = isVisible }
  func viewDidDisappear(_ handle: NodeHandle) { handle.detach() }
}
// placing-adapter:end

/// A miniature toolkit shaped like a real SwiftUI-like one: a view's `body` runs before the views
/// inside it exist; a view learns its parent only through an environment value; no parent ever
/// lists its children; rows carry ids and are inserted, removed and shuffled; a stack keeps its
/// pages and shows one; views whose state did not change are not evaluated again; and removed
/// views are kept alive on purpose (a strong parent link, as the real toolkit has), the adapter
/// told only that they disappeared.
@Suite struct PlacingToolkitTests {
  struct Select: Action {}
  struct Save: Action {}

  enum Kind: Equatable { case app, header, banner, list, row, stack, page, field }

  /// What the views read.
  struct Model {
    var banner = false
    var rows = [1, 2, 3]
    var versions: [Int: Int] = [:]
    var page = 0
  }

  /// What a handler saw.
  struct Seen: Equatable {
    var key: Int
    var version: Int
  }

  /// The toolkit's record of one view, kept across renders by identity (kind and key).
  final class Record {
    let kind: Kind
    let key: Int
    let handle = NodeHandle()
    /// Strong, as the real toolkit's: a removed record kept by anyone keeps its parent.
    var parent: Record?
    var children: [Record] = []
    var order: PlacementOrder = []
    var isVisible = true
    var isDirty = true

    init(_ kind: Kind, key: Int) {
      self.kind = kind
      self.key = key
    }
  }

  final class Toolkit {
    let graph = PlacingResponderGraph()
    var model = Model()
    let app = Record(.app, key: 0)
    var leaked: [Record] = []
    var seen: [Seen] = []
    var generator = SplitMix64(seed: 11)
    var nextKey = 100
    var evaluated = 0

    /// A view's body: its own node, from the model. (Its child views are not in it; `children`
    /// is for the whole declaration the tests compare with.)
    func body(_ record: Record, children: [NodeDeclaration] = []) -> NodeDeclaration {
      let key = record.key
      switch record.kind {
      case .app:
        let banner = model.banner ? 1 : 0
        return NodeDeclaration("app") { for child in children { child } }
          .handleAction(Save.self) { [unowned self] _ in seen.append(Seen(key: -1, version: banner)) }
      case .header: return NodeDeclaration("header") { for child in children { child } }
      case .banner:
        return NodeDeclaration("banner") { for child in children { child } }.handleAction(Select.self) { _ in
        }
      case .list: return NodeDeclaration("list") { for child in children { child } }.onAction { _ in }
      case .row:
        let version = model.versions[key, default: 0]
        return NodeDeclaration("row\(key)") { for child in children { child } }.focusable()
          .handleAction(Select.self) { [unowned self] _ in seen.append(Seen(key: key, version: version)) }
      case .stack: return NodeDeclaration("stack") { for child in children { child } }
      case .page: return NodeDeclaration("page\(key)") { for child in children { child } }.focusScope()
      case .field: return NodeDeclaration("field\(key)") { for child in children { child } }.focusable()
      }
    }

    /// The views in a view's content, with their positions: what its body's content holds.
    func content(of record: Record) -> [(kind: Kind, key: Int, order: PlacementOrder)] {
      switch record.kind {
      case .app:
        var views: [(Kind, Int, PlacementOrder)] = [(.header, 0, [0])]
        if model.banner { views.append((.banner, 0, [1])) }
        views.append((.list, 0, [2]))
        views.append((.stack, 0, [3]))
        return views
      case .list: return model.rows.enumerated().map { (.row, $0.element, [0, $0.offset]) }
      case .stack: return [(.page, 0, [0]), (.page, 1, [1])]
      case .page: return [(.field, record.key, [0])]
      case .header, .banner, .row, .field: return []
      }
    }

    /// What the toolkit passes down through a view's content: here, only the parent's handle.
    struct Environment {
      var parentHandle = ParentHandleKey.defaultValue
    }

    /// Evaluates `record` if it is dirty (its body first, then its content), and its children;
    /// `environment` is what the views around it passed down.
    func render(_ record: Record, _ environment: Environment = Environment()) {
      var inner = environment
      inner.parentHandle = record.handle
      if record.isDirty {
        evaluated += 1
        graph.viewDidUpdate(
          body(record), handle: record.handle, parent: environment.parentHandle, order: record.order)
        record.isDirty = false
        var old = record.children
        record.children = content(of: record).map { item in
          if let index = old.firstIndex(where: { $0.kind == item.kind && $0.key == item.key }) {
            let child = old.remove(at: index)
            if child.order != item.order {
              child.order = item.order
              graph.viewDidUpdate(nil, handle: child.handle, parent: inner.parentHandle, order: item.order)
            }
            return child
          }
          let child = Record(item.kind, key: item.key)
          child.parent = record
          child.order = item.order
          return child
        }
        for gone in old { disappear(gone) }
      }
      for child in record.children {
        render(child, inner)
        if child.kind == .page {
          let isVisible = child.key == model.page
          if child.isVisible != isVisible {
            child.isVisible = isVisible
            graph.visibilityChanged(child.handle, isVisible: isVisible)
          }
        }
      }
    }

    /// Lets go of everything: the records' links, the leaked ones' included, which hold one
    /// another in cycles.
    func tearDown() {
      for record in records + leaked {
        record.parent = nil
        record.children = []
      }
      leaked = []
    }

    /// The toolkit removes a view: the adapter is told, the object is kept.
    func disappear(_ record: Record) {
      for child in record.children { disappear(child) }
      graph.viewDidDisappear(record.handle)
      leaked.append(record)
    }

    var records: [Record] {
      var result: [Record] = []
      var stack = [app]
      while let record = stack.popLast() {
        result.append(record)
        stack.append(contentsOf: record.children)
      }
      return result
    }

    /// The views shown, declared as one tree from scratch: what the live tree must equal.
    func shown(_ record: Record) -> NodeDeclaration {
      body(record, children: record.children.filter { $0.kind != .page || $0.key == model.page }.map(shown))
    }

    func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }

    /// One random change of the model, marking dirty only the views that read what changed.
    func change() {
      let list = records.first { $0.kind == .list }!
      switch random(7) {
      case 0:
        model.banner.toggle()
        app.isDirty = true
      case 1 where !model.rows.isEmpty:
        model.rows.remove(at: random(model.rows.count))
        list.isDirty = true
      case 2:
        nextKey += 1
        model.rows.insert(nextKey, at: random(model.rows.count + 1))
        list.isDirty = true
      case 3:
        model.rows.shuffle(using: &generator)
        list.isDirty = true
      case 4:
        model.page = 1 - model.page
        records.first { $0.kind == .stack }!.isDirty = true
      default:
        guard let row = records.filter({ $0.kind == .row }).randomElement(using: &generator) else { return }
        model.versions[row.key, default: 0] += 1
        row.isDirty = true
      }
    }
  }

  @Test func theArticleShowsThisAdapter() throws {
    try expectReadmeShows(
      marker: "placing-adapter", imports: ["import ViewTree"],
      document: "Sources/ViewTree/ViewTree.docc/IntegratingADeclarativeToolkit.md")
  }

  @Test(.stress) func aThousandRandomChangesKeepTheTreeExactlyWhatIsShown() throws {
    var weakNodes: [WeakBox<Node>] = []
    var weakHandles: [WeakBox<NodeHandle>] = []
    var reported: [String] = []
    var frozen = 0
    do {
      let toolkit = Toolkit()
      let tree = toolkit.graph.tree
      tree.onProblem = { problem, node in reported.append("\(node.path): \(problem)") }
      toolkit.render(toolkit.app)
      for step in 0..<1_000 {
        // A visible row takes focus by its handle, which reaches the tree itself.
        weak let focusedRow = toolkit.records.filter { $0.kind == .row }.randomElement(
          using: &toolkit.generator)
        if let focusedRow { try focusedRow.handle.focus() }

        toolkit.change()
        let before = toolkit.evaluated
        toolkit.render(toolkit.app)
        frozen += toolkit.records.count - (toolkit.evaluated - before)

        // Exactly the views shown, as a whole declaration from scratch gives them.
        let expected = Node(declaring: NodeDeclaration { toolkit.shown(toolkit.app) }).snapshot()
        let actual = tree.root.snapshot(includingInactive: false)
        #expect(actual.nodes == expected.nodes, "step \(step)")
        #expect(tree.checkInvariants().isEmpty, "step \(step)")
        // A row that is still there keeps the focus.
        if let focusedRow, toolkit.records.contains(where: { $0 === focusedRow }) {
          #expect(tree.focusedNode === focusedRow.handle.node, "step \(step)")
        }
        // Each trigger comes from its own view's node, to a handler with the latest state.
        if let row = toolkit.records.filter({ $0.kind == .row }).randomElement(using: &toolkit.generator) {
          toolkit.seen.removeAll()
          #expect(row.handle.triggerAction(Select()).handler === row.handle.node, "step \(step)")
          #expect(
            toolkit.seen == [Seen(key: row.key, version: toolkit.model.versions[row.key, default: 0])],
            "step \(step)")
        }
        // The removed views are kept, but not their nodes' places in the chain.
        for record in toolkit.leaked {
          #expect(record.handle.node?.tree == nil, "step \(step)")
        }
        // From the focus, if any; the app's handler has the state the app read.
        toolkit.seen.removeAll()
        (tree.focusedNode ?? toolkit.app.handle.node)?.trigger(Save())
        #expect(toolkit.seen == [Seen(key: -1, version: toolkit.model.banner ? 1 : 0)], "step \(step)")
      }
      // Hidden pages kept their nodes and what their scopes remember: shown again, a page's
      // field is where it was.
      for record in toolkit.records + toolkit.leaked {
        weakHandles.append(WeakBox(record.handle))
        if let node = record.handle.node { weakNodes.append(WeakBox(node)) }
      }
      #expect(weakNodes.count > 20)
      toolkit.tearDown()
    }
    // The toolkit let go of everything, the leaked views included: nothing is left.
    #expect(weakNodes.allSatisfy { $0.value == nil })
    #expect(weakHandles.allSatisfy { $0.value == nil })
    #expect(reported.isEmpty)
    // Most views were frozen at each step.
    #expect(frozen > 1_000 * 8)
  }

  @Test func aHiddenPageKeepsItsFocusMemoryAndKeys() throws {
    let toolkit = Toolkit()
    // The records keep each other, as the real toolkit's do: let go of them at the end.
    defer { toolkit.tearDown() }
    toolkit.render(toolkit.app)
    let tree = toolkit.graph.tree
    let pages = toolkit.records.filter { $0.kind == .page }
    let fields = toolkit.records.filter { $0.kind == .field }
    try #require(pages.count == 2 && fields.count == 2)
    let field0 = try #require(fields.first { $0.key == 0 })
    try field0.handle.focus()
    // Page 1 is shown: page 0 hides, and the focus leaves it.
    toolkit.model.page = 1
    toolkit.records.first { $0.kind == .stack }!.isDirty = true
    toolkit.render(toolkit.app)
    #expect(tree.focusedNode == nil)
    #expect(throws: ViewTreeError.self) { try field0.handle.focus() }
    // Shown again: entering the page finds the field it remembers.
    toolkit.model.page = 0
    toolkit.records.first { $0.kind == .stack }!.isDirty = true
    toolkit.render(toolkit.app)
    try pages.first { $0.key == 0 }!.handle.focus()
    #expect(tree.focusedNode === field0.handle.node)
  }
}

@Suite struct HandlePerformTests {
  struct Count: ManagedAction {
    let counter: Counter
    func validate(context: ActionContext) -> Validation { Validation(title: "Count") }
    func perform(context: ActionContext) throws {
      counter.senders.append((context.sender as? Node)?.id ?? "?")
    }
  }
  final class Counter { var senders: [String] = [] }

  @Test func aViewPerformsAndActivatesThroughItsHandleAlone() throws {
    let counter = Counter()
    let manager = ActionManager()
    try manager.register(Count(counter: counter))
    let window = NodeHandle()
    let tree = NodeTree(declaring: NodeDeclaration("window").actionManager(manager).bound(to: window))
    let button = NodeHandle()
    // Before the view declares itself, nothing is performed and the reason says why.
    guard case .unanswered(.notDispatched(.handleHasNoNode)) = button.perform("Count") else {
      Issue.record("a handle with no node performed")
      return
    }
    button.update(to: NodeDeclaration("button").actionItem("Count"))
    button.place(in: window)
    #expect(button.perform("Count").isPerformed)
    #expect(try button.activate().isPerformed)
    #expect(counter.senders == ["button", "button"])
    // Hidden, the view's node is out of every dispatch.
    button.isActive = false
    guard case .unanswered(.notDispatched(.inactive)) = try button.activate() else {
      Issue.record("an inactive item was activated")
      return
    }
    button.isActive = true
    let label = NodeHandle()
    label.update(to: NodeDeclaration("label"))
    label.place(in: window)
    #expect(throws: ViewTreeActionsError.notAnItem(node: "window/label")) { try label.activate() }
    #expect(tree.checkInvariants().isEmpty)
  }
}

/// A weak reference, to check that something was freed.
struct WeakBox<Value: AnyObject> {
  weak var value: Value?
  init(_ value: Value) { self.value = value }
}
