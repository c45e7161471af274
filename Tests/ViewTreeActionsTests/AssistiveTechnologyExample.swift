import Actions
import Foundation
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

// How a toolkit answers AT-SPI2's `Action` interface and fills AccessKit's node actions from what
// a node offers, with no D-Bus or AccessKit dependency: the toolkit's bridge calls these.
// `theArticleShowsThisMapping` checks that the article shows exactly the code between the markers.

// assistive-technology:begin
/// What an adapter answers for AT-SPI2's `org.a11y.atspi.Action` interface on one object: the
/// visible actions its node offers, the default first (action 0), focus moves left out.
struct ATSPIActions {
  let tree: NodeTree
  let node: Node
  let entries: [ActionEntry]

  init(tree: NodeTree, node: Node) {
    self.tree = tree
    self.node = node
    entries = tree.offeredActions(at: node, includingRegistered: false).filter { entry in
      entry.validation.isVisible && entry.offers.contains { $0.source != .focusMove }
    }
  }

  /// `NActions`.
  var count: Int32 { Int32(entries.count) }

  /// `GetName`: "click" for the default, as toolkits name it; otherwise the identifier.
  func name(_ index: Int32) -> String {
    entry(index).map { $0.isDefault ? "click" : $0.identifier } ?? ""
  }

  /// `GetLocalizedName`: the title the menu shows.
  func localizedName(_ index: Int32) -> String { entry(index)?.title ?? "" }

  /// `GetDescription`: the action's one sentence.
  func description(_ index: Int32) -> String { entry(index)?.summary ?? "" }

  /// `GetKeyBinding`: `"mnemonic;sequence;shortcut"`.
  func keyBinding(_ index: Int32) -> String { entry(index)?.formattedKeys(.atspi) ?? "" }

  /// `DoAction`: performs through the chain, as the key or the click would; `false` when the
  /// action is disabled, did not run, or the index is out of range.
  func doAction(_ index: Int32) -> Bool {
    guard let entry = entry(index), entry.validation.isEnabled else { return false }
    guard entry.isDefault else { return node.perform(entry.identifier).isPerformed }
    do {
      return try tree.activate(node).isPerformed
    } catch {
      // The default is an item's activation, so the node is an item: this is a bug to see.
      assertionFailure("DoAction(\(index)): \(error)")
      return false
    }
  }

  /// A D-Bus caller may send any index.
  private func entry(_ index: Int32) -> ActionEntry? {
    entries.indices.contains(Int(index)) ? entries[Int(index)] : nil
  }
}

/// What a toolkit puts on an AccessKit node: `Action::Click` for the default, and a custom action
/// (an id and a description) for every other enabled action the node offers.
struct AccessKitActions {
  struct Custom: Equatable {
    let id: Int32
    let description: String
  }

  var click: String?
  var custom: [Custom] = []

  init(_ entries: [ActionEntry]) {
    for (index, entry) in entries.enumerated() where entry.validation.isEnabled {
      let keys = entry.formattedKeys(.display).map { " (\($0))" } ?? ""
      if entry.isDefault {
        click = entry.identifier
      } else {
        custom.append(Custom(id: Int32(index), description: entry.title + keys))
      }
    }
  }
}
// assistive-technology:end

@Suite struct AssistiveTechnologyExampleTests {
  struct Saving: ManagedAction {
    let saved: () -> Void
    var title: String? { "Save" }
    var summary: String? { "Writes the document to disk." }
    func perform(context: ActionContext) throws { saved() }
  }

  struct Closing: ManagedAction {
    var title: String? { "Close" }
    func validate(context: ActionContext) -> Validation { .disabled }
    func perform(context: ActionContext) throws {}
  }

  @Test func anAdapterIsAThinMapping() throws {
    var saves = 0
    let manager = ActionManager()
    try manager.register(Saving { saves += 1 }, as: "Save")
    try manager.register(Closing(), as: "Close")
    let tree = NodeTree("window") {
      Node("toolbar") {
        Node("save").actionItem("Save").focusable()
          .bindKey("ctrl+w", to: "Close")
      }
      .bindKey("ctrl+s", to: "Save")
      .bindKey("ctrl+k ctrl+s", to: "Save")
    }
    tree.root.actionManager(manager)
    let save = try #require(tree.node(id: "save"))

    let atspi = ATSPIActions(tree: tree, node: save)
    #expect(atspi.count == 2)
    #expect((0..<atspi.count).map(atspi.name) == ["click", "Close"])
    #expect((0..<atspi.count).map(atspi.localizedName) == ["Save", "Close"])
    #expect(atspi.description(0) == "Writes the document to disk.")
    #expect(atspi.keyBinding(0) == ";<Control>k:<Control>s;<Control>s")
    #expect(atspi.keyBinding(1) == ";;<Control>w")
    #expect(atspi.doAction(0) && saves == 1)
    // Disabled, and out of range: refused, nothing performed, nothing trapped.
    #expect(!atspi.doAction(1) && !atspi.doAction(2) && !atspi.doAction(-1))
    #expect(atspi.name(7) == "" && atspi.keyBinding(-3) == "")
    #expect(saves == 1)

    let accessKit = AccessKitActions(atspi.entries)
    #expect(accessKit.click == "Save")
    #expect(accessKit.custom.isEmpty)
    let fromToolbar = AccessKitActions(
      tree.offeredActions(at: tree.node(id: "toolbar"), includingRegistered: false))
    #expect(fromToolbar.click == nil)
    #expect(
      fromToolbar.custom.map(\.description) == [
        "Save (ctrl+s)", "Focus next (tab)", "Focus previous (shift+tab)",
      ])
  }

  @Test func theArticleShowsThisMapping() throws {
    try expectReadmeShows(
      marker: "assistive-technology", imports: ["import ViewTree", "import ViewTreeActions"],
      document: "Sources/ViewTreeActions/ViewTreeActions.docc/MenusFootersAndAssistiveTechnology.md")
  }
}
