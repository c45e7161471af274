import Actions
import TestSupport
import Testing
import ViewTree
import ViewTreeActions

/// What a node offers: one list, and the views that read it.
@Suite struct OfferedActionsTests {
  /// Counts validations per identifier, titled and described by its type, its state from `on`.
  final class Counter {
    var validations: [String: Int] = [:]
    var on: Set<String> = []
  }

  struct Counted: ManagedAction {
    let counter: Counter
    var title: String? { "Counted" }
    var summary: String? { "Counts its validations." }
    func validate(context: ActionContext) -> Validation {
      counter.validations[context.identifier.text, default: 0] += 1
      return Validation(state: counter.on.contains(context.identifier.text) ? .on : nil)
    }
    func perform(context: ActionContext) throws {}
  }

  struct Described: ManagedAction {
    var title: String? { "Save" }
    var summary: String? { "Writes the document to disk." }
    func perform(context: ActionContext) throws {}
  }

  struct Overriding: ManagedAction {
    var title: String? { "Static" }
    var summary: String? { "Static summary." }
    func validate(context: ActionContext) -> Validation {
      Validation(title: "Undo Typing", summary: "Removes what was typed.")
    }
    func perform(context: ActionContext) throws {}
  }

  /// A window with a manager, a button in a panel, and an editor inside the button.
  func makeTree(_ counter: Counter) throws -> NodeTree {
    let manager = ActionManager()
    try manager.register(Counted(counter: counter), as: "Save")
    try manager.register(Counted(counter: counter), as: "Zoom")
    try manager.register(Counted(counter: counter), as: "Find")
    try manager.register(Counted(counter: counter), as: "Lonely")
    let tree = NodeTree("window") {
      Node("menu") {
        Node("save").actionItem("Save")
        Node("zoom150").actionItem("Zoom(level: 150)")
      }
      Node("panel") {
        Node("button") {
          Node("editor").focusable()
            .bindKey("ctrl+s", to: "Save", shownAs: "⌘S")
            .bindKey("ctrl+f", to: "Find")
        }
        .actionItem("Find")
        .focusable()
      }
      .bindKey("ctrl+s", to: "Zoom(level: 150)")
      .bindKey("ctrl+k ctrl+s", to: "Save")
    }
    tree.root.actionManager(manager)
    try tree.focus(id: "editor")
    return tree
  }

  @Test func theListIsNearestFirstOneEntryPerActionWithEveryOffer() throws {
    let counter = Counter()
    let tree = try makeTree(counter)
    let list = tree.offeredActions()
    #expect(
      list.map(\.identifier) == [
        "Save", "Find", "Zoom(level: 150)", "focus.Next", "focus.Previous", "Lonely", "Redo", "Undo", "Zoom",
      ])
    // Save: the editor's ctrl+s, then the panel's sequence, then the manager.
    let save = try #require(list.first)
    #expect(save.offers.map(\.source) == [.binding, .binding, .manager])
    #expect(save.offers.map(\.node?.id) == ["editor", "panel", nil])
    #expect(save.keys?.description == "ctrl+s")
    #expect(save.node?.id == "editor")
    #expect(!save.isDefault)
    // Find: the editor's binding, then the button's item (an ancestor's), then the manager.
    #expect(list[1].offers.map(\.source) == [.binding, .item, .manager])
    #expect(list[1].offers[1].node?.id == "button")
    // The panel's ctrl+s is hidden by the editor's: kept, marked, and not the keys shown.
    let zoom = list[2]
    #expect(zoom.offers.map(\.isShadowed) == [true])
    #expect(zoom.offers[0].shadowedBy?.node?.id == "editor")
    #expect(zoom.keys == nil)
    #expect(zoom.actionIdentifier?.name == "Zoom")
    #expect(zoom.actionIdentifier?["level"] == .int(150))
    // Focus moves are the tree's defaults, on the root, always enabled.
    #expect(list[3].offers.map(\.source) == [.focusMove])
    #expect(list[3].offers[0].binding?.isDefault == true)
    #expect(list[3].validation.isEnabled && list[3].title == "Focus next")
    // What only the manager offers comes last, as it registers it.
    #expect(list[5].offers.map(\.source) == [.manager])
    #expect(list[5].node == nil && list[5].keys == nil)
    // One validation per action, titled and described by the action.
    #expect(counter.validations == ["Save": 1, "Find": 1, "Zoom(level: 150)": 1, "Lonely": 1, "Zoom": 1])
    #expect(save.title == "Counted" && save.summary == "Counts its validations.")
  }

  @Test func identifiersThatDifferOnlyInTheirPrefixAreOneEntry() throws {
    let counter = Counter()
    let manager = ActionManager()
    try manager.register(Counted(counter: counter), as: "Save")
    let tree = NodeTree("window") {
      Node("menu") { Node("save").actionItem("file.Save") }
      Node("editor").focusable().bindKey("ctrl+s", to: "menu.Save")
    }
    tree.root.actionManager(manager)
    try tree.focus(id: "editor")
    let save = tree.offeredActions(itemsIn: tree.node(id: "menu")).filter {
      $0.actionIdentifier?.name == "Save"
    }
    #expect(save.count == 1)
    #expect(save.first?.offers.map(\.source) == [.binding, .item, .manager])
    #expect(
      CommandPalette(from: try #require(tree.node(id: "editor"))).entries.filter { $0.title == "Counted" }
        .count == 1)
    // The menu shows the binding's keys on the item.
    #expect(tree.validateItems(in: tree.node(id: "menu")).map { $0.keys?.description } == ["ctrl+s"])
  }

  @Test func theDefaultComesFirstAndEnterJoinsIt() throws {
    let counter = Counter()
    let tree = try makeTree(counter)
    let list = tree.offeredActions(at: tree.node(id: "button"), includingRegistered: false)
    let find = try #require(list.first)
    #expect(find.identifier == "Find" && find.isDefault)
    // The button's own item, then Enter's default binding to `item.Activate`, which performs it.
    #expect(find.offers.map(\.source) == [.item, .binding])
    #expect(find.offers[1].binding?.identifier.text == "item.Activate")
    #expect(find.offers[1].binding?.keys.description == "enter")
    #expect(find.keys?.description == "enter")
    #expect(list.dropFirst().allSatisfy { !$0.isDefault })
    // The editor is not an item: nothing is its default, and Enter is not in effect there.
    let fromEditor = tree.offeredActions(includingRegistered: false)
    #expect(fromEditor.allSatisfy { !$0.isDefault })
    #expect(!fromEditor.contains { $0.offers.contains { $0.binding?.keys.description == "enter" } })
  }

  @Test func statesAndMenusComeFromTheList() throws {
    let counter = Counter()
    counter.on = ["Zoom(level: 150)"]
    let tree = try makeTree(counter)
    let list = tree.offeredActions(itemsIn: tree.node(id: "menu"), includingRegistered: false)
    // The menu's items come after the path, depth-first; Save joins its binding's entry.
    let zoom = try #require(list.first { $0.identifier == "Zoom(level: 150)" })
    #expect(zoom.validation.state == .on)
    #expect(zoom.offers.map(\.source) == [.binding, .item])
    #expect(list.first { $0.identifier == "Save" }?.offers.map(\.source) == [.binding, .binding, .item])
    // The menu is a view of that list: its rows are the same entries, with the item as node.
    let items = tree.validateItems(in: tree.node(id: "menu"))
    #expect(items.map(\.node?.id) == ["save", "zoom150"])
    for item in items {
      let entry = try #require(list.first { $0.identifier == item.identifier })
      #expect(item.validation == entry.validation)
      #expect(item.keys == entry.keys)
      #expect(item.offers.map(\.source) == entry.offers.map(\.source))
    }
    // The shortcut a menu shows for Save: the editor's, as its binding shows it.
    #expect(items[0].formattedKeys(.display) == "⌘S")
  }

  @Test func theFooterThePaletteAndWhichKeyAreViewsOfTheList() throws {
    let counter = Counter()
    let tree = try makeTree(counter)
    let editor = try #require(tree.node(id: "editor"))
    let list = tree.offeredActions(at: editor)
    func entry(_ identifier: String) throws -> ActionEntry {
      try #require(list.first { $0.identifier == identifier })
    }

    let footer = editor.bindingsInEffect()
    #expect(
      footer.map { "\($0.keys!) \($0.identifier)" } == [
        "ctrl+s Save", "ctrl+f Find", "ctrl+s Zoom(level: 150)", "ctrl+k ctrl+s Save", "tab focus.Next",
        "shift+tab focus.Previous",
      ])
    #expect(footer.map { $0.shadowedBy?.node?.id } == [nil, nil, "editor", nil, nil, nil])
    for row in footer { #expect(row.validation == (try entry(row.identifier)).validation) }
    #expect(footer[0].description == "⌘S  Counted")
    #expect(footer[3].description == "ctrl+k ctrl+s  Counted")
    #expect(editor.bindingsInEffect(includingShadowed: false).count == 5)

    let palette = CommandPalette(from: editor)
    #expect(
      palette.entries.map(\.identifier).sorted() == [
        "Find", "Lonely", "Redo", "Save", "Undo", "Zoom", "Zoom(level: 150)",
      ])
    for item in palette.entries {
      let listed = try entry(item.identifier)
      #expect(item.validation == listed.validation && item.keys == listed.keys)
    }

    counter.validations = [:]
    guard case .pending(let pending) = editor.handleKey(KeyChord(.character("k"), modifiers: .control)) else {
      Issue.record("ctrl+k is not pending")
      return
    }
    let continuations = pending.validatedContinuations()
    #expect(continuations.map(\.identifier) == ["Save"])
    #expect(continuations.first?.keys?.description == "ctrl+k ctrl+s")
    #expect(continuations.first?.node?.id == "panel")
    #expect(continuations.first?.validation == (try entry("Save")).validation)
    tree.cancelPendingKeys()
  }

  @Test func titlesAndSummariesAreStaticOrFromValidation() throws {
    let manager = ActionManager()
    try manager.register(Described())
    try manager.register(Overriding())
    #expect(
      manager.validate("Described") == Validation(title: "Save", summary: "Writes the document to disk."))
    #expect(manager.validate("Overriding").title == "Undo Typing")
    #expect(manager.validate("Overriding").summary == "Removes what was typed.")
    // Unknown identifiers stay unavailable, with nothing to describe them.
    #expect(manager.validate("Unknown") == .unavailable)
  }

  @Test(arguments: [
    ("ctrl+s", "ctrl+s", "Control+S", "<Control>s"),
    ("ctrl+shift+s", "ctrl+shift+s", "Control+Shift+S", "<Control><Shift>s"),
    ("S", "shift+s", "Shift+S", "<Shift>s"),
    ("alt+meta+f12", "alt+meta+f12", "Alt+Meta+F12", "<Alt><Meta>F12"),
    ("space", "space", "Space", "space"),
    ("ctrl+plus", "ctrl+plus", "Control+Plus", "<Control>plus"),
    ("enter", "enter", "Enter", "Return"),
    ("pageup", "pageup", "PageUp", "Page_Up"),
    ("up", "up", "ArrowUp", "Up"),
    ("backspace", "backspace", "Backspace", "BackSpace"),
    ("ctrl+;", "ctrl+;", "Control+;", "<Control>semicolon"),
    ("shift+:", "shift+:", "Shift+:", "<Shift>colon"),
    ("é", "é", "É", "é"),
  ])
  func oneFormatterWritesEveryNotation(text: String, display: String, aria: String, atspi: String) throws {
    let keys = try KeySequence(parsing: text)
    #expect(keys.formatted(.display) == display)
    #expect(keys.formatted(.aria) == aria)
    #expect(keys.formatted(.atspi) == atspi)
  }

  @Test func aSequenceHasNoARIAFormAndIsAnATSPISequence() throws {
    let keys = try KeySequence(parsing: "ctrl+k ctrl+s")
    #expect(keys.formatted(.aria) == nil)
    #expect(keys.formatted(.atspi) == "<Control>k:<Control>s")

    let counter = Counter()
    let tree = try makeTree(counter)
    let save = try #require(tree.offeredActions().first)
    #expect(save.formattedKeys(.display) == "⌘S")
    #expect(save.formattedKeys(.aria) == "Control+S")
    #expect(save.formattedKeys(.atspi) == ";<Control>k:<Control>s;<Control>s")
    // Zoom's only binding is hidden: no key reaches it.
    let zoom = try #require(tree.offeredActions().first { $0.identifier.hasPrefix("Zoom") })
    #expect(zoom.formattedKeys(.display) == nil && zoom.formattedKeys(.aria) == nil)
    #expect(zoom.formattedKeys(.atspi) == nil)
    // An entry made for a palette formats its own keys.
    let made = ActionEntry(identifier: "X", validation: .enabled, keys: try KeySequence(parsing: "f2"))
    #expect(made.formattedKeys(.aria) == "F2" && made.formattedKeys(.atspi) == ";;F2")
    #expect(made.offers.isEmpty && made.actionIdentifier?.name == "X")
  }

  @Test func performingAnEntryGoesThroughTheChain() throws {
    let counter = Counter()
    let tree = try makeTree(counter)
    var seen: [String] = []
    tree.node(id: "panel")?.captureAction((any ManagedActionRequest).self) { request in
      seen.append(request.identifier)
      return .unhandled
    }
    let zoom = try #require(tree.offeredActions().first { $0.identifier.hasPrefix("Zoom") })
    #expect(tree.firstResponder.perform(zoom.identifier).isPerformed)
    #expect(seen.last == "Zoom(level: 150)")
  }
}

/// What no list should trip over.
@Suite struct OfferedActionsHostileInputTests {
  @Test(.stress) func tenThousandBindingsAndActionsOnOnePathAreListedOnceEach() throws {
    let counter = OfferedActionsTests.Counter()
    let manager = ActionManager()
    try manager.register(OfferedActionsTests.Counted(counter: counter), as: "Command")
    // A path 100 nodes deep with 100 bindings each (a node's own bindings are checked against
    // each other as they are declared); the upper 50 nodes bind the lower 50's keys again.
    let letters = Array("abcdefghijklmnopqrst")
    func keys(_ index: Int) -> String {
      "\(letters[index / 400]) \(letters[index / 20 % 20]) \(letters[index % 20])"
    }
    var node = Node("leaf").focusable()
    for depth in 0..<100 {
      if depth > 0 { node = Node("n\(depth)") { node } }
      for binding in 0..<100 {
        node = node.bindKey(keys(depth % 50 * 100 + binding), to: "Command(n: \(depth * 100 + binding))")
      }
    }
    let middle = node
    let tree = NodeTree("root") { middle }
    tree.root.actionManager(manager)
    try tree.focus(id: "leaf")
    let list = tree.offeredActions(includingRegistered: false)
    // Ten thousand actions, the focus moves, each validated once; the upper half's keys hidden.
    #expect(list.count == 10_002)
    #expect(counter.validations.count == 10_000 && counter.validations.values.allSatisfy { $0 == 1 })
    #expect(list[5_000..<10_000].allSatisfy { $0.offers.first?.isShadowed == true && $0.keys == nil })
    #expect(tree.firstResponder.bindingsInEffect(includingShadowed: false).count == 5_002)
  }

  @Test func aValidationThatChangesStateOrRedeclaresTheTreeDoesNotChangeTheListBeingBuilt() throws {
    final class Flip {
      var count = 0
    }
    struct Redeclaring: ManagedAction {
      let flip: Flip
      let tree: () -> NodeTree?
      let manager: () -> ActionManager?
      func validate(context: ActionContext) -> Validation {
        flip.count += 1
        // Each validation re-declares the window, with a new sibling each time, and flips a state.
        if let manager = manager() {
          tree()?.update(
            to: NodeDeclaration("window") {
              NodeDeclaration("editor").focusable().bindKey("a", to: "A")
              NodeDeclaration("sibling\(flip.count)").bindKey("x", to: "Other")
            }
            .actionManager(manager))
        }
        return Validation(state: flip.count.isMultiple(of: 2) ? .on : .off)
      }
      func perform(context: ActionContext) throws {}
    }
    let flip = Flip()
    let manager = ActionManager()
    weak var weakTree: NodeTree?
    weak var weakManager: ActionManager?
    weakManager = manager
    try manager.register(Redeclaring(flip: flip, tree: { weakTree }, manager: { weakManager }), as: "A")
    try manager.register(Redeclaring(flip: flip, tree: { weakTree }, manager: { weakManager }), as: "B")
    let tree = NodeTree("window") {
      Node("editor").focusable().bindKey("a", to: "A").bindKey("b", to: "B")
    }
    weakTree = tree
    tree.root.actionManager(manager)
    try tree.focus(id: "editor")
    let editor = try #require(tree.node(id: "editor"))
    let list = tree.offeredActions(at: editor, includingRegistered: false)
    // The list is what the path offered when the call began, each validated once.
    #expect(list.map(\.identifier) == ["A", "B", "focus.Next", "focus.Previous"])
    #expect(list.map(\.validation.state) == [.off, .on, nil, nil])
    // The tree changed under it: the editor no longer binds `b`.
    #expect(editor.keyBindings.map(\.identifier.text) == ["A"])
    #expect(list[0].offers.first?.node === editor)
    #expect(flip.count == 2)
  }

  @Test func argumentsOfAnUnexpectedTypeAndIdentifiersThatDoNotParseAreListed() throws {
    struct ZoomAction: ManagedAction {
      func validate(context: ActionContext) -> Validation {
        // A level that is not an integer: the action says so, rather than trap.
        guard case .int = context.identifier["level"] else { return .disabled }
        return .enabled
      }
      func perform(context: ActionContext) throws {}
    }
    let manager = ActionManager()
    try manager.register(ZoomAction(), as: "Zoom")
    let tree = NodeTree("root") {
      Node("menu") {
        Node("big").actionItem(#"Zoom(level: "big")"#)
        Node("broken").actionItem("Zoom(level: ")
        Node("fine").actionItem("Zoom(level: 2)")
      }
    }
    tree.root.actionManager(manager)
    let items = tree.validateItems()
    #expect(items.map(\.validation.isEnabled) == [false, false, true])
    #expect(items.map(\.validation.isVisible) == [true, false, true])
    #expect(items[0].actionIdentifier?["level"] == .string("big"))
    #expect(items[1].actionIdentifier == nil)
    #expect(items[2].actionIdentifier?.arguments.count == 1)
  }
}
