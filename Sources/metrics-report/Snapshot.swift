import ArgumentParser
import Foundation
import MetricKitAnalysis

/// `metrics-report snapshot PATH… --app-version V -o FILE`: a baseline aggregate for later compares.
struct Snapshot: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snapshot",
    abstract:
      "Write a JSON snapshot of a version (merged histograms and per-payload values) for compare --baseline-file.",
    discussion: """
      Examples:
        metrics-report snapshot Samples/dump --app-version 3.8.0 -o baseline.json
        metrics-report compare dumps/ --baseline-file baseline.json --candidate 3.9.0

      --app-version repeated, or none (every version counted), writes one snapshot per version, one after \
      the other in one file: one pass over a dump feeds compare for every pair (--baseline-file F \
      --baseline V) and trend --snapshot F.
      """)

  @OptionGroup var input: InputOptions

  @OptionGroup var symbols: SymbolOptions

  @Option(help: "Histogram mean estimator: midpoint, bucket-end or bucket-start.")
  var estimator: MeanEstimator = .midpoint

  @Option(help: "Per-payload histogram percentiles to record, comma-separated.")
  var payloadPercentiles: String = "50,90,95,99"

  @Option(name: [.customShort("o"), .long], help: "Write the snapshot to this file instead of standard output.")
  var output: String?

  @Flag(help: "Write the snapshot on one line (one element per partition in Spark's rdd.pipe().collect()).")
  var compact = false

  @Flag(
    help:
      "Write an empty snapshot (zero payloads, the full input accounting) when the input holds no payload of the version, as --stdin always does: a shard without the version is an ordinary shard."
  )
  var allowEmpty = false

  @Option(
    help: ArgumentHelp(
      "Keep each version's per-payload values exactly up to this many payloads, then as sketches with 1% relative error (bounded size at any scale).",
      valueName: "n"))
  var exactValues = ScalarSample.defaultExactLimit

  @Option(
    help: ArgumentHelp(
      "Keep at most this many per-payload values exactly in the whole snapshot, the samples the gate's rules test first; the others as sketches.",
      valueName: "n"))
  var exactBudget = VersionSnapshot.defaultExactValueBudget

  @Option(help: "Also record the time axis, per day, week or month, so that merged shards feed 'trend --snapshot'.")
  var interval: TrendInterval?

  @Option(
    help: ArgumentHelp(
      "With --interval, break the time axis down by a metadata field (as trend --by).", valueName: "key"))
  var by: String?

  @Option(
    help: ArgumentHelp(
      "Also record each version per stratum of these fields (--by keys, comma-separated), as compare matches them; 'none' records none.",
      valueName: "fields"))
  var stratify: Stratification = .default

  mutating func validate() throws {
    try input.validate(output: output)
    if input.paths.isEmpty && !input.stdin {
      throw ValidationError("Name at least one payload file or directory, or pass --stdin.")
    }
    if let by {
      guard interval != nil else { throw ValidationError("--by needs --interval (it groups the time axis).") }
      _ = try BreakdownOptions.key(by)
    }
    _ = try percentiles()
    guard exactValues >= 0 else { throw ValidationError("--exact-values takes a count (0 or more).") }
    guard exactBudget >= 0 else { throw ValidationError("--exact-budget takes a count (0 or more).") }
  }

  func percentiles() throws -> [Percentile] {
    let parts = payloadPercentiles.split(separator: ",")
    let parsed = parts.compactMap { Percentile(parsing: String($0)) }
    guard parsed.count == parts.count else { throw ValidationError("--payload-percentiles takes numbers in (0, 100].") }
    return Array(Set(parsed)).sorted()
  }

  func run() throws {
    let recorded = try percentiles()
    var options = AggregationOptions(
      estimator: estimator, payloadStatistics: MetricSelection(), payloadPercentiles: recorded)
    options.interval = interval
    options.exactValueLimit = exactValues
    options.grouping = by.flatMap(GroupingKey.init(parsing:))
    options.dayUTCOffset = try input.timestampParser().assumedUTCOffset
    options.diagnostics = symbols.diagnosticOptions()
    if stratify.isStratified {
      options.stratification = stratify
      if !input.appVersions.isEmpty { options.stratifiedVersions = Set(input.appVersions) }
    }
    let aggregate = try input.aggregate(options)
    try ReportOutput.listRejections(aggregate.inputs, strict: input.strict)
    // The versions asked, or every version counted.
    let versions =
      input.appVersions.isEmpty
      ? aggregate.versions.keys.sorted(by: VersionOrder.precedes)
      : Array(Set(input.appVersions)).sorted(by: VersionOrder.precedes)
    // A shard may hold none of a version: with --stdin (a partition piped through) or --allow-empty,
    // its snapshot counts its inputs and merges like any other.
    let empty = input.stdin || allowEmpty
    let missing = versions.filter { aggregate.versions[$0] == nil }
    if (!missing.isEmpty && !empty) || (versions.isEmpty && !input.stdin) {
      throw CommandFailure.cannotEvaluate(
        "no payloads for version \(missing.isEmpty ? "any" : missing.joined(separator: ", ")) "
          + "(--allow-empty writes an empty snapshot)")
    }
    let text = versions.map { version in
      VersionSnapshot(of: version, in: aggregate, options: options, exactValueBudget: exactBudget).json(
        compact: compact)
    }.joined()
    try ReportOutput.write(text, to: output, inputs: aggregate.discovery)
    SymbolOptions.printNotes(options.diagnostics)
  }
}
