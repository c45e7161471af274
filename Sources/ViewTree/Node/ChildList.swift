/// A node's children: an array that also removes its first element in O(1), so that tearing a
/// long list down from the front (as a list view scrolling or a log trimming does) is linear in
/// all rather than quadratic.
///
/// Elements live in `storage[head...]`; the slots before `head` are empty. Removing the first
/// element empties its slot and advances `head`; the storage is compacted once more than half of
/// it is empty, which keeps every operation amortized at its `Array` cost.
struct ChildList: RandomAccessCollection, ExpressibleByArrayLiteral {
  private var storage: ContiguousArray<Node?> = []
  private(set) var head = 0

  init() {}

  init(arrayLiteral elements: Node...) { storage = ContiguousArray(elements) }

  /// A list of the slots of another, whose first child is at `head`.
  init(slots: consuming ContiguousArray<Node?>, head: Int) {
    self.storage = slots
    self.head = head
  }

  /// Exchanges the slots with `slots`, leaving the position of the first child as it is: how a
  /// node that keeps the two apart lends and takes back its slots without copying them.
  mutating func exchangeSlots(with slots: inout ContiguousArray<Node?>) { swap(&storage, &slots) }

  init(_ nodes: some Sequence<Node>) { storage = ContiguousArray(nodes.lazy.map { $0 }) }

  var startIndex: Int { 0 }
  var endIndex: Int { storage.count - head }

  subscript(position: Int) -> Node {
    // Slots from `head` on always hold a node. (A checked unwrap: this file is safe Swift, and the
    // check costs nothing measurable beside the array's own bounds check.)
    storage[head + position]!
  }

  /// Empties the list and returns its storage as it is (slots before the first child are empty),
  /// without copying: for teardown.
  mutating func takeAll() -> ContiguousArray<Node?> {
    defer {
      storage = []
      head = 0
    }
    return storage
  }

  mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(head + capacity) }

  mutating func append(_ node: Node) { storage.append(node) }

  mutating func insert(_ node: Node, at position: Int) { storage.insert(node, at: head + position) }

  @discardableResult
  mutating func remove(at position: Int) -> Node {
    guard position == 0 else { return storage.remove(at: head + position)! }
    let node = storage[head]!
    storage[head] = nil
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 16, head * 2 > storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return node
  }
}
