import PlaygroundKit
import ViewTreeActions

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `swift run Playground`: interactive in a terminal, scripted otherwise (see `usage`).

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(usage)
  exit(0)
}

var keymap: Keymap?
if let flag = arguments.firstIndex(of: "--keymap") {
  guard flag + 1 < arguments.count else {
    print("--keymap needs a file; see --help")
    exit(2)
  }
  do {
    keymap = try readKeymap(at: arguments[flag + 1])
  } catch {
    print(error)
    exit(2)
  }
  arguments.removeSubrange(flag...(flag + 1))
}

if let flag = arguments.firstIndex(of: "--script") {
  guard flag + 1 < arguments.count else {
    print("--script needs the keys to play; see --help")
    exit(2)
  }
  do {
    runScript(try parseScript(arguments[flag + 1]), keymap: keymap) { print($0) }
  } catch {
    print(error)
    exit(2)
  }
} else if let unknown = arguments.first {
  print("unknown argument '\(unknown)'; see --help")
  exit(2)
} else if InteractiveSession.isAvailable {
  do {
    try InteractiveSession(keymap: keymap).run()
  } catch {
    print(error)
    exit(1)
  }
} else {
  // Standard input is not a terminal (CI, a pipe): play the tour.
  runScript(try! parseScript(defaultTour), keymap: keymap) { print($0) }
}
