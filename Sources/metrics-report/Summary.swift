import ArgumentParser
import Foundation
import MetricKitAnalysis

extension MeanEstimator: ExpressibleByArgument {}
extension Pooling: ExpressibleByArgument {}
extension Interpolation: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}

/// `metrics-report summary PATH…`: per version, every metric's numbers.
struct Summary: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "summary",
    abstract: "Summarize payloads per app version: histogram means and percentiles, scalar metrics, rates.",
    discussion: """
      Examples:
        metrics-report summary Samples/dump
        metrics-report summary dumps/ --app-version 3.9.0 --by deviceType
        metrics-report summary dumps/ --metric 'memoryMetrics.*' --format csv
      """)

  @OptionGroup var input: InputOptions

  @Option(help: "Percentiles to report, comma-separated, each in (0, 100].")
  var percentiles: String = "50,90,95,99"

  @OptionGroup var histogram: HistogramOptions

  @Option(help: "Histogram mean pooling: pooled (count-weighted) or per-payload (mean of payload means).")
  var pooling: Pooling = .pooled

  @Option(name: .customLong("metric"), help: "Show only this metric (repeatable; a trailing * matches a prefix).")
  var metrics: [String] = []

  @Flag(
    help:
      "List the exit counters' per-payload statistics in the text and Markdown tables (JSON and CSV always do; so does naming one with --metric)."
  )
  var exitCounters = false

  @OptionGroup var breakdown: BreakdownOptions

  @OptionGroup var organizer: OrganizerOptions

  @Option(help: "Output format: text, json, markdown or csv.")
  var format: OutputFormat = .text

  @Option(name: [.customShort("o"), .long], help: "Write the report to this file instead of standard output.")
  var output: String?

  @Flag(help: "On a terminal, keep the wide tables a pipe gets instead of fitting the window.")
  var wide = false

  func parsedPercentiles() throws -> [Percentile] {
    let parts = percentiles.split(separator: ",")
    let parsed = parts.compactMap { Percentile(parsing: String($0)) }
    guard !parts.isEmpty, parsed.count == parts.count else {
      throw ValidationError("--percentiles takes numbers in (0, 100] with at most six decimals, e.g. 50,90,99.9.")
    }
    return Array(Set(parsed)).sorted()
  }

  mutating func validate() throws {
    try input.validate(output: output, alsoReading: organizer.paths)
    try organizer.validate(format: format)
    if input.paths.isEmpty && !input.stdin {
      throw ValidationError("Name at least one payload file or directory, or pass --stdin.")
    }
    _ = try parsedPercentiles()
    let unknown = MetricSelection(metrics).unknownPatterns
    if !unknown.isEmpty { throw UsageMistake.unknownMetrics(unknown) }
  }

  func run() throws {
    let apple = try organizer.load()
    var options = SummaryOptions()
    options.percentiles = try parsedPercentiles()
    options.estimator = histogram.estimator
    options.interpolation = histogram.interpolation
    options.pooling = pooling
    options.top = breakdown.top
    options.exitCounters = exitCounters || !metrics.isEmpty
    var aggregation = AggregationOptions(
      estimator: histogram.estimator, selection: MetricSelection(metrics),
      payloadStatistics: pooling == .perPayload ? MetricSelection() : nil)
    aggregation.grouping = breakdown.key
    let aggregate = try input.aggregate(aggregation)
    var report = SummaryReport(aggregate: aggregate, options: options, threads: input.threads)
    report.organizer = organizer.comparison(
      aggregate, files: apple, histogram: histogram, selection: MetricSelection(metrics))

    let text: String
    switch format {
    case .text:
      text =
        (wide ? nil : TerminalOptions.fittingColumns(output: output)).map {
          SummaryTableRenderer.text(report, columns: $0)
        } ?? SummaryTableRenderer.text(report)
    case .json: text = SummaryJSONRenderer.render(report)
    case .markdown: text = SummaryTableRenderer.markdown(report)
    case .csv: text = SummaryTableRenderer.csv(report)
    }
    try ReportOutput.write(text, to: output, inputs: aggregate.discovery)
    try ReportOutput.finish(
      inputs: report.inputs, strict: input.strict, requestedVersions: input.appVersions,
      countedVersions: Array(Set(report.versions.map(\.version))))
  }
}
