import ArgumentParser
import MetricKitAnalysis

extension ExportFormat: ExpressibleByArgument {}

/// `metrics-report export PATH… --to openmetrics|datadog|otlp-json`: the numbers, per version (and
/// group, and interval), in the formats monitoring systems read.
struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export metrics per version (and day or week) as OpenMetrics, a Datadog series body or OTLP/JSON.",
    discussion: """
      Examples:
        metrics-report export Samples/dump --to openmetrics -o metrics.prom
        metrics-report export dumps/ --to otlp-json --interval day -o metrics.json
      """)

  @OptionGroup var input: InputOptions

  @Option(help: "The format: openmetrics, datadog or otlp-json.")
  var to: ExportFormat

  @Option(
    help: ArgumentHelp(
      "One point per day, week or month, timestamped at its end (for backfilling), or none: one per version.",
      valueName: "interval"))
  var interval: String = "none"

  @Option(
    name: .customLong("metric"),
    help: "A metric (repeatable): an identifier or a prefix ending in *; every metric with data otherwise.")
  var metrics: [String] = []

  @OptionGroup var breakdown: BreakdownOptions

  @OptionGroup var histogram: HistogramOptions

  @Option(help: "OTLP service.name (the payloads' most frequent bundle identifier otherwise).")
  var serviceName: String?

  @Option(
    name: .customLong("snapshot"),
    help: "Read a snapshot instead of payloads (repeatable; with --interval, taken with the same --interval).")
  var snapshots: [String] = []

  @Option(name: [.customShort("o"), .long], help: "Write to this file instead of standard output.")
  var output: String?

  /// The interval asked for; nil for none.
  private var trendInterval: TrendInterval? { TrendInterval(rawValue: interval) }

  mutating func validate() throws {
    try input.validate(output: output, alsoReading: snapshots)
    if interval != "none" && trendInterval == nil {
      throw ValidationError("--interval takes day, week, month or none, not '\(interval)'.")
    }
    if input.paths.isEmpty && !input.stdin && snapshots.isEmpty {
      throw ValidationError("Name at least one payload file or directory, pass --stdin, or give --snapshot files.")
    }
    if !snapshots.isEmpty && (!input.paths.isEmpty || input.stdin) {
      throw ValidationError("Give payloads or --snapshot files, not both.")
    }
    let unknown = MetricSelection(metrics).unknownPatterns
    if !unknown.isEmpty { throw UsageMistake.unknownMetrics(unknown) }
    if !snapshots.isEmpty && breakdown.by != nil && trendInterval == nil {
      throw ValidationError("--by from snapshots needs --interval (a snapshot's groups are in its time axis).")
    }
  }

  func run() throws {
    let selection = MetricSelection(metrics)
    let aggregate: DumpAggregate
    if snapshots.isEmpty {
      var options = AggregationOptions(estimator: histogram.estimator, selection: selection)
      options.grouping = breakdown.key
      options.interval = trendInterval
      options.dayUTCOffset = try input.timestampParser().assumedUTCOffset
      aggregate = try input.aggregate(options)
    } else {
      aggregate = try Trend.load(snapshots, interval: trendInterval, grouping: breakdown.key)
    }
    let export = MetricExport(
      aggregate: aggregate, interval: trendInterval, selection: selection, estimator: histogram.estimator,
      interpolation: histogram.interpolation,
      top: breakdown.top)
    try ReportOutput.write(to.render(export, serviceName: serviceName), to: output, inputs: aggregate.discovery)
    try ReportOutput.finish(
      inputs: aggregate.inputs, strict: input.strict, requestedVersions: input.appVersions,
      countedVersions: Array(Set(export.points.map(\.version))))
  }
}
