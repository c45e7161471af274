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
  /// The declared attachments, each key's identity, its value, and how to attach it to a node;
  /// and the problems, in the same list (rarer than attachments, they need no list of their own).
  var attachments: [DeclaredAttachment] = []
  /// The handle whose node this declaration places or declares (see ``bound(to:)``).
  var handle: NodeHandle?
  // The modifiers, then the flags, which take their tail padding: 128 bytes in all, so that the
  // builder and an update move declarations with a few vector moves rather than a call.
  @usableFromInline var modifiers = DeclaredModifiers()
  /// Whether every action triggered from the declared subtree must be handled (see
  /// ``Node/requiresHandling``); a node updated to this declaration takes it.
  public var requiresHandling = false
  /// Whether this is a fragment the builder made (see `init(fragment:)`).
  var isFragment = false
  /// Whether an update keeps the matched node as it is (see ``slot(_:)`` and ``unchanged(_:)``).
  var keepsContent = false

  /// The mistakes the modifier methods found in this declaration (not in its children's), oldest
  /// first; ``Node/update(to:)`` hands them to the node (see ``ModifierHost/reporting(_:)``).
  public var problems: [any Error] {
    attachments.compactMap { $0.attach == nil ? $0.value as? any Error : nil }
  }

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

  /// The node of another view, placed here as it is: the view updates it through its own
  /// `handle` (see ``NodeHandle``), and this declaration only says where it goes.
  ///
  /// This is how a view that re-renders on its own declares its children: a slot per child view,
  /// in order. An update puts the handle's node at the slot's position (moving it if it is
  /// elsewhere, making an empty one bound to the handle if it has none yet) and changes nothing
  /// in it, in O(1) whatever its size. So a child's update and its parent's may come in either
  /// order, and a child view that did not re-render (a frozen subtree) costs nothing.
  ///
  /// ```swift
  /// rowsHandle.update(to: NodeDeclaration("rows") {
  ///   for row in rows { NodeDeclaration.slot(row.handle) }
  /// })
  /// ```
  ///
  /// - Parameter handle: The child view's handle.
  /// - Returns: The placeholder.
  public static func slot(_ handle: NodeHandle) -> NodeDeclaration {
    var slot = NodeDeclaration()
    slot.handle = handle
    slot.keepsContent = true
    return slot
  }

  /// A child that stays as it is: the live child this declaration matches (by `id`, or by
  /// position among the children without one) is kept with its modifiers, attachments and
  /// subtree untouched, in O(1) whatever its size.
  ///
  /// For toolkits that skip unchanged (frozen) subtrees while they declare the rest. When no live
  /// child matches, an empty node is made and the parent reports
  /// ``ViewTreeError/unchangedWithoutNode(id:parent:)``.
  ///
  /// - Parameter id: The identifier of the child to keep.
  /// - Returns: The placeholder.
  public static func unchanged(_ id: String? = nil) -> NodeDeclaration {
    var kept = NodeDeclaration(id)
    kept.keepsContent = true
    return kept
  }

  /// Returns this declaration bound to `handle`: the node it declares is always the handle's
  /// node, which it matches whatever its id or position, and never a node bound to another handle.
  ///
  /// An update matches a bound declaration to the handle's node, wherever that is (moving it
  /// here), or makes a node and binds it. Updating a node bound to another handle to it, or one
  /// node to it while the handle names another, is reported (``ViewTreeError/handleMismatch(node:)``)
  /// and not applied.
  ///
  /// - Parameter handle: The view's handle.
  /// - Returns: The bound declaration.
  public consuming func bound(to handle: NodeHandle) -> NodeDeclaration {
    var copy = self
    copy.handle = handle
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
  public subscript<Key: NodeAttachmentKey>(attachment key: Key.Type) -> Key.Value {
    for declared in attachments where declared.id == ObjectIdentifier(key) {
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
    attachments.removeAll { $0.id == ObjectIdentifier(key) }
    attachments.append(
      DeclaredAttachment(key: key, value: value) { node in
        node.settingAttachment(key, to: value)
      })
    return self
  }

  /// Returns this declaration with the value declared for `key` changed by `body`, without a
  /// copy of it (see ``ModifierHost/updatingAttachment(_:_:)``).
  ///
  /// - Parameters:
  ///   - key: The attachment's key.
  ///   - body: Changes the value.
  /// - Returns: The changed declaration.
  public consuming func updatingAttachment<Key: NodeAttachmentKey>(
    _ key: Key.Type, _ body: (inout Key.Value) -> Void
  ) -> NodeDeclaration {
    // NB: `self`, not a copy of it, which would share the list and so the value.
    var value = Key.defaultValue
    if let index = attachments.firstIndex(where: { $0.id == ObjectIdentifier(key) }) {
      // Taken out of the list, so that the value is not shared with it when it changes. Only
      // `settingAttachment` and this method store under `ObjectIdentifier(Key.self)`, always a
      // `Key.Value`.
      value = attachments.remove(at: index).value as! Key.Value
    }
    body(&value)
    return settingAttachment(key, to: value)
  }

  /// Returns this declaration with `problem` added to ``problems``.
  ///
  /// - Parameter problem: What went wrong.
  /// - Returns: The changed declaration.
  public consuming func reporting(_ problem: any Error) -> NodeDeclaration {
    var copy = self
    copy.attachments.append(
      DeclaredAttachment(key: ProblemsAttachment.self, value: problem))
    return copy
  }
}

/// One attachment a declaration makes, or one problem it reports.
struct DeclaredAttachment {
  /// The key, kept as a type so that an update that no longer declares it can remove it.
  let key: any NodeAttachmentKey.Type
  let value: Any
  /// Attaches the value to a node, in a box of its own; `nil` for a problem (the value), which an
  /// update reports instead.
  var attach: ((Node) -> Void)? = nil

  var id: ObjectIdentifier { ObjectIdentifier(key) }
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
