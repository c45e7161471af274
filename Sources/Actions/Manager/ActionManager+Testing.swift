extension ActionManager {
  /// How many identifiers the parse cache holds; for tests.
  package var cachedIdentifierCount: Int { identifierCacheCount }
  /// How many bytes of identifier text the parse cache holds; for tests.
  package var cachedIdentifierBytes: Int { identifierCacheByteCount }
  /// The most bytes of identifier text the parse cache holds; for tests.
  package static var cachedIdentifierByteLimit: Int { identifierCacheByteLimit }
}
