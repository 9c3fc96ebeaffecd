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
    do {
      let loaded = try snapshots.map { path throws(VersionSnapshot.Failure) in try VersionSnapshot.load(path: path) }
      try ReportOutput.write(try VersionSnapshot.merge(loaded).json, to: output)
    } catch let failure as VersionSnapshot.Failure {
      ReportOutput.printError("metrics-report: \(failure)")
      throw ExitStatus.cannotEvaluate
    }
  }
}
