extension ActionManager {
  /// How many identifiers the parse cache holds; for tests.
  package var cachedIdentifierCount: Int { identifierCacheCount }
}
