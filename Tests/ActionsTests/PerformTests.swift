import Actions
import TestSupport
import Testing

@Suite struct PerformTests {
  @Test func unknownIdentifiersAreDisabledHiddenAndReportUnknown() {
    let manager = ActionManager()
    #expect(manager.validate("menu.Missing") == .unavailable)
    #expect(manager.validate("Broken(") == .unavailable)
    guard case .unknown(let identifier) = manager.perform("menu.Missing") else {
      Issue.record("expected unknown")
      return
    }
    #expect(identifier.name == "Missing")
  }

  @Test func parseErrorsAreReportedAndNothingRuns() {
    let manager = ActionManager()
    guard case .invalidIdentifier(let error) = manager.perform("Save(a: 1") else {
      Issue.record("expected invalidIdentifier")
      return
    }
    #expect(error.reason == .unclosedParenthesis)
  }

  @Test func validationDecidesAndDisabledActionsDoNotRun() throws {
    let manager = ActionManager()
    let recorder = Log()
    try manager.register(DeleteRowAction(recorder: recorder))
    #expect(manager.validate("DeleteRow") == .disabled)
    guard case .disabled(_, let validation) = manager.perform("DeleteRow") else {
      Issue.record("expected disabled")
      return
    }
    #expect(validation == .disabled)
    #expect(recorder.entries.isEmpty)

    let selection = Provider("list", selection: [4, 5])
    #expect(manager.validate("DeleteRow", providers: [selection]) == Validation(title: "Delete 2 Rows"))
    #expect(manager.perform("DeleteRow", providers: [selection]).isPerformed)
    #expect(recorder.entries == ["delete [4, 5]"])
  }

  /// An action that counts how often its title and summary are read, enabled while `isOn`.
  private final class DescribedAction: ManagedAction {
    static let defaultIdentifier = "Described"
    var isOn = true
    var reads = 0
    var title: String? {
      reads += 1
      return "Described"
    }
    var summary: String? {
      reads += 1
      return "Says what it does."
    }
    func validate(context: ActionContext) -> Validation { isOn ? .enabled : .disabled }
    func perform(context: ActionContext) throws {}
  }

  @Test func titlesAndSummariesAreReadWhereShownNeverOnPerform() throws {
    let manager = ActionManager()
    let action = DescribedAction()
    try manager.register(action)
    #expect(manager.perform("Described").isPerformed)
    #expect(action.reads == 0)

    let validation = manager.validate("Described")
    #expect(validation.title == "Described")
    #expect(validation.summary == "Says what it does.")
    #expect(action.reads == 2)

    // A disabled perform's result is shown to the user, so it is described.
    action.isOn = false
    guard case .disabled(_, let disabled) = manager.perform("Described") else {
      Issue.record("expected disabled")
      return
    }
    #expect(disabled == Validation(isEnabled: false, title: "Described", summary: "Says what it does."))
  }

  @Test func skippingValidationPerformsADisabledAction() throws {
    let manager = ActionManager()
    let recorder = Log()
    try manager.register(DeleteRowAction(recorder: recorder))
    let result = manager.perform("DeleteRow") { $0.skipsValidation = true }
    #expect(result.isPerformed)
    #expect(recorder.entries == ["delete []"])
  }

  @Test func observersHearEachStageInOrderForOneActionOrAll() throws {
    let manager = ActionManager()
    let recorder = Log()
    try manager.register([SaveDocumentAction(recorder: recorder), FailingAction()])
    let log = Log()
    manager.addObserver { event in log("any \(event.identifier.name) \(Self.describe(event.kind))") }
    let token = manager.addObserver(for: "SaveDocument") { event in
      log("save-only \(Self.describe(event.kind))")
    }
    manager.addObserver { event in log("second-any \(Self.describe(event.kind))") }

    manager.perform("SaveDocument")
    #expect(
      log.entries == [
        "any SaveDocument will", "save-only will", "second-any will", "any SaveDocument did", "save-only did",
        "second-any did",
      ])
    #expect(recorder.entries == ["save"])

    log.entries = []
    let failed = manager.perform("Failing")
    #expect(failed.error is FailingAction.Failure)
    #expect(log.entries == ["any Failing will", "second-any will", "any Failing fail", "second-any fail"])

    log.entries = []
    #expect(manager.removeObserver(token))
    #expect(manager.removeObserver(token) == false)
    manager.perform("SaveDocument")
    #expect(
      log.entries == ["any SaveDocument will", "second-any will", "any SaveDocument did", "second-any did"])
  }

  @Test func disabledAndUnknownPerformsNotifyNoObserver() throws {
    let manager = ActionManager()
    try manager.register(DeleteRowAction(recorder: Log()))
    var events = 0
    manager.addObserver { _ in events += 1 }
    manager.perform("DeleteRow")
    manager.perform("Nothing")
    #expect(events == 0)
  }

  @Test func performReportsExactlyOnceEvenWhenObserversMisbehave() throws {
    let manager = ActionManager()
    let recorder = Log()
    try manager.register(SaveDocumentAction(recorder: recorder))
    var removed = false
    var token: ObserverToken?
    token = manager.addObserver { _ in
      if let token, !removed { removed = manager.removeObserver(token) }
    }
    let result = manager.perform("SaveDocument")
    #expect(result.isPerformed)
    #expect(recorder.entries == ["save"])
    #expect(removed)
  }

  @Test @MainActor func asyncActionsRunWhenAwaitedAndOnlyThen() async throws {
    let manager = ActionManager()
    let recorder = Log()
    try manager.register(DownloadAction(recorder: recorder))
    // In an async context the async overload wins; a synchronous closure reaches the other one.
    let performSynchronously = { manager.perform("Download") }
    let refused = performSynchronously()
    #expect(refused.error as? ActionsError == .requiresAwait("Download"))
    #expect(recorder.entries.isEmpty)
    let result = await manager.perform("Download")
    #expect(result.isPerformed)
    #expect(recorder.entries == ["downloaded"])
  }

  @Test func asyncPerformAlsoRunsSynchronousActions() async throws {
    let manager = ActionManager()
    let recorder = Log()
    try manager.register(SaveDocumentAction(recorder: recorder))
    let result = await manager.perform("menu.SaveDocument")
    #expect(result.isPerformed)
    #expect(recorder.entries == ["save"])
    #expect(await manager.perform("Unknown").isPerformed == false)
  }

  static func describe(_ kind: ActionEvent.Kind) -> String {
    switch kind {
    case .willPerform: "will"
    case .didPerform: "did"
    case .didFail: "fail"
    }
  }
}
