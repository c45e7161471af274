extension Node {
  /// Creates a live node, and its subtree, from a declaration.
  ///
  /// - Parameter declaration: The declaration.
  /// - Complexity: O(*n* + *m*): the declared nodes and modifiers.
  public convenience init(declaring declaration: consuming NodeDeclaration) {
    self.init(declaration.id)
    update(to: declaration)
  }

  /// Makes this node and its subtree exactly what `declaration` declares: what a declarative
  /// toolkit calls each time a view's `body` is evaluated again.
  ///
  /// - **Modifiers** are replaced: afterwards the node has the declared modifiers, in declaration
  ///   order, and no other. When the declared list has the same shape as the live one (the same
  ///   kinds matching the same types, in the same order), only the closures are swapped: the
  ///   modifiers keep their ``ModifierID``s, and what dispatch knows about the node stays valid.
  ///   Otherwise the old modifiers are removed and the declared ones attached.
  /// - **Children** are reconciled by identity, as SwiftUI's structural identity: a declared child
  ///   with an id takes the first live child not yet taken with that id; one without an id takes
  ///   the next live child without one, in order. A live child that is taken keeps its object
  ///   identity, focus, attachments (such as key bindings or a manager) and its own children,
  ///   which are reconciled in turn. Declared children with no live match are created at their
  ///   declared position; live children that no declaration took are removed, exactly as
  ///   ``removeChild(_:)`` removes them (focus in them is repaired as <doc:MovingFocus> says, a
  ///   running dispatch skips them).
  /// - **Attachments** the declaration makes (a manager, key bindings, an action item, or any
  ///   ``NodeAttachmentKey`` set with ``ModifierHost/settingAttachment(_:to:)``) replace the
  ///   node's; those the node's previous declaration made and this one does not are removed.
  ///   Attachments set directly on the node are left alone.
  /// - The node's ``id`` and ``requiresHandling`` become the declared ones, and its ``problems``
  ///   the declaration's, each passed to the tree's ``NodeTree/onProblem`` (on every update that
  ///   declares it again, as a toolkit's runtime warning would be).
  ///
  /// A modifier swapped during a dispatch takes part in it with its new closure; one attached
  /// during a dispatch does not (see <doc:PropagationRules>).
  ///
  /// Works without recursion, so a declaration of any depth is fine.
  ///
  /// - Parameter declaration: What the node should be.
  /// - Complexity: O(*n* + *m*) in the declared nodes and modifiers, when the children keep their
  ///   order; a reordered list of children costs a dictionary of its ids as well.
  public func update(to declaration: consuming NodeDeclaration) {
    update(to: declaration, boundTo: declaration.handle)
  }

  /// `update(to:)`, with the handle the declaration counts as bound to: its own, or the handle
  /// whose `update(to:)` this is (passed, not written into the declaration, which may share its
  /// storage with the view's copy: a write would copy it whole).
  func update(to declaration: consuming NodeDeclaration, boundTo handle: NodeHandle?) {
    // The declaration is consumed: closures and child declarations are moved out of it, not
    // copied (a copy would retain each of them once more). A list of child declarations is not
    // moved either: it stays in its frame of the walk, and each node is updated to its entry in
    // place; the frame's end releases the list, with the closures the update replaced.
    var declaration = declaration
    guard bind(to: handle) else { return }
    if declaration.keepsContent { return }
    // One update: a node that leaves and comes back in it keeps its focus, and the hover is run
    // again once, at its end (see `TreeUpdates`).
    updating { applyUpdate(&declaration) }
  }

  /// The body of `update(to:boundTo:)`, run as one update of this node.
  @inline(__always) private func applyUpdate(_ declaration: inout NodeDeclaration) {
    var frames: [UpdateFrame] = []
    var created: [Node] = []
    if let frame = apply(&declaration, created: &created) { frames.append(frame) }
    while !frames.isEmpty {
      let top = frames.count - 1
      let position = frames[top].position
      if position == frames[top].declarations.count {
        frames.removeLast()
        continue
      }
      frames[top].position = position + 1
      // Slots and unchanged children keep what they are.
      if frames[top].declarations[position].keepsContent { continue }
      let node = frames[top].nodes[position]
      if let frame = node.apply(&frames[top].declarations[position], created: &created) {
        frames.append(frame)
      }
    }
    // New nodes entered the tree when they were linked, before their callbacks were declared.
    if !created.isEmpty, lifecycleCount > 0, isInTree {
      for node in created where node.hasLifecycleCallbacks { node.didAttach() }
    }
    // Scopes declared with `autofocus` count as watched: one in this subtree may ask for focus,
    // or wait for what this update gave it.
    if lifecycleCount > 0 { serveAutofocus() }
  }

  /// Makes this node what `declaration` declares, its children reconciled with the declared ones;
  /// returns the frame in which the update goes on with those children, if any, and their
  /// declarations moved out of `declaration`.
  private func apply(_ declaration: inout NodeDeclaration, created: inout [Node]) -> UpdateFrame? {
    if id != declaration.id { id = declaration.id }
    requiresHandling = declaration.requiresHandling
    replaceModifiers(with: &declaration.modifiers)
    // Problems are declared and kept as attachments.
    if !declaration.attachments.isEmpty || hasAttachments {
      replaceDeclaredAttachments(with: declaration)
    }
    if declaration.childBox == nil && childCount == 0 { return nil }
    var declared = declaration.takeChildren()
    // The frame keeps the children the declarations were matched to: user code (`onProblem`, or
    // an `onDetach` of a removed child) may change the list before the walk reaches them, and the
    // update goes on with these nodes, one per declaration (a refused one leaves the list).
    let nodes = reconcileChildren(with: &declared, created: &created)
    // Children that are all slots or unchanged need no frame: nothing in them changes.
    guard declared.indices.contains(where: { !declared[$0].keepsContent }) else { return nil }
    return UpdateFrame(nodes: nodes, declarations: declared)
  }

  /// Binds this node to `handle` if neither is bound yet; whether the node is `handle`'s. A node
  /// bound to a handle is updated only to a declaration bound to that handle (`NodeHandle.update`
  /// binds its declaration to itself); anything else, and a handle bound to another node, is
  /// reported.
  private func bind(to handle: NodeHandle?) -> Bool {
    guard let handle else {
      if boundHandle == nil { return true }
      reporting(ViewTreeError.handleMismatch(node: path))
      return false
    }
    if let node = handle._node {
      if node === self { return true }
    } else if boundHandle == nil {
      handle.bind(self)
      return true
    }
    reporting(ViewTreeError.handleMismatch(node: path))
    return false
  }

  /// Replaces the attachments the previous declaration made by `declared`'s, and the problems by
  /// its problems.
  func replaceDeclaredAttachments(with declared: NodeDeclaration) {
    let previous = self[attachment: DeclaredAttachmentKeys.self]
    var keys: [any NodeAttachmentKey.Type] = []
    var declaredProblems: [any Error] = []
    for attachment in declared.attachments {
      if attachment.attach == nil {
        declaredProblems.append(attachment.value as! any Error)  // what `reporting` stores
      } else {
        keys.append(attachment.key)
      }
    }
    for key in previous where !keys.contains(where: { $0 == key }) { removeAttachment(key) }
    for attachment in declared.attachments { attachment.attach?(self) }
    if !keys.elementsEqual(previous, by: { $0 == $1 }) {
      self[attachment: DeclaredAttachmentKeys.self] = keys
    }
    if !declaredProblems.isEmpty || !problems.isEmpty {
      self[attachment: ProblemsAttachment.self] = declaredProblems
      if let report = root.treeState?.settings.onProblem {
        for problem in declaredProblems { report(problem, self) }
      }
    }
  }

  /// Whether each child is, one by one, what the declaration at its position matches (as many
  /// of them): its handle's node, or a node bound to no handle with the declared id.
  private func matchesInPlace(_ declared: [NodeDeclaration]) -> Bool {
    for index in declared.indices {
      let child = self.child(at: index)
      if let handle = declared[index].handle {
        if handle._node !== child { return false }
      } else if child.id != declared[index].id || child.boundHandle != nil {
        return false
      }
    }
    return true
  }

  /// Matches `declared` to the live children, makes the children list exactly the declared one
  /// and returns it, one node per declaration, as it was before any callback ran; nodes it creates
  /// are added to `created`. A declaration that cannot be applied (a handle's node placed twice,
  /// or inside itself) is reported, has no node, and leaves `declared`, so that the two lists
  /// stay in step.
  ///
  /// The children that placed themselves (see `NodeHandle.place(in:order:)`) are not the
  /// declaration's: they stay, after the declared ones, in their order, unless a slot takes one.
  func reconcileChildren(with declared: inout [NodeDeclaration], created: inout [Node]) -> ChildList {
    let listed = declaredChildCount
    // The common case: the same children in the same order.
    if declared.count == listed, matchesInPlace(declared) { return childList }
    // Children bound to a handle are matched only through it; the others by id, then position.
    var named: [String: [Node]] = [:]
    var unnamed: [Node] = []
    var bound: [ObjectIdentifier: Node] = [:]
    for child in childList.prefix(listed) {
      if let handle = child.boundHandle {
        bound[handle] = child
      } else if let id = child.id {
        named[id, default: []].append(child)
      } else {
        unnamed.append(child)
      }
    }
    // Reversed, so that taking the first match is a `popLast`.
    for id in named.keys { named[id]?.reverse() }
    unnamed.reverse()
    var result = ContiguousArray<Node>()
    result.reserveCapacity(declared.count)
    var moved: [HandleMove] = []
    // The handles' nodes this list moves here or creates, which no list holds until it is set.
    var taken: Set<ObjectIdentifier> = []
    var problems: [ViewTreeError] = []
    var refused: [Int] = []
    // The handles the list binds, asked for only when an `unchanged` declaration looks for a
    // handle's node: it must not take one that a bound declaration of the list names.
    var boundHere: Set<ObjectIdentifier>?
    for position in declared.indices {
      let declaration = declared[position]
      let child: Node
      if let handle = declaration.handle {
        if let node = handle._node {
          if node.parent === self, node.isPlaced {
            // A node that placed itself here, which a slot now places: the declaration's.
            node.forgetOwnPlacement()
          } else if bound.removeValue(forKey: ObjectIdentifier(handle)) == nil {
            // Not a child here: placed twice, inside itself, or moved here from elsewhere (a
            // node an earlier declaration of this list took is in no list until the new one is
            // set).
            guard node.parent !== self, node !== self, node.childCount == 0 || !isStructurallyInside(node),
              taken.insert(ObjectIdentifier(node)).inserted
            else {
              problems.append(.handlePlacedTwice(parent: path))
              refused.append(position)
              continue
            }
            moved.append(HandleMove(node: node))
          }
          child = node
        } else {
          child = Node(declaration.id)
          handle.bind(child)
          created.append(child)
          taken.insert(ObjectIdentifier(child))
        }
      } else if let match = declaration.id == nil ? unnamed.popLast() : named[declaration.id!]?.popLast() {
        child = match
      } else if declaration.keepsContent, let id = declaration.id,
        let match = childList.prefix(listed).first(where: { child in
          guard child.id == id, let handle = child.boundHandle, bound[handle] != nil else { return false }
          if boundHere == nil {
            boundHere = Set(declared.compactMap { $0.handle.map(ObjectIdentifier.init) })
          }
          return !boundHere!.contains(handle)
        }),
        let handle = match.boundHandle
      {
        // `unchanged` keeps a node as it is, so it may keep a handle's node: it declares nothing
        // that could give that node to another view.
        bound[handle] = nil
        child = match
      } else {
        child = Node(declaration.id)
        created.append(child)
        if declaration.keepsContent {
          problems.append(.unchangedWithoutNode(id: declaration.id, parent: path))
        }
      }
      result.append(child)
    }
    // The placed children that stay (those no slot took), in their order.
    if listed < childCount {
      var placements: [Placement] = []
      for child in childList.suffix(from: listed) {
        guard let placement = child.existingExtras?.placing.placement else { continue }
        result.append(child)
        placements.append(placement)
      }
      extras.placing.placements = placements
    }
    var removed = unnamed
    for nodes in named.values { removed.append(contentsOf: nodes) }
    removed.append(contentsOf: bound.values)
    // Asked only when something is removed: finding the tree walks to the root.
    let wasInTree = !removed.isEmpty && isInTree
    let children = ChildList(result)
    // Every link and count is right before any user code runs (a focus change, a callback).
    let former = replaceChildren(with: children, unlinking: removed)
    let watched = countRemovedChildren(removed)
    // Counted now, not when each was taken: a node moved here from inside another node moved
    // here left that one's count, and only that one's, as it is in no list meanwhile.
    for move in moved { adjustLifecycleCount(by: move.node.lifecycleCount) }
    finishRemovingChildren(
      removed, watched: watched, wasInTree: wasInTree,
      site: removed.isEmpty ? .unknown : .formerChildren(former))
    for move in moved { move.finish() }
    for problem in problems { reporting(problem) }
    for position in refused.reversed() { declared.remove(at: position) }
    return children
  }
}

/// A handle's node that an update moves to another parent, or places for the first time: it is
/// unlinked from its former parent at once, without callbacks, and the bookkeeping of a move
/// (trees, focus, lifecycle callbacks) runs once the new parent's children are set.
struct HandleMove {
  let node: Node
  let formerParent: Node?
  let watched: Int32
  let wasInTree: Bool

  init(node: Node) {
    self.node = node
    formerParent = node.parent
    watched = node.lifecycleCount
    wasInTree = watched > 0 && node.isInTree
    if let formerParent, let index = formerParent.childList.firstIndex(where: { $0 === node }) {
      formerParent.forgetPlacement(ofChildAt: index)
      formerParent.unlinkChild(at: index)
      formerParent.adjustLifecycleCount(by: -watched)
    }
  }

  /// Finishes the move once the new parent lists the node and counts its watched nodes.
  func finish() {
    // First, so that the update the move is part of holds the tree's repairs (see `TreeUpdates`).
    node.layoutDidChange()
    if let formerParent {
      formerParent.didDetach(CollectionOfOne(node), formerParent: formerParent)
    } else if let adoptedTree = node.treeState {
      // Another tree's root: the tree it joins routes the pointer from now on (see `adopt`).
      adoptedTree.dropPointer()
    }
    if watched > 0 {
      if wasInTree { node.notifyLifecycle(.detach) }
      if node.isInTree { node.notifyLifecycle(.attach) }
    }
  }
}

/// The children of one node, as an update walks them: the nodes, and their declarations in the
/// same order, up to `position` already applied.
struct UpdateFrame {
  let nodes: ChildList
  var declarations: [NodeDeclaration]
  var position = 0
}

/// The keys of the attachments a node's last declaration made.
enum DeclaredAttachmentKeys: NodeAttachmentKey {
  static var defaultValue: [any NodeAttachmentKey.Type] { [] }
}

extension NodeTree {
  /// Creates a tree whose root is made from a declaration.
  ///
  /// - Parameter declaration: The root's declaration.
  public convenience init(declaring declaration: consuming NodeDeclaration) {
    self.init(freshRoot: Node(declaring: declaration))
  }

  /// Makes the tree exactly what `declaration` declares (see ``Node/update(to:)``): the root keeps
  /// its identity, and so does every node the declaration still declares.
  ///
  /// - Parameter declaration: The root's declaration.
  public func update(to declaration: consuming NodeDeclaration) { root.update(to: declaration) }
}
