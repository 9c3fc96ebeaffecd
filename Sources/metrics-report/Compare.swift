import ArgumentParser
import Foundation
import MetricKitAnalysis

extension ComparisonRenderer.Format: ExpressibleByArgument {}

/// `metrics-report compare PATH… --baseline V --candidate V`: the release gate.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare a candidate version against a baseline and gate on regressions (exit 1 when the gate fails).")

  @OptionGroup var input: InputOptions

  @Option(help: "The baseline app version (in the dump), unless --baseline-file is given.")
  var baseline: String?

  @Option(help: "The candidate app version (in the dump), unless --candidate-file is given.")
  var candidate: String?

  @Option(help: "A baseline snapshot written by 'metrics-report snapshot', instead of --baseline.")
  var baselineFile: String?

  @Option(help: "A candidate snapshot (e.g. merged from shards), instead of --candidate.")
  var candidateFile: String?

  @Option(help: "Rule file (YAML or JSON); the built-in rules otherwise ('metrics-report rules --print-defaults').")
  var rules: String?

  @Option(help: "Override the false-discovery rate of the rules (0 < alpha < 1).")
  var alpha: Double?

  @Option(help: "Override every rule's minimum number of payloads per side.")
  var minPayloads: Int?

  @Option(help: "Histogram mean estimator: midpoint, bucket-end or bucket-start.")
  var estimator: MeanEstimator = .midpoint

  @Option(help: "Output format: text, json, markdown, junit, github or openmetrics (gauges for a dashboard).")
  var format: ComparisonRenderer.Format = .text

  @Option(name: [.customShort("o"), .long], help: "Write the report to this file instead of standard output.")
  var output: String?

  @Flag(help: "Exit 0 even when no error rule had data enough to decide (exit 2 otherwise: a pass would mean nothing).")
  var allowInsufficient = false

  @OptionGroup var breakdown: BreakdownOptions

  mutating func validate() throws {
    try input.validate(output: output, alsoReading: [rules, baselineFile, candidateFile].compactMap { $0 })
    if (baseline == nil) == (baselineFile == nil) {
      throw ValidationError("Give exactly one of --baseline VERSION and --baseline-file SNAPSHOT.")
    }
    if (candidate == nil) == (candidateFile == nil) {
      throw ValidationError("Give exactly one of --candidate VERSION and --candidate-file SNAPSHOT.")
    }
    if (baseline != nil || candidate != nil) && input.paths.isEmpty && !input.stdin {
      throw ValidationError("Name the payload files or directories holding the versions to compare.")
    }
    if !input.appVersions.isEmpty {
      throw ValidationError("--app-version does not apply to compare: use --baseline and --candidate.")
    }
    if let alpha, !(alpha > 0 && alpha < 1) { throw ValidationError("--alpha must be between 0 and 1.") }
    if breakdown.by != nil && (baselineFile != nil || candidateFile != nil) {
      throw ValidationError("--by needs both versions from the dump (snapshots hold no groups).")
    }
    if let minPayloads, minPayloads < 2 { throw ValidationError("--min-payloads must be at least 2.") }
  }

  func run() throws {
    var ruleSet = try ReportOutput.ruleSet(path: rules, alpha: alpha)
    if let minPayloads {
      ruleSet.rules = ruleSet.rules.map {
        var r = $0
        r.minPayloads = minPayloads
        return r
      }
    }
    let evaluator = RegressionEvaluator(ruleSet: ruleSet, estimator: estimator)
    let baselineSnapshot = try baselineFile.map { try load($0, for: evaluator) }
    let candidateSnapshot = try candidateFile.map { try load($0, for: evaluator) }

    var aggregate = DumpAggregate()
    let wanted = [baseline, candidate].compactMap { $0 }
    if !wanted.isEmpty {
      var filter = try input.filter()
      filter.applicationVersions = Set(wanted)
      var options = evaluator.aggregationOptions
      options.grouping = breakdown.key
      aggregate = DumpAggregate(
        paths: input.inputPaths, reader: try input.reader(), filter: filter, options: options, threads: input.threads,
        standardInput: input.stdin)
      try ReportOutput.listRejections(aggregate.inputs, strict: input.strict)
    }
    let baselineAggregate = baselineSnapshot?.aggregate ?? baseline.flatMap { aggregate.versions[$0] }
    let candidateAggregate = candidateSnapshot?.aggregate ?? candidate.flatMap { aggregate.versions[$0] }
    guard let baselineAggregate, let candidateAggregate else {
      let counted = aggregate.versions.keys.sorted(by: VersionOrder.precedes)
      let absent = [baselineAggregate == nil ? baseline : nil, candidateAggregate == nil ? candidate : nil]
        .compactMap { $0 }
      ReportOutput.printError(
        "metrics-report: no payloads for version \(absent.joined(separator: ", ")) "
          + "(versions counted: \(counted.isEmpty ? "none" : counted.joined(separator: ", ")))")
      throw ExitStatus.cannotEvaluate
    }
    var inputs = aggregate.inputs
    if let candidateSnapshot { inputs.merge(candidateSnapshot.inputs) }
    let report: ComparisonReport
    if breakdown.by != nil, let baseline, let candidate {
      report = ComparisonReport(
        grouped: aggregate, baseline: baseline, candidate: candidate, top: breakdown.top,
        baselineDiagnostics: aggregate.diagnostics[baseline], candidateDiagnostics: aggregate.diagnostics[candidate],
        evaluator: evaluator)
    } else {
      report = ComparisonReport(
        baseline: baselineAggregate, candidate: candidateAggregate, inputs: inputs,
        baselineSnapshot: baselineSnapshot.map { (baselineFile ?? "", $0.inputs) },
        baselineDiagnostics: baselineSnapshot?.diagnostics ?? baseline.flatMap { aggregate.diagnostics[$0] },
        candidateDiagnostics: candidateSnapshot?.diagnostics ?? candidate.flatMap { aggregate.diagnostics[$0] },
        evaluator: evaluator)
    }
    try ReportOutput.write(ComparisonRenderer.render(report, as: format), to: output, inputs: aggregate.discovery)
    if report.gateFails { throw ExitStatus.gateFailed }
    if report.nothingEvaluated && !allowInsufficient {
      ReportOutput.printError(
        "metrics-report: nothing to evaluate: every error rule had insufficient data "
          + "(\(report.baselinePayloads) baseline and \(report.candidatePayloads) candidate payloads); "
          + "pass --allow-insufficient to accept that")
      throw ExitStatus.cannotEvaluate
    }
  }

  /// Loads a snapshot and checks it records what the rules need.
  private func load(_ path: String, for evaluator: RegressionEvaluator) throws -> VersionSnapshot {
    let snapshot: VersionSnapshot
    do {
      snapshot = try VersionSnapshot.load(path: path)
    } catch {
      ReportOutput.printError("metrics-report: \(error)")
      throw ExitStatus.cannotEvaluate
    }
    let missing = evaluator.payloadPercentiles.filter { !snapshot.payloadPercentiles.contains($0) }
    guard snapshot.estimator == estimator, missing.isEmpty else {
      ReportOutput.printError(
        "metrics-report: \(path) was taken with the \(snapshot.estimator.rawValue) estimator and per-payload "
          + "\(snapshot.payloadPercentiles.map(\.label).joined(separator: ", ")); the rules need the \(estimator.rawValue) "
          + "estimator and \(evaluator.payloadPercentiles.map(\.label).joined(separator: ", "))")
      throw ExitStatus.cannotEvaluate
    }
    return snapshot
  }
}
