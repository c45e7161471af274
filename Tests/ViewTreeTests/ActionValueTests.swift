import Testing
import ViewTree

/// A typed body reads the action's value in place when the existential stores it in its inline
/// buffer, and through the value's type otherwise: every storage shape must read the same.
@Suite struct ActionValueTests {
  /// Fits the inline buffer: three words, one of them a reference.
  struct Small: Action {
    var name: String
    var count: Int
  }

  /// Too big for the inline buffer: stored in a box.
  struct Large: Action {
    var a, b, c, d: Int
    var name: String
  }

  /// Small, but holds a weak reference, which need not be bitwise takable.
  struct Weak: Action {
    weak var owner: Owner?
    var count: Int
  }

  /// A class action: a reference in the inline buffer.
  final class Shared: Action {
    let name: String
    init(name: String) { self.name = name }
  }

  final class Owner: Sendable {
    let name: String
    init(name: String) { self.name = name }
  }

  /// An empty action, which takes no bytes at all.
  struct Empty: Action {}

  @Test func typedBodiesReadEveryStorageShape() throws {
    var seen: [String] = []
    let owner = Owner(name: "owner")
    let leaf = Node("leaf")
    leaf
      .handleAction(Small.self) { small in seen.append("small \(small.name) \(small.count)") }
      .handleAction(Large.self) { large in
        seen.append("large \(large.a + large.b + large.c + large.d) \(large.name)")
      }
      .handleAction(Weak.self) { weak in seen.append("weak \(weak.owner?.name ?? "-") \(weak.count)") }
      .handleAction(Shared.self) { shared in seen.append("shared \(shared.name)") }
      .handleAction(Empty.self) { _ in seen.append("empty") }
    let tree = try NodeTree(root: Node("root") { leaf })
    let name = String(repeating: "long name ", count: 4)
    leaf.trigger(Small(name: name, count: 3))
    leaf.trigger(Large(a: 1, b: 2, c: 3, d: 4, name: name))
    leaf.trigger(Weak(owner: owner, count: 5))
    leaf.trigger(Shared(name: name))
    leaf.trigger(Empty())
    #expect(
      seen == [
        "small \(name) 3", "large 10 \(name)", "weak owner 5", "shared \(name)", "empty",
      ])
    _ = tree
  }

  @Test func aTransformedValueIsReadByTheNextTypedBody() throws {
    var seen: [String] = []
    let leaf = Node("leaf")
    let tree = try NodeTree(
      root: Node("root") {
        Node("middle") { leaf }
          .transformAction(Small.self) { small in Small(name: small.name + "!", count: small.count + 1) }
      }
      .handleAction(Small.self) { small in seen.append("\(small.name) \(small.count)") })
    leaf.trigger(Small(name: "a", count: 1))
    #expect(seen == ["a! 2"])
    _ = tree
  }
}
