/// What a tree's owner sets through ``NodeTree``'s properties, and its dispatches read.
struct TreeSettings {
  /// How many dispatches may run inside one another (see ``NodeTree/setReentrancyLimit(_:)``).
  var reentrancyLimit = 64
  /// See ``NodeTree/requiresHandling``.
  var requiresHandling = false
  /// See ``NodeTree/onUnhandled``.
  var onUnhandled: ((any Action, Node) -> Void)?
  /// See ``NodeTree/stepObserver``.
  var stepObserver: ((ActionStep) -> Void)?
  /// See ``NodeTree/onProblem``.
  var onProblem: ((any Error, Node) -> Void)?
}
