// Does Swift call a closure stored in memory without copying it (a retain and a release)? Each
// function below reads the closure of `Entry.body` a different way and calls it (each does
// something different with the result, so that the optimizer does not merge them); `probe.sh
// copies` compiles this file with `swiftc -O -emit-assembly` and counts the `swift_retain` calls
// in each. With Swift 6.3 every form but the last one copies.

final class Context {
  var count = 0
}

enum Body {
  case run((Int) -> Int)
  case skip
}

struct Entry {
  var serial: UInt64
  var body: Body
}

/// Through `UnsafeMutablePointer.pointee`, as the dispatcher reads a node's modifier buffer.
@inline(never)
func throughPointer(_ entry: UnsafeMutablePointer<Entry>) -> Int {
  guard case .run(let body) = entry.pointee.body else { return 0 }
  return body(1) &+ 1
}

/// Through an `unsafeAddress` accessor.
struct EntryReference {
  let pointer: UnsafeMutablePointer<Entry>
  var body: Body { unsafeAddress { UnsafePointer(pointer).pointer(to: \.body)! } }
}

@inline(never)
func throughAddressor(_ entry: EntryReference) -> Int {
  guard case .run(let body) = entry.body else { return 0 }
  return body(2) &* 3
}

/// As a `borrowing` parameter.
@inline(__always)
func call(_ body: borrowing Body, with value: Int) -> Int {
  switch body {
  case .run(let body): body(value)
  case .skip: 0
  }
}

@inline(never)
func asBorrowingParameter(_ entry: UnsafeMutablePointer<Entry>) -> Int {
  call(entry.pointee.body, with: 3) &- 5
}

/// Through an `inout` access.
@inline(__always)
func call(_ body: inout Body, with value: Int) -> Int {
  guard case .run(let body) = body else { return 0 }
  return body(value)
}

@inline(never)
func throughInout(_ entry: UnsafeMutablePointer<Entry>) -> Int {
  call(&entry.pointee.body, with: 4) ^ 7
}

/// From a `let` property of a class instance the caller holds: called in place.
final class Box {
  let body: (Int) -> Int
  init(_ body: @escaping (Int) -> Int) { self.body = body }
}

@inline(never)
func fromClassLet(_ box: Box) -> Int {
  box.body(5)
}

let context = Context()
let closure: (Int) -> Int = { value in
  context.count += value
  return context.count
}
let entry = UnsafeMutablePointer<Entry>.allocate(capacity: 1)
entry.initialize(to: Entry(serial: 1, body: .run(closure)))
print(
  throughPointer(entry), throughAddressor(EntryReference(pointer: entry)), asBorrowingParameter(entry),
  throughInout(entry), fromClassLet(Box(closure)))
