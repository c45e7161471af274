/// Where a view's node goes among the nodes placed under one parent (see
/// ``NodeHandle/place(in:order:)``): a path of positions the toolkit knows, compared one
/// component after another, a path that is a prefix of another first.
///
/// ```swift
/// row.handle.place(in: list, order: [3, rowIndex])  // row `rowIndex` of the parent's fourth view
/// banner.handle.place(in: window, order: [1])        // an `if` at the window's second position
/// ```
///
/// Up to four components are kept inline, so that placing a node allocates nothing.
public struct PlacementOrder: Comparable, Hashable, Sendable, ExpressibleByArrayLiteral,
  CustomStringConvertible
{
  private var first = 0
  private var second = 0
  private var third = 0
  private var fourth = 0
  private var count = 0
  /// The components after the fourth, if any.
  private var rest: [Int] = []

  /// An order of the given positions, outermost first: `PlacementOrder(indexPath)`.
  ///
  /// - Parameter components: The positions; none is the empty order, which comes first.
  public init(_ components: some Sequence<Int>) {
    for component in components { append(component) }
  }

  /// An order of the listed positions: `[2, 500]`.
  ///
  /// - Parameter elements: The positions, outermost first.
  public init(arrayLiteral elements: Int...) { self.init(elements) }

  /// The positions, outermost first.
  public var components: [Int] { (0..<count).map { self[$0] } }

  /// The first four positions (0 where there are fewer), how many there are, and those after the
  /// fourth: what a `Placement` keeps.
  var head: (Int, Int, Int, Int) { (first, second, third, fourth) }
  var length: Int { count }
  var tail: [Int] { rest }

  /// The order `head`, `length` and `tail` describe.
  init(head: (Int, Int, Int, Int), length: Int, tail: [Int]) {
    (first, second, third, fourth) = head
    count = length
    rest = tail
  }

  /// `[2, 500]`.
  public var description: String { "\(components)" }

  private subscript(index: Int) -> Int {
    switch index {
    case 0: first
    case 1: second
    case 2: third
    case 3: fourth
    default: rest[index - 4]
    }
  }

  private mutating func append(_ component: Int) {
    switch count {
    case 0: first = component
    case 1: second = component
    case 2: third = component
    case 3: fourth = component
    default: rest.append(component)
    }
    count += 1
  }

  /// Whether `lhs` comes before `rhs`: at the first position where they differ, or, when one is a
  /// prefix of the other, the shorter.
  public static func < (lhs: PlacementOrder, rhs: PlacementOrder) -> Bool {
    for index in 0..<min(lhs.count, rhs.count) where lhs[index] != rhs[index] {
      return lhs[index] < rhs[index]
    }
    return lhs.count < rhs.count
  }
}

/// A placed node's order and the number of its first placement, which orders nodes of equal
/// order (see `NodeHandle.place(in:order:)`). Plain data: the positions after the fourth, which
/// hardly any order has, are kept apart (`NodeExtras.placementTail`), so that comparing and
/// copying a placement counts no reference.
struct Placement: Equatable {
  let first, second, third, fourth: Int
  let length: Int
  let sequence: UInt64

  init(_ order: PlacementOrder, sequence: UInt64) {
    (first, second, third, fourth) = order.head
    length = order.length
    self.sequence = sequence
  }

  /// Whether a node placed as `self` comes before one placed as `other`, when their first four
  /// positions and their lengths decide it (or their placements do, at equal orders); `nil`
  /// when both orders are longer than four and agree on those four, and their tails decide.
  func precedesByHead(_ other: Placement) -> Bool? {
    let shared = min(length, other.length)
    if shared > 0, first != other.first { return first < other.first }
    if shared > 1, second != other.second { return second < other.second }
    if shared > 2, third != other.third { return third < other.third }
    if shared > 3, fourth != other.fourth { return fourth < other.fourth }
    if shared > 4 { return nil }
    return length == other.length ? sequence < other.sequence : length < other.length
  }

  /// Whether a node placed as `self`, with the positions `tail` after its fourth, comes before one
  /// placed as `other`, with `otherTail`.
  func precedes(_ other: Placement, tail: [Int], otherTail: [Int]) -> Bool {
    if let answer = precedesByHead(other) { return answer }
    for (a, b) in zip(tail, otherTail) where a != b { return a < b }
    return tail.count == otherTail.count ? sequence < other.sequence : tail.count < otherTail.count
  }
}

extension NodeHandle {
  /// Places the handle's node under `parent`'s node, among the nodes placed there, by `order`:
  /// how a view that knows its parent (through the toolkit's environment), but whose parent
  /// cannot list its child views, joins the tree.
  ///
  /// ```swift
  /// // In a row view's body, with the list's handle from the environment:
  /// handle.update(to: NodeDeclaration("row").handleAction(Delete.self) { _ in model.delete(id) })
  /// handle.place(in: environment.parent, order: [0, index])
  /// ```
  ///
  /// The node stays there across both views' updates: an update of the parent that does not
  /// mention it keeps it, after the children the parent declares, among the placed ones in
  /// their order. It leaves when the view goes away (this handle is released or
  /// ``detach()``ed), or when the parent's declaration places it with a
  /// ``NodeDeclaration/slot(_:)`` (which then decides where it goes). Either handle may have no
  /// node yet: placing makes an empty one, which the view's update fills.
  ///
  /// Placed nodes are kept in `order`; nodes of equal order, and nodes placed without one, in
  /// the order they were first placed (a node placed without an order goes after those already
  /// placed). Placing a placed node again with another order moves it; with the same order, or
  /// none, it stays where it is. An order that the toolkit knows as an index (a row's position
  /// in its list) must be given again to the views whose index changed: a row inserted at 500
  /// lands at 500 among rows that still have their old indices, and each row placed again with
  /// its new index moves only if it must.
  ///
  /// Placing a node under its own subtree is reported on the node as
  /// ``ViewTreeError/cycle(child:parent:)``, and placing a node the parent's declaration places
  /// with a slot as ``ViewTreeError/placedBySlot(node:parent:)``; neither changes the tree.
  ///
  /// - Parameters:
  ///   - parent: The parent view's handle.
  ///   - order: Where the node goes among the placed ones; `nil` keeps a placed node where it
  ///     is and puts a new one after the others.
  /// - Complexity: O(log *n*) comparisons among the *n* placed nodes, and moving the later ones
  ///   one place on in the parent's list of children and its list of placements (one block copy
  ///   of a pointer and a placement each, as an array insertion does); a node that moves from
  ///   another parent costs a removal there too. Nothing walks the tree: the cost does not
  ///   depend on its size.
  public func place(in parent: NodeHandle, order: PlacementOrder? = nil) {
    let node = _node ?? makeNode(id: nil)
    let parentNode = parent._node ?? parent.makeNode(id: nil)
    parentNode.place(node, order: order)
  }
}

/// What placement keeps on a node (`NodeExtras.placing`).
struct NodePlacing {
  /// Where the node placed itself among its parent's placed children (see
  /// `NodeHandle.place(in:order:)`), if it did.
  var placement: Placement?
  /// The positions of its order after the fourth, if it has more (see `Placement`).
  var placementTail: [Int] = []
  /// For a parent: the placements of the children that placed themselves, which are the last
  /// ones of its list, in the same order (a placement search reads this array, not the
  /// children), and the number the next placement gets.
  var placements: [Placement] = []
  var nextPlacement: UInt64 = 0
  /// Set when the node's parent's view went away while the node's handle lived on.
  var orphaned: Orphaned?
}

extension Node {
  /// Whether the node placed itself under its parent (see `NodeHandle.place(in:order:)`).
  var isPlaced: Bool { existingExtras?.placing.placement != nil }

  /// The number of children the node lists before those that placed themselves.
  var declaredChildCount: Int { childCount - (existingExtras?.placing.placements.count ?? 0) }

  /// The order a placed node was placed with.
  var placementOrder: PlacementOrder? {
    guard let extras = existingExtras, let placement = extras.placing.placement else { return nil }
    return PlacementOrder(
      head: (placement.first, placement.second, placement.third, placement.fourth), length: placement.length,
      tail: extras.placing.placementTail)
  }

  /// Where a child placed as `placement`, with the positions `tail` after its fourth, goes among
  /// the placed children: the position of the first that does not precede it.
  private func placedIndex(for placement: Placement, tail: [Int]) -> Int {
    let extras = extras
    let declared = declaredChildCount
    var (low, high) = (0, extras.placing.placements.count)
    while low < high {
      let middle = (low + high) / 2
      let other = extras.placing.placements[middle]
      let isBefore =
        other.precedesByHead(placement)
        ?? other.precedes(
          placement, tail: child(at: declared + middle).extras.placing.placementTail, otherTail: tail)
      if isBefore { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Places `child` among this node's placed children (see `NodeHandle.place(in:order:)`).
  func place(_ child: Node, order: PlacementOrder?) {
    if child === self || (child.childCount > 0 && isStructurallyInside(child)) {
      child.reporting(ViewTreeError.cycle(child: child.path, parent: path))
      return
    }
    if child.parent === self {
      guard let current = child.existingExtras?.placing.placement else {
        child.reporting(ViewTreeError.placedBySlot(node: child.path, parent: path))
        return
      }
      guard let order, order != child.placementOrder else { return }
      // Moved among its siblings: taken out where it is (found by its placement), put back
      // where its new order says, which the search finds among the others. No node leaves or
      // enters the tree, and nothing is told.
      let declared = declaredChildCount
      let old = placedIndex(for: current, tail: child.extras.placing.placementTail)
      unlinkChild(at: declared + old)
      extras.placing.placements.remove(at: old)
      let placement = Placement(order, sequence: current.sequence)
      child.extras.placing.placement = placement
      child.extras.placing.placementTail = order.tail
      let new = placedIndex(for: placement, tail: order.tail)
      linkChild(child, at: declared + new)
      extras.placing.placements.insert(placement, at: new)
      return
    }
    let order =
      order ?? (extras.placing.placements.isEmpty ? [] : self.child(at: childCount - 1).placementOrder!)
    let placement = Placement(order, sequence: extras.placing.nextPlacement)
    extras.placing.nextPlacement += 1
    adopt(child, at: placedIndex(for: placement, tail: order.tail), placement: placement, tail: order.tail)
  }

  /// Forgets that the child at `index`, about to leave this node's list of children, placed
  /// itself (if it did).
  func forgetPlacement(ofChildAt index: Int) {
    let placedIndex = index - declaredChildCount
    guard placedIndex >= 0 else { return }
    extras.placing.placements.remove(at: placedIndex)
    child(at: index).forgetOwnPlacement()
  }

  /// Forgets that any child placed itself, as every child leaves this node's list.
  func forgetPlacements() {
    guard let extras = existingExtras, !extras.placing.placements.isEmpty else { return }
    for child in childList.suffix(extras.placing.placements.count) { child.forgetOwnPlacement() }
    extras.placing.placements = []
  }

  /// Forgets this node's own placement (its parent's list of placements is the caller's).
  func forgetOwnPlacement() {
    guard let extras = existingExtras, extras.placing.placement != nil else { return }
    extras.placing.placement = nil
    if !extras.placing.placementTail.isEmpty { extras.placing.placementTail = [] }
  }
}
