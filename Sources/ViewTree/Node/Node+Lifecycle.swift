/// The closures of `onAttach` and `onDetach` a node declares.
@usableFromInline
struct LifecycleCallbackLists {
  var attach: [(Node) -> Void] = []
  var detach: [(Node) -> Void] = []

  var isEmpty: Bool { attach.isEmpty && detach.isEmpty }
}

/// How a declaration names a node's `LifecycleCallbackLists`: a field key, whose value is the
/// lifecycle slot's `callbacks`.
@usableFromInline
enum LifecycleCallbacks: NodeFieldKey {
  @usableFromInline static var defaultValue: LifecycleCallbackLists { LifecycleCallbackLists() }

  @usableFromInline static func value<V>(of node: Node, as type: V.Type) -> V {
    (node.existingExtras?.lifecycle.callbacks ?? LifecycleCallbackLists()) as! V
  }

  @usableFromInline static func set<V>(_ value: V, on node: Node) {
    let callbacks = value as! LifecycleCallbackLists
    if !callbacks.isEmpty || node.existingExtras != nil { node.extras.lifecycle.callbacks = callbacks }
    node.lifecycleCallbacksChanged()
  }
}

extension ModifierHost {
  /// Calls `body` with the node each time it enters a tree: when its subtree is added under a
  /// node in a tree, when a tree is created with it, or when an update by declaration creates it
  /// in a tree. A move from one place to another is a detach and then an attach.
  ///
  /// ```swift
  /// NodeDeclaration("row").onAttach { node in controller.rowAppeared(node) }
  /// ```
  ///
  /// `body` runs after the change is complete, so it sees the tree as it now is, and may change
  /// it. A tree's nodes do not detach when the tree is released: they are being released too.
  ///
  /// - Parameter body: What to do; given the node.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func onAttach(_ body: @escaping (Node) -> Void) -> Self {
    var callbacks = self[attachment: LifecycleCallbacks.self]
    callbacks.attach.append(body)
    return settingAttachment(LifecycleCallbacks.self, to: callbacks)
  }

  /// Calls `body` with the node each time it leaves a tree: when it, or an ancestor, is removed
  /// from a node in a tree (or by an update by declaration), or moved (see ``onAttach(_:)``).
  ///
  /// - Parameter body: What to do; given the node.
  /// - Returns: This node or declaration, for chaining.
  @discardableResult
  public consuming func onDetach(_ body: @escaping (Node) -> Void) -> Self {
    var callbacks = self[attachment: LifecycleCallbacks.self]
    callbacks.detach.append(body)
    return settingAttachment(LifecycleCallbacks.self, to: callbacks)
  }
}

extension Node {
  /// Whether the node is in a tree: its top-most ancestor is the root of one.
  var isInTree: Bool { root.treeState != nil }

  /// Keeps `hasLifecycleCallbacks` and the subtree counts of the node and its ancestors in step
  /// with its `LifecycleCallbacks` attachment, and with a focus scope's `autofocus`, which the
  /// tree serves when the node attaches.
  func lifecycleCallbacksChanged() {
    let callbacks = self[attachment: LifecycleCallbacks.self]
    let has = !callbacks.isEmpty || inputTraits?.autofocus == true
    guard has != hasLifecycleCallbacks else { return }
    hasLifecycleCallbacks = has
    adjustLifecycleCount(by: has ? 1 : -1)
  }

  /// What a watched node does when it enters a tree: its `onAttach` callbacks run, and a scope
  /// declared with `autofocus` asks the tree for focus (served once the change is complete).
  func didAttach() {
    if inputTraits?.autofocus == true { root.treeState?.requestAutofocus(self) }
    for body in self[attachment: LifecycleCallbacks.self].attach { body(self) }
  }

  /// Serves the autofocus requests of this node's tree, at the end of a change that may have
  /// made some: an update, an insertion.
  func serveAutofocus() {
    guard let state = root.treeState, !state.focus.autofocus.isEmpty else { return }
    state.serveAutofocus()
  }

  /// Adds `delta` to the lifecycle count of this node and of each ancestor.
  func adjustLifecycleCount(by delta: Int32) {
    guard delta != 0 else { return }
    var node: Node? = self
    while let current = node {
      current.lifecycleCount += delta
      node = current.parent
    }
  }

  /// The phases of `notifyLifecycle`.
  enum LifecyclePhase {
    case attach
    case detach
  }

  /// Calls the `phase` callbacks of every node in this subtree that has some, in depth-first
  /// pre-order. The nodes are listed first, so callbacks may change the tree.
  func notifyLifecycle(_ phase: LifecyclePhase) {
    guard lifecycleCount > 0 else { return }
    var watched: [Node] = []
    var stack: [Node] = [self]
    while let node = stack.popLast() {
      if node.hasLifecycleCallbacks { watched.append(node) }
      for child in node.childList.reversed() where child.lifecycleCount > 0 { stack.append(child) }
    }
    for node in watched {
      if phase == .attach {
        node.didAttach()
      } else {
        for body in node[attachment: LifecycleCallbacks.self].detach { body(node) }
      }
    }
  }
}

/// What a node keeps for its lifecycle callbacks (`NodeExtras.lifecycle`).
struct NodeLifecycle {
  /// The closures of `onAttach` and `onDetach`.
  var callbacks = LifecycleCallbackLists()
  /// The nodes of the subtree (this one included) with `onAttach` or `onDetach` callbacks, so that
  /// changes to subtrees without any cost nothing.
  var count: Int32 = 0
  /// Whether the node itself has callbacks.
  var hasCallbacks = false
}

extension Node {
  /// See `NodeLifecycle.count`.
  var lifecycleCount: Int32 {
    get { existingExtras?.lifecycle.count ?? 0 }
    set { if newValue != 0 || existingExtras != nil { extras.lifecycle.count = newValue } }
  }

  /// See `NodeLifecycle.hasCallbacks`.
  var hasLifecycleCallbacks: Bool {
    get { existingExtras?.lifecycle.hasCallbacks ?? false }
    set { if newValue || existingExtras != nil { extras.lifecycle.hasCallbacks = newValue } }
  }
}
