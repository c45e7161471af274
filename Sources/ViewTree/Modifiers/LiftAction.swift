extension ModifierHost {
  /// Embeds the actions of a subtree that speaks one action type into the action type of the
  /// tree above it.
  ///
  /// This is a typed transform with a name, from enum-tree architectures:
  ///
  /// ```swift
  /// enum MovieAction: Action { case play, pause }
  /// enum AppAction: Action { case movie(MovieAction), quit }
  ///
  /// Node("player") { MovieControls() }
  ///   .liftAction(AppAction.movie)
  /// ```
  ///
  /// Actions of other types pass by untouched.
  ///
  /// - Parameter embed: Wraps a child action in a parent action, often an enum case.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func liftAction<Child, Parent: Action>(_ embed: @escaping (Child) -> Parent) -> Self {
    return attach(
      .lift, matching: Child.self, output: Parent.self,
      body: .action { action, actionType in
        var replacement: (any Action)?
        let reply = withMatch(action, type: actionType, as: Child.self) { value in
          replacement = embed(value)
          return .transformed
        }
        if let replacement { action = replacement }
        return reply
      })
  }
}
