import ArgumentParser

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
      Summary.self, Trend.self, Compare.self, Report.self, Export.self, Diagnostics.self, Snapshot.self,
      MergeSnapshots.self,
      Rules.self, Organizer.self, Cache.self,
    ] + serviceCommands
  )

  /// Runs the command the arguments name; a ``CommandFailure`` is said and becomes its exit code.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var service = command as? AsyncParsableCommand { try await service.run() } else { try command.run() }
    } catch let failure as CommandFailure {
      failure.exit()
    } catch {
      exit(withError: error)
    }
  }
}

/// The collector's command, compiled with the package's `Collector` trait (on by default).
#if Collector
  private let serviceCommands: [any ParsableCommand.Type] = [Collect.self]
#else
  private let serviceCommands: [any ParsableCommand.Type] = []
#endif
