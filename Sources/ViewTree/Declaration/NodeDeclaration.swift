/// A node as a declarative toolkit declares it on every render: an id, modifiers and children, as
/// a value. ``Node/update(to:)`` makes a live node exactly this.
///
/// A declaration takes the same modifier methods as a node (see ``ModifierHost``), with the same
/// syntax, and creates no node: building one allocates a list of children per parent, a list of
/// modifiers per declared node with more than two, and what its closures capture, so a toolkit can
/// build one from its views' `body` every time they are evaluated.
///
/// ```swift
/// func render(_ document: Document) -> NodeDeclaration {
///   NodeDeclaration("window") {
///     for row in document.rows {
///       NodeDeclaration(row.id).handleAction(Delete.self) { _ in document.delete(row) }
///     }
///   }
///   .handleAction(Save.self) { _ in document.save() }
/// }
/// tree.update(to: render(document))
/// ```
public struct NodeDeclaration: ModifierHost {
  /// The declared node's identifier: also its identity among its siblings when the tree is updated
  /// (see ``Node/update(to:)``).
  public let id: String?
  /// The declared children, in order.
  public var children: [NodeDeclaration] { childBox?.list ?? [] }
  /// The children, in a box whose release takes the declared subtree apart without recursion;
  /// `nil` when there are none.
  var childBox: DeclaredChildren?
  /// The declared attachments: each key's identity, its value, and how to attach it to a node.
  var attachments: [DeclaredAttachment] = []
  /// The mistakes the modifier methods found in this declaration (not in its children's), oldest
  /// first; ``Node/update(to:)`` hands them to the node (see ``ModifierHost/reporting(_:)``).
  public internal(set) var problems: [any Error] = []
  // The modifiers, then the flags, which take their tail padding: 128 bytes in all, so that the
  // builder and an update move declarations with a few vector moves rather than a call.
  @usableFromInline var modifiers = DeclaredModifiers()
  var requiresHandling = false
  /// Whether this is a fragment the builder made (see `init(fragment:)`).
  var isFragment = false

  /// Declares a node with an optional identifier and the children its builder declares.
  ///
  /// - Parameters:
  ///   - id: The identifier; among siblings, declarations with an id are matched to live nodes by
  ///     it, those without one by their position among the siblings without one.
  ///   - children: The children.
  public init(_ id: String? = nil, @NodeDeclarationBuilder children: () throws -> [NodeDeclaration])
    rethrows
  {
    self.id = id
    let list = try children()
    if !list.isEmpty { childBox = DeclaredChildren(list) }
  }

  /// Declares a node without children.
  ///
  /// - Parameter id: The identifier.
  public init(_ id: String? = nil) {
    self.id = id
  }

  /// Returns this declaration with `modifier` after its other modifiers.
  ///
  /// - Parameter modifier: The modifier, made by one of the modifier methods.
  /// - Returns: The extended declaration.
  @inlinable
  public consuming func adding(_ modifier: consuming DeclaredModifier) -> NodeDeclaration {
    // `self` is consumed: in a chain of modifiers, the list is appended to in place.
    modifiers.append(modifier)
    return self
  }

  /// Returns this declaration with its handling requirement set (see ``Node/requiresHandling``).
  ///
  /// - Parameter required: Whether unhandled actions from the declared subtree end as errors.
  /// - Returns: The changed declaration.
  public consuming func settingRequiresHandling(_ required: Bool) -> NodeDeclaration {
    var copy = self
    copy.requiresHandling = required
    return copy
  }

  /// Whether the declaration has a modifier of `kind` matching exactly `type`.
  ///
  /// - Parameters:
  ///   - kind: The kind of modifier.
  ///   - type: The type it matches.
  /// - Returns: `true` if it has.
  public func hasModifier(_ kind: ModifierKind, matching type: Any.Type) -> Bool {
    modifiers.contains { isModifier($0.kind, matching: $0.matchType, kind, type) }
  }

  /// Returns this declaration without its modifiers of `kind` matching exactly `type`.
  ///
  /// - Parameters:
  ///   - kind: The kind of modifier.
  ///   - type: The type they match.
  /// - Returns: The changed declaration.
  public consuming func removingModifiers(_ kind: ModifierKind, matching type: Any.Type) -> NodeDeclaration {
    var copy = self
    copy.modifiers.removeAll { isModifier($0.kind, matching: $0.matchType, kind, type) }
    return copy
  }

  /// The value declared for `key`, or its default value.
  ///
  /// - Parameter key: The attachment's key.
  /// - Returns: The value.
  public func attachment<Key: NodeAttachmentKey>(_ key: Key.Type) -> Key.Value {
    for declared in attachments where declared.key == ObjectIdentifier(key) {
      // Only `settingAttachment` stores under `ObjectIdentifier(Key.self)`, always a `Key.Value`.
      if let value = declared.value as? Key.Value { return value }
    }
    return Key.defaultValue
  }

  /// Returns this declaration with `value` declared for `key`, replacing an earlier value.
  ///
  /// - Parameters:
  ///   - key: The attachment's key.
  ///   - value: The value.
  /// - Returns: The changed declaration.
  public consuming func settingAttachment<Key: NodeAttachmentKey>(_ key: Key.Type, to value: Key.Value)
    -> NodeDeclaration
  {
    var copy = self
    copy.attachments.removeAll { $0.key == ObjectIdentifier(key) }
    copy.attachments.append(
      DeclaredAttachment(key: ObjectIdentifier(key), value: value) { node in
        node.settingAttachment(key, to: value)
      })
    return copy
  }

  /// Returns this declaration with `problem` added to ``problems``.
  ///
  /// - Parameter problem: What went wrong.
  /// - Returns: The changed declaration.
  public consuming func reporting(_ problem: any Error) -> NodeDeclaration {
    var copy = self
    copy.problems.append(problem)
    return copy
  }
}

/// One attachment a declaration makes.
struct DeclaredAttachment {
  let key: ObjectIdentifier
  let value: Any
  /// Attaches the value to a node, in a box of its own.
  let attach: (Node) -> Void
}

/// Whether a modifier of `kind` matching `matchType` is one of `queried` kind matching exactly
/// `type`: what `hasModifier` and `removingModifiers` ask of a declaration's and a node's modifiers.
func isModifier(
  _ kind: ModifierKind, matching matchType: Any.Type?, _ queried: ModifierKind, _ type: Any.Type
) -> Bool {
  kind == queried && matchType.map(ObjectIdentifier.init) == ObjectIdentifier(type)
}

/// Builds the children of a ``NodeDeclaration``, as ``NodeBuilder`` builds a node's: `if`,
/// `if`/`else`, `switch`, `for` loops, optional declarations and arrays of them.
///
/// A toolkit builds declarations on every render, so this builder neither wraps nor copies a
/// declaration on its way into the children list: a declaration is its own component, and a
/// block, loop or empty branch that yields several or none is carried by a *fragment*, a
/// declaration that only holds them and that the final result takes apart. The compiler calls
/// these methods; calling them directly is not useful.
@resultBuilder
public enum NodeDeclarationBuilder {
  /// A single declaration.
  public static func buildExpression(_ declaration: consuming NodeDeclaration) -> NodeDeclaration {
    declaration
  }

  /// An optional declaration: none when `nil`.
  public static func buildExpression(_ declaration: consuming NodeDeclaration?) -> NodeDeclaration {
    declaration ?? NodeDeclaration(fragment: [])
  }

  /// Declarations made elsewhere, such as by a helper function.
  public static func buildExpression(_ declarations: consuming [NodeDeclaration]) -> NodeDeclaration {
    NodeDeclaration(fragment: declarations)
  }

  /// An empty block.
  public static func buildBlock() -> NodeDeclaration { NodeDeclaration(fragment: []) }

  /// The first declarations of a block.
  public static func buildPartialBlock(first: consuming NodeDeclaration) -> NodeDeclaration { first }

  /// The declarations of a block so far, followed by the next ones.
  public static func buildPartialBlock(
    accumulated: consuming NodeDeclaration, next: consuming NodeDeclaration
  )
    -> NodeDeclaration
  {
    var fragment = accumulated.isFragment ? accumulated : NodeDeclaration(fragment: [accumulated])
    fragment.appendFlattening(next)
    return fragment
  }

  /// An `if` without `else`.
  public static func buildOptional(_ component: consuming NodeDeclaration?) -> NodeDeclaration {
    component ?? NodeDeclaration(fragment: [])
  }

  /// The first branch of an `if`/`else` or `switch`.
  public static func buildEither(first component: consuming NodeDeclaration) -> NodeDeclaration { component }

  /// The second branch of an `if`/`else` or `switch`.
  public static func buildEither(second component: consuming NodeDeclaration) -> NodeDeclaration { component }

  /// A `for` loop.
  public static func buildArray(_ components: consuming [NodeDeclaration]) -> NodeDeclaration {
    // The usual loop body declares one node: the array is the list, as it is.
    if !components.contains(where: \.isFragment) { return NodeDeclaration(fragment: components) }
    var fragment = NodeDeclaration(fragment: [])
    for component in components { fragment.appendFlattening(component) }
    return fragment
  }

  /// An `if #available` block.
  public static func buildLimitedAvailability(_ component: consuming NodeDeclaration) -> NodeDeclaration {
    component
  }

  /// The declared children.
  public static func buildFinalResult(_ component: consuming NodeDeclaration) -> [NodeDeclaration] {
    guard component.isFragment else { return [component] }
    return component.takeChildren()
  }
}

extension NodeDeclaration {
  /// A fragment: not a node, but declarations on their way into a children list (see
  /// ``NodeDeclarationBuilder``). Its children are never fragments themselves.
  init(fragment declarations: consuming [NodeDeclaration]) {
    self.id = nil
    if !declarations.isEmpty { childBox = DeclaredChildren(declarations) }
    self.isFragment = true
  }

  /// Appends `declaration` to this fragment's children, or its children if it is a fragment.
  mutating func appendFlattening(_ declaration: consuming NodeDeclaration) {
    guard declaration.isFragment else {
      ownedChildren().list.append(declaration)
      return
    }
    let added = declaration.takeChildren()
    if added.isEmpty { return }
    if childBox == nil {
      childBox = DeclaredChildren(added)
    } else {
      ownedChildren().list.append(contentsOf: added)
    }
  }

  /// The box of children, made for this declaration alone if it had none or shared one.
  private mutating func ownedChildren() -> DeclaredChildren {
    if !isKnownUniquelyReferenced(&childBox) { childBox = DeclaredChildren(children) }
    // The line above leaves a box here.
    return childBox!
  }

  /// The children, moved out of this declaration when nothing else shares them; afterwards it has
  /// none.
  mutating func takeChildren() -> [NodeDeclaration] {
    guard isKnownUniquelyReferenced(&childBox), let box = childBox else { return children }
    childBox = nil
    var taken: [NodeDeclaration] = []
    swap(&taken, &box.list)
    return taken
  }
}

/// The children of a declaration, in a class so that releasing a declaration is iterative at any
/// depth: Swift releases an array of structs that hold arrays by recursion, a stack frame or more
/// per level, and a deep enough declaration would overflow the stack.
final class DeclaredChildren {
  var list: [NodeDeclaration]

  init(_ list: consuming [NodeDeclaration]) { self.list = list }

  deinit {
    // Each descendant that nothing else holds gives up its children to this loop before it is
    // released, so no release reaches a second level.
    var pending: [NodeDeclaration] = []
    swap(&pending, &list)
    while var declaration = pending.popLast() {
      guard isKnownUniquelyReferenced(&declaration.childBox), let box = declaration.childBox else { continue }
      pending.append(contentsOf: box.list)
      box.list = []
    }
  }
}
