import Foundation
import TestSupport
import Testing
import ViewTree

// The README's requests example, compiled and run by `readmeRequestsExampleRuns`;
// `readmeShowsTheRequestsExample` checks that the README shows exactly this code.

// readme-requests:begin
struct User: Equatable {
  var id: Int
  var name: String
}

struct FetchUser: Request {
  typealias Result = User
  var id: Int
}

struct SyncAll: Action {}

func runRequestsExample() async throws -> [String] {
  let tree = NodeTree("app") {
    Node("session") {
      Node("profile")
    }
    .respond(to: FetchUser.self) { request in User(id: request.id, name: "Ada") }
  }
  tree.requiresHandling = true  // an action nobody handles is an error, not a silent no-op
  tree.root.handleAction(SyncAll.self) { (_: SyncAll) async throws in
    try await Task.sleep(for: .milliseconds(1))  // runs on the caller's actor
  }

  let profile = tree.node(id: "profile")!
  let user = try await profile.request(FetchUser(id: 3))  // answered by "session"
  let synced = await profile.trigger(SyncAll())  // awaits the async handler
  let stray = await profile.trigger(FetchUser(id: 4))  // handled: the answer is dropped
  let orphan = Node("orphan")
  let failure = Result { try orphan.request(FetchUser(id: 5)) }  // not in a tree: an error

  return [
    user.name, "\(synced.isHandled)", "\(stray.isHandled)", "\(failure.map(\.name))",
  ]
}
// readme-requests:end

@Suite struct ReadmeRequestsExampleTests {
  @Test func readmeRequestsExampleRuns() async throws {
    let lines = try await runRequestsExample()
    #expect(Array(lines.prefix(3)) == ["Ada", "true", "true"])
    #expect(lines[3].hasPrefix("failure(FetchUser was not dispatched: the node is not in a rooted NodeTree"))
  }

  @Test func readmeShowsTheRequestsExample() throws {
    try expectReadmeShows(marker: "readme-requests", imports: ["import ViewTree"])
  }
}
