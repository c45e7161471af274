/// The modifiers of a ``NodeDeclaration``, in declaration order: the first two inline and the rest
/// in an array.
///
/// Most declared nodes have one or two modifiers, and a toolkit declares every node again on each
/// render: with the first two inline, declaring such a node allocates no list, and an update whose
/// declaration has the node's shapes moves the closures into the node's own list (see
/// `Node.replaceModifiers(with:)`) instead of trading a fresh list for it.
@usableFromInline
struct DeclaredModifiers {
  // The list first: the two inline modifiers leave tail padding, which `NodeDeclaration` uses.
  /// The third and later modifiers.
  @usableFromInline var more: [DeclaredModifier] = []
  @usableFromInline var first: DeclaredModifier?
  @usableFromInline var second: DeclaredModifier?

  @inlinable init() {}

  var count: Int { first == nil ? 0 : second == nil ? 1 : 2 + more.count }

  @inlinable
  mutating func append(_ modifier: consuming DeclaredModifier) {
    if first == nil {
      first = modifier
    } else if second == nil {
      second = modifier
    } else {
      more.append(modifier)
    }
  }

  /// Calls `body` with each modifier, in order.
  func visitInOrder(_ body: (borrowing DeclaredModifier) throws -> Void) rethrows {
    guard let first else { return }
    try body(first)
    guard let second else { return }
    try body(second)
    for modifier in more { try body(modifier) }
  }

  /// Whether any modifier satisfies `predicate`.
  func contains(where predicate: (borrowing DeclaredModifier) -> Bool) -> Bool {
    var found = false
    visitInOrder { modifier in found = found || predicate(modifier) }
    return found
  }

  /// Removes the modifiers that satisfy `predicate`, keeping the others in order.
  mutating func removeAll(where predicate: (borrowing DeclaredModifier) -> Bool) {
    var kept = DeclaredModifiers()
    visitInOrder { modifier in if !predicate(modifier) { kept.append(modifier) } }
    self = kept
  }

  /// The kind and types of the modifier at `position`, which is below `count`.
  func shape(at position: Int) -> (kind: ModifierKind, matchType: Any.Type?, outputType: Any.Type?) {
    switch position {
    case 0: (first!.kind, first!.matchType, first!.outputType)
    case 1: (second!.kind, second!.matchType, second!.outputType)
    default: (more[position - 2].kind, more[position - 2].matchType, more[position - 2].outputType)
    }
  }

  /// Exchanges the bodies of these modifiers with those of `store`'s, one by one; `store` has as
  /// many.
  mutating func exchangeBodies(with store: inout ModifierStore) {
    guard first != nil else { return }
    store.swapBody(at: 0, with: &first!.body)
    guard second != nil else { return }
    store.swapBody(at: 1, with: &second!.body)
    // NB: checked first, so that the loop never makes the empty `more` unique (the optimizer
    // hoists that out of a loop, which allocates a list).
    guard !more.isEmpty else { return }
    for position in more.indices { store.swapBody(at: position + 2, with: &more[position].body) }
  }
}
