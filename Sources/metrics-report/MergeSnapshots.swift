import ArgumentParser
import Foundation
import MetricKitAnalysis

/// `metrics-report merge A B… -o FILE`: adds snapshots of the same version exactly.
struct MergeSnapshots: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract:
      "Merge snapshots of one version taken over disjoint inputs; the result equals one snapshot of all of them.")

  @Argument(help: "Snapshot files.")
  var snapshots: [String]

  @Option(name: [.customShort("o"), .long], help: "Write the merged snapshot to this file instead of standard output.")
  var output: String?

  mutating func validate() throws {
    if snapshots.isEmpty { throw ValidationError("Name at least one snapshot.") }
  }

  func run() throws {
    // The same file twice would count its payloads twice; the output must not replace an input.
    let files = InputDiscovery().discover(snapshots)
    if let twice = files.duplicates.first {
      ReportOutput.printError(
        "metrics-report: \(twice) names a snapshot already named; merging it twice would double it")
      throw ExitStatus.cannotEvaluate
    }
    do {
      let loaded = try snapshots.map { path throws(VersionSnapshot.Failure) in try VersionSnapshot.load(path: path) }
      try ReportOutput.write(try VersionSnapshot.merge(loaded).json, to: output, inputs: files)
    } catch let failure as VersionSnapshot.Failure {
      ReportOutput.printError("metrics-report: \(failure)")
      throw ExitStatus.cannotEvaluate
    }
  }
}
