import Actions
import TestSupport
import Testing

@Suite struct RegistrationTests {
  @Test func defaultIdentifiersDropATrailingAction() {
    #expect(SaveDocumentAction.defaultIdentifier == "SaveDocument")
    #expect(DoActionStuff.defaultIdentifier == "DoActionStuff")
    #expect(DeleteRowAction.defaultIdentifier == "DeleteRow")
  }

  @Test func registeringTwiceIsAnErrorNamingTheIdentifier() throws {
    let manager = ActionManager()
    try manager.register(SaveDocumentAction(recorder: Log()))
    #expect(throws: ActionsError.duplicateIdentifier("SaveDocument")) {
      try manager.register(SaveDocumentAction(recorder: Log()))
    }
    #expect(throws: ActionsError.duplicateIdentifier("Undo")) {
      try manager.register(DoActionStuff(), as: "Undo")
    }
    try manager.register(SaveDocumentAction(recorder: Log()), as: "SaveAgain")
    #expect(manager.registeredIdentifiers == ["Redo", "SaveAgain", "SaveDocument", "Undo"])
  }

  @Test func batchesRegisterAllOrNone() throws {
    let manager = ActionManager()
    let recorder = Log()
    #expect(throws: ActionsError.duplicateIdentifier("SaveDocument")) {
      try manager.register([
        DoActionStuff(), SaveDocumentAction(recorder: recorder), SaveDocumentAction(recorder: recorder),
      ])
    }
    #expect(manager.action(named: "DoActionStuff") == nil)
    try manager.register([DoActionStuff(), SaveDocumentAction(recorder: recorder)])
    #expect(manager.action(named: "DoActionStuff") != nil)
    #expect(manager.action(named: "SaveDocument") != nil)
  }

  @Test(arguments: ["menu.Save", "Save()", "", "Sa ve", "Save(a: 1)"])
  func onlyBareNamesCanBeRegistered(name: String) {
    let manager = ActionManager()
    #expect(throws: ActionsError.self) { try manager.register(DoActionStuff(), as: name) }
  }

  @Test func unregistering() throws {
    let manager = ActionManager()
    try manager.register(DoActionStuff())
    try manager.unregister("DoActionStuff")
    #expect(throws: ActionsError.notRegistered("DoActionStuff")) { try manager.unregister("DoActionStuff") }
  }

  @Test func parsedIdentifiersAreCachedByText() throws {
    let manager = ActionManager()
    let first = try manager.identifier(parsing: "menu.Save(a: 1)")
    #expect(manager.cachedIdentifierCount == 1)
    let second = try manager.identifier(parsing: "menu.Save(a: 1)")
    #expect(first == second)
    #expect(manager.cachedIdentifierCount == 1)
    #expect(throws: ParseError<InvalidIdentifier>.self) { try manager.identifier(parsing: "Save(") }
    #expect(throws: ParseError<InvalidIdentifier>.self) { try manager.identifier(parsing: "Save(") }
    #expect(manager.cachedIdentifierCount == 2)
  }

  @Test(.stress) func theIdentifierCacheIsBoundedInBytes() throws {
    let manager = ActionManager()
    // Large identifiers are parsed every time and never kept.
    for index in 0..<300 {
      let text = "Save(k\(index): \"" + String(repeating: "x", count: 100_000) + "\")"
      guard case .unknown(let identifier) = manager.perform(text) else {
        Issue.record("not reported unknown")
        continue
      }
      #expect(identifier.text == text)
      #expect(manager.cachedIdentifierBytes == 0)
    }
    // Many middle-sized ones: the cache starts over before it would pass its limit.
    var largest = 0
    for index in 0..<2_000 {
      manager.perform("Save(k\(index): \"" + String(repeating: "x", count: 1_000) + "\")")
      largest = max(largest, manager.cachedIdentifierBytes)
    }
    #expect(largest <= ActionManager.cachedIdentifierByteLimit)
    #expect(largest > ActionManager.cachedIdentifierByteLimit / 2)
    #expect(manager.cachedIdentifierCount < 2_000)
  }
}
