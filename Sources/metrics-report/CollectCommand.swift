import ArgumentParser
import Foundation

/// `metrics-report collect …`: runs the collector, `metrics-report-collect`, found beside this
/// program, with the same arguments. The collector is a program of its own so that the analysis
/// commands build and ship without the server stack (SwiftNIO, Hummingbird); the command is here so
/// that `metrics-report collect` works wherever both are installed, as `git`'s commands do.
struct CollectCommand: ParsableCommand {
  /// The command's name, which the root hands over before parsing anything.
  static let name = "collect"

  static let configuration = CommandConfiguration(
    commandName: name,
    abstract: "Receive MetricKit payloads over HTTP and store them as a dump (runs metrics-report-collect).")

  /// Everything after `collect`, for the collector to parse.
  @Argument(parsing: .captureForPassthrough, help: "The collector's arguments (metrics-report collect --help).")
  var arguments: [String] = []

  func run() throws {
    try Self.replaceProcess(arguments: arguments)
  }

  /// The collector's path: beside this program's own file, links resolved.
  static var collectorPath: String {
    let own = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    return own.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("metrics-report-collect")
      .path
  }

  /// Replaces this process with the collector given `arguments` (its signals, output and exit
  /// status are then the collector's own); throws when there is no collector to run.
  static func replaceProcess(arguments: [String]) throws {
    let path = collectorPath
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw CommandFailure.cannotEvaluate(
        "collect runs metrics-report-collect, and there is none beside this program (\(path)): build it with "
          + "'swift build --product metrics-report-collect' or take both programs from the release tarball")
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    execv(path, argv)
    throw CommandFailure.cannotEvaluate("collect could not run \(path): \(String(cString: strerror(errno)))")
  }
}
