// What this module's API names comes with it: a user of `RequestResult<PerformResult>`,
// `Node.perform(_:sender:tracing:)` or `ActionManager` imports ViewTreeActions alone.
@_exported import Actions
@_exported import ViewTree
