import ArgumentParser
import MetricKitAnalysis

extension TrendInterval: ExpressibleByArgument {}

/// `metrics-report trend PATH… --metric ID…`: metrics per version over time, one point per interval.
struct Trend: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trend",
    abstract: "Show metrics per version over time (day, ISO week or month), with adoption (--metric payloads).",
    discussion: """
      Examples:
        metrics-report trend Samples/dump --metric hangRate --interval week
        metrics-report trend dumps/ --metric payloads --interval auto
        metrics-report trend dumps/ --metric '*' --last 30d --cache .metrics-cache
      """)

  @Option(
    name: .customLong("metric"),
    help: ArgumentHelp(
      "A metric (repeatable): an identifier, a prefix ending in *, or payloads (or adoption: payloads and shares); optionally with @statistic (@p90, @mean), as report takes it.",
      valueName: "id[@stat]"))
  var metricArguments: [String] = []

  @Option(
    help:
      "Statistics of histogram and scalar metrics, comma-separated: mean, pNN (default: those named with @, else p50,p90,mean)."
  )
  var statistic: String?

  /// The payloads, and what is kept of them: after the options a first run needs, which the help
  /// lists first.
  @OptionGroup var input: InputOptions

  /// The metrics asked, without their `@statistic`.
  var metrics: [String] { metricArguments.map { Self.split($0).metric } }

  /// `id@p90` as the metric and the statistic (nil without a statistic that can be drawn).
  static func split(_ argument: String) -> (metric: String, statistic: Statistic?) {
    guard let at = argument.lastIndex(of: "@"),
      let statistic = Statistic(parsing: String(argument[argument.index(after: at)...])),
      statistic.isPlottable(for: .histogram)
    else { return (argument, nil) }
    return (String(argument[..<at]), statistic)
  }

  @OptionGroup var axis: TimeAxisOptions

  @OptionGroup var breakdown: BreakdownOptions

  @OptionGroup var histogram: HistogramOptions

  @OptionGroup var organizer: OrganizerOptions

  @Option(help: "Output format: text, json, markdown or csv.")
  var format: OutputFormat = .text

  @Option(name: [.customShort("o"), .long], help: "Write the report to this file instead of standard output.")
  var output: String?

  @Option(
    name: .customLong("snapshot"),
    help:
      "Read the time axis from a snapshot taken with 'snapshot --interval' (repeatable; shards of one version merge).")
  var snapshots: [String] = []

  func options() throws -> TrendOptions {
    var options = TrendOptions()
    var named: [Statistic] = []
    for statistic in metricArguments.compactMap({ Self.split($0).statistic }) where !named.contains(statistic) {
      named.append(statistic)
    }
    let text = statistic ?? (named.isEmpty ? "p50,p90,mean" : "")
    let parts = text.split(separator: ",").map(String.init)
    let parsed = parts.compactMap(Statistic.init(parsing:)).filter { $0.isPlottable(for: .histogram) }
    guard statistic.map({ _ in !parts.isEmpty }) ?? true, parsed.count == parts.count else {
      throw ValidationError("--statistic takes mean and pNN, comma-separated, not '\(text)'.")
    }
    options.statistics = parsed + named.filter { !parsed.contains($0) }
    options.estimator = histogram.estimator
    options.interpolation = histogram.interpolation
    options.minPayloads = axis.minPayloads
    options.top = breakdown.top
    options.lastDays = try axis.lastDays
    options.threads = input.threads
    return options
  }

  /// The width of a point: day unless asked.
  var interval: TrendInterval { axis.fixedInterval ?? .day }

  /// Snapshots as one aggregate, checked to be taken with `interval` (any, when nil) and `grouping`.
  static func load(_ paths: [String], interval: TrendInterval?, grouping: GroupingKey?) throws -> DumpAggregate {
    var loaded: [VersionSnapshot] = []
    for path in paths {
      do {
        for snapshot in try VersionSnapshot.loadAll(path: path) {
          switch snapshot.mismatch(interval: interval, grouping: grouping) {
          case .interval(let taken, let needed):
            let written = taken.map { "with --interval \($0.rawValue)" } ?? "without --interval"
            throw CommandFailure.cannotEvaluate(
              "\(path) was taken \(written); this needs --interval \(needed.rawValue)")
          case .grouping(let needed):
            throw CommandFailure.cannotEvaluate("\(path) is not grouped by \(needed) (snapshot --by)")
          case nil: break
          }
          loaded.append(snapshot)
        }
      } catch let failure as SnapshotError {
        throw CommandFailure.cannotEvaluate(failure.commandLineDescription)
      }
    }
    return DumpAggregate(snapshots: loaded)
  }

  mutating func validate() throws {
    try input.validate(output: output, alsoReading: organizer.paths)
    try organizer.validate(format: format)
    if !organizer.paths.isEmpty && !snapshots.isEmpty {
      throw ValidationError("--organizer compares whole versions: give payloads, not --snapshot files.")
    }
    if input.paths.isEmpty && !input.stdin && snapshots.isEmpty {
      throw ValidationError("Name at least one payload file or directory, pass --stdin, or give --snapshot files.")
    }
    if !snapshots.isEmpty && (!input.paths.isEmpty || input.stdin) {
      throw ValidationError("Give payloads or --snapshot files, not both.")
    }
    if axis.interval == "auto" && !snapshots.isEmpty {
      throw ValidationError("--interval auto reads payloads: snapshots keep the interval they were taken with.")
    }
    if metrics.isEmpty { throw ValidationError("Name at least one --metric (or --metric payloads for adoption).") }
    let unknown = MetricSelection(metrics.filter { !TrendSubject.isAdoption($0) }).unknownPatterns
    if !unknown.isEmpty { throw UsageMistake.unknownMetrics(unknown) }
    _ = try options()
  }

  func run() throws {
    let options = try options()
    let apple = try organizer.load()
    // Only the metrics asked are aggregated (adoption needs payload counts alone).
    let asked = metrics.filter { !TrendSubject.isAdoption($0) }
    var aggregation = AggregationOptions(
      estimator: histogram.estimator, selection: asked.isEmpty ? MetricSelection.none : MetricSelection(asked))
    aggregation.grouping = breakdown.key
    aggregation.interval = axis.interval == "auto" ? .day : interval
    // Apple's numbers are per version: beside them, the whole versions too.
    aggregation.seriesOnly = organizer.paths.isEmpty
    aggregation.dayUTCOffset = try input.timestampParser().assumedUTCOffset
    if snapshots.isEmpty, let cache = try input.openCache() {
      // The series of unchanged inputs stay in the cache unless a point needs them, and a trend over
      // inputs and options it has seen is written again as it was. (Apple's numbers need the whole
      // versions, which outlines do not hold.)
      let outlines = organizer.paths.isEmpty
      var reading = try input.read(aggregation, through: cache, outlinesOnly: outlines)
      var interval = interval
      if let chosen = automaticInterval(reading.aggregate), chosen != .day {
        // Read per week or month: the cache keeps those points apart from the daily ones.
        aggregation.interval = chosen
        reading = try input.read(aggregation, through: cache, outlinesOnly: outlines, announced: false)
        interval = chosen
      }
      var aggregate = reading.aggregate
      let trend = {
        let made = reading.trend(metrics: metrics, interval: interval, options: options)
        for note in made.notes { ReportOutput.printError(note) }
        aggregate = made.reading.aggregate
        return render(made.report, aggregate, apple: apple)
      }
      let text =
        outlines
        ? reading.output(for: input.recipe(reading: []), say: ReportOutput.printError) {
          AggregateCache.StoredOutput(text: trend())
        }.output.text : trend()
      try finish(text, aggregate)
    } else {
      var aggregate =
        snapshots.isEmpty
        ? try input.aggregate(aggregation)
        : try Self.load(snapshots, interval: interval, grouping: aggregation.grouping)
      var interval = interval
      if let chosen = automaticInterval(aggregate) {
        aggregate = aggregate.resampled(to: chosen)
        interval = chosen
      }
      let report = TrendReport(aggregate: aggregate, metrics: metrics, interval: interval, options: options)
      try finish(render(report, aggregate, apple: apple), aggregate)
    }
  }

  /// With `--interval auto`, the interval picked for `daily` (an aggregate per day), said on standard
  /// error; nil otherwise.
  private func automaticInterval(_ daily: DumpAggregate) -> TrendInterval? {
    guard axis.interval == "auto" else { return nil }
    let choice = daily.automaticIntervalChoice(minPayloads: axis.minPayloads)
    ReportOutput.printError("metrics-report: \(choice)")
    return choice.interval
  }

  /// The trend's text, with Apple's numbers beside it when given.
  private func render(_ report: TrendReport, _ aggregate: DumpAggregate, apple: [OrganizerFile]) -> String {
    var report = report
    let asked = metrics.filter { !TrendSubject.isAdoption($0) }
    report.organizer = organizer.comparison(
      aggregate, files: apple, histogram: histogram, selection: MetricSelection(asked))
    return TrendRenderer.render(report, as: format, minPayloads: axis.minPayloads, threads: input.threads)
  }

  private func finish(_ text: String, _ aggregate: DumpAggregate) throws {
    try ReportOutput.write(text, to: output, inputs: aggregate.discovery)
    try ReportOutput.finish(
      inputs: aggregate.inputs, strict: input.strict, requestedVersions: input.appVersions,
      countedVersions: Array(aggregate.seriesVersions))
  }
}
