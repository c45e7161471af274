/// A declaration's modifiers, in declaration order.
///
/// The first two are stored inline: most declared nodes have one or two modifiers, and a toolkit
/// declares every node again on each render, so those declare without allocating a list.
struct DeclaredModifierList {
  private var first: DeclaredModifier?
  private var second: DeclaredModifier?
  /// The modifiers after the second.
  private var rest: [DeclaredModifier] = []

  /// The number of modifiers.
  var count: Int { first == nil ? 0 : second == nil ? 1 : 2 + rest.count }

  var isEmpty: Bool { first == nil }

  /// Adds `modifier` after the others.
  mutating func append(_ modifier: consuming DeclaredModifier) {
    if first == nil {
      first = modifier
    } else if second == nil {
      second = modifier
    } else {
      rest.append(modifier)
    }
  }

  /// Whether the modifier at `position` has `kind`, matches `matchType` and produces `outputType`.
  func hasShape(at position: Int, _ kind: ModifierKind, _ matchType: Any.Type?, _ outputType: Any.Type?)
    -> Bool
  {
    switch position {
    case 0: first?.hasShape(kind, matchType, outputType) ?? false
    case 1: second?.hasShape(kind, matchType, outputType) ?? false
    default: rest[position - 2].hasShape(kind, matchType, outputType)
    }
  }

  /// Exchanges the closure of the modifier at `position` with `body`.
  mutating func swapBody(at position: Int, with body: inout ModifierBody) {
    switch position {
    case 0: swap(&first!.body, &body)
    case 1: swap(&second!.body, &body)
    default: swap(&rest[position - 2].body, &body)
    }
  }

  /// The modifiers, in order.
  var all: [DeclaredModifier] {
    var result: [DeclaredModifier] = []
    result.reserveCapacity(count)
    if let first { result.append(first) }
    if let second { result.append(second) }
    result.append(contentsOf: rest)
    return result
  }

  /// Whether a modifier satisfies `predicate`.
  func contains(where predicate: (DeclaredModifier) -> Bool) -> Bool {
    all.contains(where: predicate)
  }

  /// Removes the modifiers that satisfy `predicate`, keeping the order of the others.
  mutating func removeAll(where predicate: (DeclaredModifier) -> Bool) {
    let kept = all.filter { !predicate($0) }
    self = DeclaredModifierList()
    for modifier in kept { append(modifier) }
  }
}

extension DeclaredModifier {
  func hasShape(_ kind: ModifierKind, _ matchType: Any.Type?, _ outputType: Any.Type?) -> Bool {
    self.kind == kind
      && self.matchType.map(ObjectIdentifier.init) == matchType.map(ObjectIdentifier.init)
      && self.outputType.map(ObjectIdentifier.init) == outputType.map(ObjectIdentifier.init)
  }
}
