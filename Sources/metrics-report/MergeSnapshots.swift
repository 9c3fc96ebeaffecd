import ArgumentParser
import Foundation
import MetricKitAnalysis

/// `metrics-report merge A B… -o FILE`: adds snapshots of the same version exactly.
struct MergeSnapshots: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract:
      "Merge snapshots taken over disjoint inputs, per version; the result equals one snapshot of all of them.")

  @Argument(help: "Snapshot files.")
  var snapshots: [String] = []

  @Flag(
    help: "Also read snapshots from standard input: JSON documents one after the other (e.g. snapshot --compact lines)."
  )
  var stdin = false

  @Flag(help: "Write the merged snapshot on one line.")
  var compact = false

  @Option(name: [.customShort("o"), .long], help: "Write the merged snapshot to this file instead of standard output.")
  var output: String?

  mutating func validate() throws {
    if snapshots.isEmpty && !stdin { throw ValidationError("Name at least one snapshot, or pass --stdin.") }
  }

  func run() throws {
    // The same file twice would count its payloads twice; the output must not replace an input.
    let files = InputDiscovery().discover(snapshots)
    if let twice = files.duplicates.first {
      throw CommandFailure.cannotEvaluate(
        "\(twice) names a snapshot already named; merging it twice would double it")
    }
    do {
      var loaded: [VersionSnapshot] = []
      for path in snapshots { loaded += try VersionSnapshot.loadAll(path: path) }
      if stdin { loaded += try VersionSnapshot.loadAll(path: "/dev/stdin", name: "standard input") }
      // One merged snapshot per version, in version order (one document for one version, as always).
      let merged = try VersionSnapshot.mergedByVersion(loaded)
      try ReportOutput.write(merged.map { $0.json(compact: compact) }.joined(), to: output, inputs: files)
    } catch let failure as SnapshotError {
      throw CommandFailure.cannotEvaluate(failure.commandLineDescription)
    }
  }
}
