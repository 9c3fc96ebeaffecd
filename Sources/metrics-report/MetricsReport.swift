import ArgumentParser
import Foundation

/// The `metrics-report` command: a thin shell over MetricKitAnalysis. It parses arguments and maps
/// outcomes to exit codes: 0 success, 1 the gate fails, 2 cannot evaluate, 64 usage error.
@main
struct MetricsReport: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "metrics-report",
    abstract: "Turns dumps of MetricKit payloads into numbers you can trust.",
    discussion: """
      Exit codes: 0 success; 1 the gate fails; 2 cannot evaluate (no payloads for a requested version, \
      --strict with rejected inputs); 64 usage error.
      """,
    version: "0.1.0",
    // Each command states its `commandName`: without one, the parser derives the name from the type's
    // name (`String(describing:)` of the metatype, a search of every loaded library's conformances)
    // for every command on every start, about a quarter of a `--version` run's instructions.
    subcommands: [
      Summary.self, Trend.self, Compare.self, Report.self, Watch.self, Export.self, Diagnostics.self, Snapshot.self,
      MergeSnapshots.self,
      Rules.self, Organizer.self, Cache.self, CollectCommand.self,
    ]
  )

  /// Runs the command the arguments name; a ``CommandFailure`` is said and becomes its exit code.
  static func main() async {
    // A reader that stops early (`| head`) makes the next write fail with EPIPE, which the writer
    // says and ends with exit 2, instead of the process ending silently by the signal.
    signal(SIGPIPE, SIG_IGN)
    let arguments = Array(CommandLine.arguments.dropFirst())
    do {
      // The collector parses its own arguments and answers its own help.
      if arguments.first == CollectCommand.name {
        try CollectCommand.replaceProcess(arguments: Array(arguments.dropFirst()))
      } else if arguments.starts(with: ["help", CollectCommand.name]) {
        try CollectCommand.replaceProcess(arguments: ["--help"])
      }
      var command = try parsedCommand(arguments)
      if var service = command as? AsyncParsableCommand { try await service.run() } else { try command.run() }
    } catch let failure as CommandFailure {
      failure.exit()
    } catch {
      if let lines = UsageMistake.unknownOption(in: arguments, root: Self.self) {
        for line in lines { ReportOutput.printError(line) }
        exit(withError: ExitCode.validationFailure)
      }
      exit(withError: error)
    }
  }

  /// The command `arguments` name, parsed. Arguments that start with a command's name are parsed by
  /// that command alone first: the root's parse of them asks, on the way, whether the command takes
  /// every remaining argument, which builds its arguments by reflection twice more (6% of the
  /// instructions of a `trend` with nothing new in its cache). Whatever that parse does not take as
  /// one of this tool's commands (a request for help, a version or a script, a mistake) is parsed
  /// again from the root, which answers it as it always has.
  static func parsedCommand(_ arguments: [String]) throws -> ParsableCommand {
    if let name = arguments.first,
      let type = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
      let command = try? type.parseAsRoot(Array(arguments.dropFirst())),
      commandTypes.contains(ObjectIdentifier(Swift.type(of: command)))
    {
      return command
    }
    return try parseAsRoot(arguments)
  }

  /// The commands under the root, at every depth.
  private static let commandTypes: Set<ObjectIdentifier> = {
    var types: Set<ObjectIdentifier> = []
    var pending = configuration.subcommands
    while let type = pending.popLast() {
      types.insert(ObjectIdentifier(type))
      pending += type.configuration.subcommands
    }
    return types
  }()
}
