import ArgumentParser
import Foundation
import MetricKitAnalysis

extension ComparisonRenderer.Format: ExpressibleByArgument {}
extension Decision: ExpressibleByArgument {}

/// `metrics-report compare PATH… --baseline V --candidate V`: the release gate.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Compare a candidate version against a baseline and gate on regressions (exit 1 when the gate fails).",
    discussion: """
      Examples:
        metrics-report compare Samples/dump --baseline 3.8.0 --candidate 3.9.0
        metrics-report compare dumps/ --baseline 5.10.0 --candidate 5.11.0 \\
          --rules rules.yml --format junit -o gate.xml

      A first run needs the payloads, --baseline and --candidate; --rules, --format and -o are next. \
      Exit codes: 0 the gate passes, 1 it fails, 2 it cannot evaluate, 64 a usage error.
      """)

  @Option(help: "The baseline app version: in the dump, or, with --baseline-file, in that snapshot file.")
  var baseline: String?

  @Option(help: "The candidate app version: in the dump, or, with --candidate-file, in that snapshot file.")
  var candidate: String?

  @Option(
    help: "A snapshot file written by 'metrics-report snapshot' or 'merge' (of several versions: with --baseline).")
  var baselineFile: String?

  @Option(help: "A candidate snapshot file (e.g. merged from shards; of several versions: with --candidate).")
  var candidateFile: String?

  @Option(help: "Output format: text, json, markdown, junit, github or openmetrics (gauges for a dashboard).")
  var format: ComparisonRenderer.Format = .text

  @Option(name: [.customShort("o"), .long], help: "Write the report to this file instead of standard output.")
  var output: String?

  @OptionGroup var gate: GateOptions

  /// The payloads, and what is kept of them: after the options a first run needs, which the help
  /// lists first.
  @OptionGroup var input: InputOptions

  @Option(help: "Override every rule's minimum number of payloads per side.")
  var minPayloads: Int?

  @OptionGroup var histogram: HistogramOptions

  @Flag(help: "Exit 0 even when no error rule had data enough to decide (exit 2 otherwise: a pass would mean nothing).")
  var allowInsufficient = false

  @OptionGroup var breakdown: BreakdownOptions

  @OptionGroup var symbols: SymbolOptions

  @OptionGroup var organizer: OrganizerOptions

  @OptionGroup var terminal: TerminalOptions

  @Flag(help: "On a terminal, keep the wide table a pipe gets instead of fitting the window.")
  var wide = false

  @Option(
    help:
      "The repository's root: with --format github, a new signature whose culprit file lies in it is annotated on that file and line."
  )
  var sourceRoot: String?

  /// The versions read from the dump (not from snapshot files).
  private var baselineFromDump: String? { baselineFile == nil ? baseline : nil }
  private var candidateFromDump: String? { candidateFile == nil ? candidate : nil }

  mutating func validate() throws {
    try input.validate(
      output: output, alsoReading: [gate.rules, baselineFile, candidateFile].compactMap { $0 } + organizer.paths)
    if baseline == nil && baselineFile == nil {
      throw ValidationError(
        "Give --baseline VERSION, --baseline-file SNAPSHOT, or both (a version of a multi-version file).")
    }
    if candidate == nil && candidateFile == nil {
      throw ValidationError(
        "Give --candidate VERSION, --candidate-file SNAPSHOT, or both (a version of a multi-version file).")
    }
    if (baselineFromDump != nil || candidateFromDump != nil) && input.paths.isEmpty && !input.stdin {
      throw ValidationError("Name the payload files or directories holding the versions to compare.")
    }
    if !input.appVersions.isEmpty {
      throw ValidationError("--app-version does not apply to compare: use --baseline and --candidate.")
    }
    if breakdown.by != nil && (baselineFile != nil || candidateFile != nil) {
      throw ValidationError("--by needs both versions from the dump (snapshots hold no groups).")
    }
    if let minPayloads, minPayloads < 2 { throw ValidationError("--min-payloads must be at least 2.") }
  }

  func run() throws {
    var ruleSet = try gate.ruleSet()
    let apple = try organizer.load()
    if let minPayloads {
      ruleSet.rules = ruleSet.rules.map {
        var r = $0
        r.minPayloads = minPayloads
        return r
      }
    }
    let evaluator = gate.evaluator(ruleSet, histogram: histogram)
    let baselineSnapshot = try baselineFile.map { try load($0, version: baseline, for: evaluator) }
    let candidateSnapshot = try candidateFile.map { try load($0, version: candidate, for: evaluator) }

    let grouping: GroupingKey?
    do throws(GroupingConflictError) {
      grouping = try ruleSet.grouping(asked: breakdown.key, fromSnapshot: baselineFile != nil || candidateFile != nil)
    } catch {
      throw GateOptions.usageError(error)
    }
    let diagnosticOptions = symbols.diagnosticOptions()
    var options = evaluator.gateAggregationOptions
    options.grouping = grouping
    options.diagnostics = diagnosticOptions
    var filter = try input.filter()
    filter.applicationVersions = Set([baselineFromDump, candidateFromDump].compactMap { $0 })
    options.stratifiedVersions = filter.applicationVersions
    let fromDump = !filter.applicationVersions.isEmpty
    var aggregate = DumpAggregate()
    let columns = format == .text && !wide ? TerminalOptions.fittingColumns(output: output) : nil
    /// The gate over `aggregate` (and the snapshots), as its text, notes and exit status.
    func evaluate() throws -> AggregateCache.StoredOutput {
      var report: ComparisonReport
      do {
        report = try ComparisonReport(
          gate: evaluator, aggregate: aggregate, baseline: side(baselineSnapshot, baselineFile, baseline),
          candidate: side(candidateSnapshot, candidateFile, candidate), grouping: grouping,
          wholeVersions: breakdown.key == nil, top: breakdown.top, threads: input.threads)
      } catch {
        throw ReportOutput.noPayloads(for: error.versions, counted: error.counted)
      }
      if !organizer.paths.isEmpty {
        report.organizer = OrganizerGate(report: report, files: apple, severity: ruleSet.organizerRegressions)
      }
      let text =
        columns.map { ComparisonRenderer.text(report, columns: $0) }
        ?? ComparisonRenderer.render(report, as: format, sourceRoot: sourceRoot)
      var outcome = AggregateCache.StoredOutput(text: text)
      switch report.outcome(acceptingInsufficient: allowInsufficient) {
      case .passed: break
      case .failed: outcome.status = CommandFailure.gateFailedStatus
      case .notEvaluated(let reason):
        outcome.notes.append("metrics-report: \(reason); pass --allow-insufficient to accept that")
        outcome.status = CommandFailure.cannotEvaluateStatus
      }
      return outcome
    }
    var outcome: AggregateCache.StoredOutput
    // With a cache, a gate over inputs and options it has seen is written again as it was: only the
    // entries' outlines are read. (Not with snapshot files, Apple's responses or symbols, which the
    // cache does not cover.)
    if fromDump, let cache = try input.openCache(), baselineFile == nil, candidateFile == nil,
      organizer.paths.isEmpty, diagnosticOptions.symbolicator == nil
    {
      let outline = try input.read(options, filter: filter, through: cache, outlinesOnly: true)
      aggregate = outline.aggregate
      try ReportOutput.listRejections(aggregate.inputs, strict: input.strict)
      // A layout fitted to a terminal is kept apart from the one pipes get, per width.
      let recipe =
        input.recipe(reading: [gate.rules].compactMap { $0 }) + (columns.map { "\nfitted to \($0) columns" } ?? "")
      outcome = try outline.output(for: recipe, say: ReportOutput.printError) {
        aggregate = try gate.windowed(options, baseline: baselineFromDump, candidate: candidateFromDump) {
          guard $0 == options else {
            return try input.read($0, filter: filter, through: cache, announced: false).aggregate
          }
          let whole = outline.whole()
          if !outline.isWhole { for note in whole.notes(summary: false) { ReportOutput.printError(note) } }
          return whole.aggregate
        }
        return try evaluate()
      }.output
    } else {
      if fromDump {
        aggregate = try gate.windowed(options, baseline: baselineFromDump, candidate: candidateFromDump) {
          try input.aggregate($0, filter: filter)
        }
        try ReportOutput.listRejections(aggregate.inputs, strict: input.strict)
      }
      outcome = try evaluate()
    }
    try ReportOutput.write(
      format == .text ? terminal.shown(outcome.text, output: output) : outcome.text, to: output,
      inputs: aggregate.discovery)
    SymbolOptions.printNotes(diagnosticOptions)
    for note in outcome.notes { ReportOutput.printError(note) }
    if outcome.status != 0 { throw CommandFailure.finished(status: outcome.status) }
  }

  /// A side of the gate: the snapshot loaded from `file`, or the version of the dump.
  private func side(_ snapshot: VersionSnapshot?, _ file: String?, _ version: String?) -> ComparisonReport.Side {
    if let snapshot { .snapshot(snapshot, path: file ?? "") } else { .dump(version: version ?? "") }
  }

  /// Loads a snapshot (`version`'s, from a file of several) and checks it records what the rules need.
  private func load(_ path: String, version: String?, for evaluator: RegressionEvaluator) throws -> VersionSnapshot {
    let snapshot: VersionSnapshot
    do {
      snapshot = try VersionSnapshot.load(path: path, version: version)
    } catch {
      throw CommandFailure.cannotEvaluate(error.commandLineDescription)
    }
    if let mismatch = snapshot.mismatch(
      estimator: histogram.estimator, payloadPercentiles: evaluator.payloadPercentiles)
    {
      throw CommandFailure.cannotEvaluate("\(path) \(mismatch)")
    }
    return snapshot
  }
}
