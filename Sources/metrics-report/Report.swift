import ArgumentParser
import MetricKitAnalysis

/// `metrics-report report PATH… -o report.html`: one self-contained HTML page with adoption, trends,
/// distributions, the gate and diagnostics.
struct Report: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write one self-contained HTML page: adoption, trends per version, distributions, the gate.",
    discussion: """
      Examples:
        metrics-report report Samples/dump --baseline 3.8.0 --candidate 3.9.0 \\
          -o report.html
        metrics-report report dumps/ --by deviceType --watch --cache .metrics-cache \\
          -o report.html

      The page has everything inline (no network, no external file) and opens from file:// or as a CI \
      artifact. Drag across a chart to zoom every chart; double-click to reset; click a version to hide it.
      """)

  @Option(
    name: .customLong("metric"),
    help: ArgumentHelp(
      "A trend chart (repeatable): a metric identifier, optionally with @statistic (@p50, @p95, @mean); "
        + "replaces the default charts.", valueName: "id[@stat]"))
  var metrics: [String] = []

  @Option(help: "The baseline version of the gate section (with --candidate).")
  var baseline: String?

  @Option(help: "The candidate version of the gate section (with --baseline).")
  var candidate: String?

  @Option(
    name: [.customShort("o"), .long],
    help: "Write the page to this file instead of standard output (which must then not be a terminal).")
  var output: String?

  /// The payloads, and what is kept of them: after the options a first run needs, which the help
  /// lists first.
  @OptionGroup var input: InputOptions

  /// The gate section's rules and decision, as compare's.
  @OptionGroup var gate: GateOptions

  @OptionGroup var axis: TimeAxisOptions

  @OptionGroup var breakdown: BreakdownOptions

  @OptionGroup var histogram: HistogramOptions

  @OptionGroup var symbols: SymbolOptions

  @OptionGroup var organizer: OrganizerOptions

  @Option(
    name: .customLong("stability-band"),
    help: ArgumentHelp(
      "Where a stability number needs attention and where it is bad (repeatable): crashFreeDeviceDays=99.5:98.91 "
        + "(the default), terminationRate=20:40.", valueName: "metric=warning:bad"))
  var stabilityBands: [String] = []

  @Flag(
    help: ArgumentHelp(
      "Add the changes `watch` finds (its defaults, over the page's --by groups): a table, and a mark on each "
        + "one's trend chart (a chart is added where none draws its metric and statistic)."))
  var watch = false

  mutating func validate() throws {
    try input.validate(output: output, alsoReading: [gate.rules].compactMap { $0 } + organizer.paths)
    // Hundreds of kilobytes of HTML are no use on a terminal: asked for a file instead.
    if output == nil && TerminalOptions.standardOutputIsTerminal {
      throw ValidationError(
        "The report is an HTML page: give -o FILE, e.g. -o report.html (standard output is a terminal).")
    }
    if input.paths.isEmpty && !input.stdin {
      throw ValidationError("Name at least one payload file or directory, or pass --stdin.")
    }
    if (baseline == nil) != (candidate == nil) {
      throw ValidationError("Give both --baseline and --candidate for the gate section, or neither.")
    }
    if gate.rules != nil && baseline == nil { throw ValidationError("--rules needs --baseline and --candidate.") }
    if watch && input.stdin { throw ValidationError("--watch reads the inputs twice: name files, not --stdin.") }
    for band in stabilityBands {
      do { _ = try StabilityBand(argument: band) } catch { throw ValidationError("--stability-band: \(error)") }
    }
    let bad = metrics.filter { ReportChartSpec(parsing: $0) == nil }
    if !bad.isEmpty {
      let each = bad.map { text in
        UsageMistake.quoted(
          text, closest: MetricCatalog.closest(to: String(text.split(separator: "@").first ?? "")))
      }
      throw ValidationError(
        "Unknown metric or statistic \(each.joined(separator: ", ")): give a metric identifier, "
          + "optionally with @p50, @p90 or @mean.")
    }
  }

  func run() throws {
    var options = ReportOptions()
    if !metrics.isEmpty { options.charts = metrics.compactMap(ReportChartSpec.init(parsing:)) }
    options.interval = axis.fixedInterval
    options.lastDays = try axis.lastDays
    options.minPayloads = axis.minPayloads
    options.estimator = histogram.estimator
    options.interpolation = histogram.interpolation
    options.top = breakdown.top
    options.threads = input.threads
    options.stabilityBands += try stabilityBands.map(StabilityBand.init(argument:))

    let evaluator = try baseline.map { _ in gate.evaluator(try gate.ruleSet(), histogram: histogram) }
    // Rules on one group (`where:`) are evaluated on a page grouped by their key (`--by`), as compare does.
    let targetedKeys = Set(evaluator?.ruleSet.rules.compactMap { $0.group?.key } ?? [])
    if let by = breakdown.key, let other = targetedKeys.first(where: { $0 != by }) {
      throw ValidationError("Rules with where: name \(other) groups, but --by is \(by).")
    }
    let apple = try organizer.load()
    var changes: WatchReport?
    if watch {
      // Its own reading (one grouped by device and OS too), through the cache when there is one; the
      // charts its changes need are added before the page's reading selects the metrics.
      var watchOptions = WatchOptions()
      watchOptions.grouping = breakdown.key
      watchOptions.estimator = histogram.estimator
      watchOptions.interpolation = histogram.interpolation
      var watchAggregation = watchOptions.aggregationOptions
      watchAggregation.dayUTCOffset = try input.timestampParser().assumedUTCOffset
      let report = WatchReport(aggregate: try input.aggregate(watchAggregation), options: watchOptions)
      for change in report.changes where change.partOf == nil {
        let spec = ReportChartSpec(metric: change.metric, statistic: change.statistic)
        if !options.charts.contains(spec) { options.charts.append(spec) }
      }
      changes = report
    }
    var aggregation = evaluator?.aggregationOptions ?? AggregationOptions(estimator: histogram.estimator)
    aggregation.selection = options.selection(
      adding: (evaluator?.ruleSet.rules.map(\.metric) ?? []) + OrganizerComparison.metrics(in: apple))
    aggregation.interval = axis.fixedInterval ?? .day
    aggregation.grouping = breakdown.key
    aggregation.dayUTCOffset = try input.timestampParser().assumedUTCOffset
    // The page draws a flame graph of the collapsed stacks.
    aggregation.diagnostics = symbols.diagnosticOptions(foldedStacks: true)
    aggregation.stratifiedVersions = Set([baseline, candidate].compactMap { $0 })
    let aggregate = try gate.windowed(aggregation, baseline: baseline, candidate: candidate) {
      try input.aggregate($0)
    }

    var pageGate: ReportPage.Gate?
    if let evaluator, let baseline, let candidate {
      let absent = [baseline, candidate].filter { aggregate.comparedVersion($0) == nil }
      guard absent.isEmpty else {
        try ReportOutput.listRejections(aggregate.inputs, strict: input.strict)
        throw ReportOutput.noPayloads(for: absent, counted: aggregate.heldVersions)
      }
      pageGate = ReportPage.Gate(
        evaluator: evaluator, baseline: baseline, candidate: candidate, threads: input.threads, top: breakdown.top)
    }
    var page = ReportPage(aggregate: aggregate, options: options, gate: pageGate)
    if let automatic = page.automaticInterval { ReportOutput.printError("metrics-report: \(automatic)") }
    page.provenance = ReportOutput.provenance()
    page.watch = changes
    if !organizer.paths.isEmpty {
      page.organizer = OrganizerComparison(
        aggregate: aggregate, files: apple, device: organizer.device, estimator: histogram.estimator,
        interpolation: histogram.interpolation)
      if let comparison = page.comparison {
        page.comparison?.organizer = OrganizerGate(
          report: comparison, files: apple, severity: evaluator?.ruleSet.organizerRegressions)
      }
    }
    try ReportOutput.write(HTMLReportRenderer.render(page), to: output, inputs: aggregate.discovery)
    SymbolOptions.printNotes(aggregation.diagnostics)
    try ReportOutput.finish(
      inputs: aggregate.inputs, strict: input.strict, requestedVersions: input.appVersions,
      countedVersions: Array(aggregate.versions.keys))
  }
}
