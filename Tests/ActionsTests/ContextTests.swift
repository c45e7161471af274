import Actions
import TestSupport
import Testing

@Suite struct ContextTests {
  @Test func senderIsExplicitOrTheManager() throws {
    let manager = ActionManager()
    let button = "the button"
    #expect(try manager.makeContext(for: "Save", sender: button).sender as? String == "the button")
    #expect(try manager.makeContext(for: "Save").sender as? ActionManager === manager)
  }

  @Test func aRecycledContextForgetsTheLastSender() throws {
    let manager = ActionManager()
    var senders: [String] = []
    try manager.register(SenderRecorder { senders.append($0) })
    manager.perform("SenderRecorder", sender: "the button")
    manager.perform("SenderRecorder")
    manager.perform("SenderRecorder", sender: 7)
    manager.perform("SenderRecorder")
    #expect(senders == ["the button", "manager", "7", "manager"])
  }

  @Test func aContextKeepsItsManagerAsSenderAndDoesNotLeakIt() throws {
    weak var weakManager: ActionManager?
    var context: ActionContext?
    do {
      let manager = ActionManager()
      weakManager = manager
      try manager.register(SaveDocumentAction(recorder: Log()))
      manager.perform("SaveDocument")  // leaves a spare context with the manager
      context = try manager.makeContext(for: "SaveDocument")
    }
    #expect(context?.sender as? ActionManager === weakManager)
    #expect(weakManager != nil)
    context = nil
    #expect(weakManager == nil)
  }

  @Test func aContextAnActionKeepsKeepsTheManagerAliveAsItsSender() throws {
    // A context that outlives the perform keeps its manager, its default sender.
    weak var weakManager: ActionManager?
    var kept: [ActionContext] = []
    do {
      let manager = ActionManager()
      weakManager = manager
      try manager.register(ContextKeeper { kept.append($0) })
      manager.perform("ContextKeeper")
      manager.perform("ContextKeeper", sender: "the button")
      manager.perform("ContextKeeper")
    }
    #expect(kept.count == 3)
    #expect(weakManager != nil)
    #expect(kept[0].sender as? ActionManager === weakManager)
    #expect(kept[1].sender as? String == "the button")
    #expect(kept[2].sender as? ActionManager === weakManager)
    #expect(kept[0] !== kept[2])
    kept.removeAll()
    #expect(weakManager == nil)
  }

  @Test func aReusedContextReachedAfterItsManagerIsGoneDoesNotTrap() throws {
    // The manager holds the context it reuses, and the context holds it weakly. A caller that
    // kept only a weak reference during the perform and upgrades it later holds that spare; once
    // the manager is gone, its default sender is nothing, not a trap.
    weak var seen: ActionContext?
    var upgraded: ActionContext?
    weak var weakManager: ActionManager?
    do {
      let manager = ActionManager()
      weakManager = manager
      try manager.register(ContextKeeper { seen = $0 })
      manager.perform("ContextKeeper")
      upgraded = seen
    }
    #expect(weakManager == nil)
    let context = try #require(upgraded)
    #expect(context.sender is ActionManager == false)
    #expect(context.identifier.name == "ContextKeeper")
  }

  @Test func identifierArgumentsLandInTheContext() throws {
    let manager = ActionManager()
    let recorder = Log()
    try manager.register(SetColorAction(recorder: recorder))
    let context = try manager.makeContext(for: #"color.SetColor("color": "red", "size": 3)"#)
    #expect(context.identifier.name == "SetColor")
    #expect(context.value(forKey: "color", as: String.self) == "red")
    #expect(context.value(forKey: "size", as: Int.self) == 3)
    #expect(context.value(forKey: "size", as: Double.self) == 3.0)
    manager.perform(#"color.SetColor("color": "red", "size": 3)"#)
    manager.perform("SetColor(color: blue, size: 12)")
    #expect(recorder.entries == ["color red size 3", "color blue size 12"])
  }

  @Test func typedKeysHaveDefaults() throws {
    let context = try ActionManager().makeContext(for: "X")
    #expect(context[DocumentNameKey.self] == "Untitled")
    #expect(context.contains(DocumentNameKey.self) == false)
    context[DocumentNameKey.self] = "Report"
    #expect(context[DocumentNameKey.self] == "Report")
    #expect(context.contains(DocumentNameKey.self))
  }

  @Test func readingAKeyWithTheWrongTypeIsAClearMiss() throws {
    let context = try ActionManager().makeContext(for: "X(n: 3)")
    context.set("text", forKey: "name")
    #expect(context.value(forKey: "name", as: Int.self) == nil)
    guard case .wrongType(let found) = context.lookup("name", as: Int.self) else {
      Issue.record("expected wrongType")
      return
    }
    #expect(ObjectIdentifier(found) == ObjectIdentifier(String.self))
    guard case .wrongType(let argumentType) = context.lookup("n", as: String.self) else {
      Issue.record("expected wrongType for the argument")
      return
    }
    #expect(ObjectIdentifier(argumentType) == ObjectIdentifier(Int.self))
    guard case .missing = context.lookup("nothing", as: Int.self) else {
      Issue.record("expected missing")
      return
    }
  }

  @Test func aListReadsOnlyValuesOfTheRequestedType() throws {
    let context = try ActionManager().makeContext(for: "X")
    context.append(1, to: "mixed")
    context.append("two", to: "mixed")
    context.append(3, to: "mixed")
    #expect(context.values(in: "mixed", as: Int.self) == [1, 3])
    #expect(context.values(in: "mixed", as: String.self) == ["two"])
    #expect(context.values(in: "absent", as: Int.self).isEmpty)
  }

  @Test func providersOverrideInTheDocumentedOrder() throws {
    let manager = ActionManager()
    let near = Provider("near", selection: [1])
    let far = Provider("far", selection: [2, 3])
    // Nearest first: the nearest provider's single values win; lists collect nearest first.
    let context = try manager.makeContext(for: "X", providers: [near, far])
    #expect(context[SelectionKey.self] == [1])
    #expect(context.value(forKey: "provider", as: String.self) == "near")
    #expect(context.values(in: "names", as: String.self) == ["near", "far"])

    // A provider that does not set a key leaves it to farther ones.
    let silent = Provider("silent")
    let context2 = try manager.makeContext(for: "X", providers: [silent, far])
    #expect(context2[SelectionKey.self] == [2, 3])

    // The caller's own values win over every provider.
    let context3 = try manager.makeContext(for: "X", providers: [near, far]) { context in
      context[SelectionKey.self] = [9]
      context.set("caller", forKey: "provider")
    }
    #expect(context3[SelectionKey.self] == [9])
    #expect(context3.value(forKey: "provider", as: String.self) == "caller")

    // Outside providers, setting replaces.
    context3[SelectionKey.self] = [10]
    #expect(context3[SelectionKey.self] == [10])
  }

  @Test func theClassicObserverPatternWorks() throws {
    final class ViewController: ActionContextProvider, SelectionObserver {
      var changes = 0
      func provide(to context: ActionContext) { context.append(self, to: SelectionChanged.observersKey) }
      func selectionChanged() { changes += 1 }
    }
    let manager = ActionManager()
    try manager.register(SelectionChanged())
    let first = ViewController()
    let second = ViewController()
    let result = manager.perform("SelectionChanged", providers: [first, second]) { context in
      context.append("not an observer", to: SelectionChanged.observersKey)
    }
    #expect(result.isPerformed)
    #expect(first.changes == 1)
    #expect(second.changes == 1)
  }
}

protocol SelectionObserver: AnyObject {
  func selectionChanged()
}

struct SelectionChanged: ManagedAction {
  static let observersKey = "selectionObservers"
  func perform(context: ActionContext) throws {
    for observer in context.values(in: Self.observersKey, as: (any SelectionObserver).self) {
      observer.selectionChanged()
    }
  }
}

/// Reports the sender it is performed with: "manager" for the manager itself.
struct ContextKeeper: ManagedAction {
  let keep: (ActionContext) -> Void
  func perform(context: ActionContext) throws { keep(context) }
}

struct SenderRecorder: ManagedAction {
  let record: (String) -> Void
  func perform(context: ActionContext) throws {
    record(context.sender is ActionManager ? "manager" : "\(context.sender)")
  }
}
