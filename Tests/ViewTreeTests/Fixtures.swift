import ViewTree

struct Save: Action {}
struct Open: Action { var path: String }
struct Ping: Action { var count: Int }
protocol DocumentAction: Action {}
struct Close: DocumentAction {}
struct Print: DocumentAction {}
class BaseCommand: Action {
  let name: String
  init(name: String) { self.name = name }
}
final class SpecialCommand: BaseCommand {}
enum MovieAction: Action, Equatable { case play, pause }
enum AppAction: Action, Equatable {
  case movie(MovieAction)
  case quit
}

struct TestError: Error, Equatable { var name: String }
struct OtherError: Error, Equatable {}

extension ActionOutcome {
  var handlerID: String? { handler?.id }
}
