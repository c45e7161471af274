import Actions
import ViewTree

extension Node {
  /// What ViewTreeActions adds to a node in a `TreeSnapshot`: its key bindings
  /// (`keys`), its action item (`item`), whether it carries a manager (`manager`, with the number
  /// of registered actions) and its declaration problems (`problems`). Empty for a node with none.
  public var actionAnnotations: [String: [String]] {
    guard hasAttachments else { return [:] }
    var annotations: [String: [String]] = [:]
    let keys = keyBindings.map { "\($0.keys) -> \($0.identifier)" }
    if !keys.isEmpty { annotations["keys"] = keys }
    if let item = actionItemIdentifier { annotations["item"] = [item] }
    if let manager = attachedActionManager {
      annotations["manager"] = ["\(manager.registeredIdentifiers.count) actions"]
    }
    if !problems.isEmpty { annotations["problems"] = problems.map { "\($0)" } }
    return annotations
  }
}

extension NodeTree {
  /// The tree as plain data for inspectors: every node with its modifiers, key bindings, items,
  /// manager and problems, and the focus; `Codable`, and as Graphviz DOT in
  /// `TreeSnapshot.dot`.
  ///
  /// ```swift
  /// let json = try JSONEncoder().encode(tree.inspection())
  /// print(tree.inspection().dot)   // pipe to `dot -Tsvg`
  /// ```
  ///
  /// - Returns: The snapshot.
  public func inspection() -> TreeSnapshot { snapshot { $0.actionAnnotations } }
}
