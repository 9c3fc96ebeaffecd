/// Everything the `report` page shows, computed from one aggregate of a dump (made with an interval):
/// the accounting, each version's life on the time axis, adoption, one trend chart per metric and
/// statistic, the distributions of the histogram metrics, the gate, and the diagnostics.
public struct ReportPage: Sendable {
  /// One version: its payloads and where it lives on the time axis.
  public struct VersionRow: Sendable {
    /// The app version.
    public var version: String
    /// Payloads counted.
    public var payloads: Int
    /// The first and last interval start with payloads of the version (nil: no dated payload).
    public var first: CalendarDay?
    /// The last.
    public var last: CalendarDay?
    /// The first interval with at least `minPayloads` payloads: where its release marker stands.
    public var release: CalendarDay?
  }

  /// One trend chart: a metric's statistic per version (and group) over time.
  public struct Chart: Sendable {
    /// What is drawn.
    public var spec: ReportChartSpec
    /// The unit of the values.
    public var unit: MetricUnit { spec.metric.metric.unit }
    /// The series; each point's `values` and `bounds` hold the statistic drawn.
    public var series: [TrendSeries]
    /// The whole-version values the headline compares: with a gate, the candidate's then the
    /// baseline's; else the latest version with data, then the one before it.
    public var headline: [(version: String, value: Double)]
    /// Each version's whole-version value (pooled over its payloads, as `summary` computes it), in
    /// version order; with groups, each group's of each version too.
    public var versions: [VersionValue]
  }

  /// One version's (or one group's of a version) pooled value of a chart's statistic.
  public struct VersionValue: Sendable {
    /// The app version.
    public var version: String
    /// The group (with `--by`); nil for the whole version.
    public var group: String?
    /// The value.
    public var value: Double
    /// The bracket guaranteed to hold a percentile's true value (nil for means and rates).
    public var bounds: ClosedRange<Double>?
    /// Payloads pooled.
    public var payloads: Int
  }

  /// One histogram metric's merged histograms, overlaid per version.
  public struct Distribution: Sendable {
    /// One version's merged histogram.
    public struct Side: Sendable {
      /// The app version.
      public var version: String
      /// The cumulative distribution at every bucket edge, in order: the share of samples at or below
      /// `x`, when samples are spread uniformly within their buckets (between edges it is linear).
      public var cdf: [(x: Double, share: Double)]
      /// Samples in the histogram.
      public var sampleCount: Int128
      /// p50, p90 and p99, with their guaranteed brackets.
      public var percentiles: [PercentileEstimate]

      /// One of the marked percentiles, found by its percentile.
      public func estimate(_ percentile: Percentile) -> PercentileEstimate? {
        percentiles.first { $0.percentile == percentile }
      }
    }
    /// The percentiles computed for each side: p50, p90, p99.
    public static let percentiles = [50, 90, 99].compactMap { Percentile(Double($0)) }
    /// The percentiles marked on the curves and named in the headline: p50, p90.
    public static let marked = [50, 90].compactMap { Percentile(Double($0)) }
    /// The percentile the value axis reaches past: p99.
    public static let reach = Percentile(99)!

    /// The metric.
    public var metric: MetricID
    /// The unit of the bucket edges.
    public var unit: MetricUnit { metric.metric.unit }
    /// The versions, in version order.
    public var sides: [Side]
  }

  /// One version's stability: crash-free device-days and termination rates with their 95% intervals.
  public struct Stability: Sendable {
    /// The app version.
    public var version: String
    /// Payloads of the version: device-days.
    public var payloads: Int
    /// The share of device-days without a crash-class foreground termination (nil without exit metrics).
    public var crashFreeDeviceDays: RateEstimate?
    /// Crash-class foreground terminations per 1,000 foreground hours.
    public var terminationRate: RateEstimate?
    /// The app's crash-class background terminations per 1,000 background hours.
    public var backgroundTerminationRate: RateEstimate?
    /// The foreground kinds that terminated the app, the most frequent first.
    public var kinds: [(kind: TerminationKind, estimate: RateEstimate)]

    /// The estimate of one of the headline rates, by its identifier.
    public func estimate(_ metric: MetricID) -> RateEstimate? {
      switch metric {
      case .crashFreeDeviceDays: crashFreeDeviceDays
      case .terminationRate: terminationRate
      case .backgroundTerminationRate: backgroundTerminationRate
      default: kinds.first { MetricID.terminationRate($0.kind) == metric }?.estimate
      }
    }
  }

  /// The interval of the time axis.
  public var interval: TrendInterval
  /// How the interval was picked when none was asked (`ReportOptions.interval` nil).
  public var automaticInterval: AutomaticInterval?
  /// What was read, counted, excluded and rejected.
  public var inputs: InputAccounting
  /// The key of `--by`, when the series are split by group.
  public var grouping: GroupingKey?
  /// Points with fewer payloads are sparse.
  public var minPayloads: Int
  /// How mass is spread inside buckets for the page's percentiles and distributions.
  public var interpolation: Interpolation
  /// The versions, in version order.
  public var versions: [VersionRow] = []
  /// Each version's (and group's) payloads and share per interval.
  public var adoption: [TrendSeries] = []
  /// The trend charts, in the order asked.
  public var charts: [Chart] = []
  /// The distributions: fixed histogram metrics with data, then the signposts with the most samples.
  public var distributions: [Distribution] = []
  /// Each version's stability, in version order (versions without exit metrics left out).
  public var stability: [Stability] = []
  /// The bands the stability numbers are judged by, one per metric.
  public var stabilityBands: [StabilityBand] = []
  /// The gate, when a baseline and candidate were given.
  public var comparison: ComparisonReport?
  /// Apple's Organizer numbers beside the versions', when Apple's responses were given: drawn on the
  /// trend charts of the same metric and statistic, with Apple's goal bands, and tabled.
  public var organizer: OrganizerComparison?
  /// The changes `watch` found over the same payloads, when asked: tabled, and marked on the trend
  /// chart of each one's metric and statistic.
  public var watch: WatchReport?
  /// Diagnostics per version, in version order.
  public var diagnostics: [DiagnosticAggregate] = []
  /// What each version's diagnostics are counted against: its metric payloads (one per device and
  /// day) and the foreground hours they report.
  public struct Exposure: Sendable {
    /// Metric payloads of the version: device-days.
    public var payloads: Int
    /// Foreground hours over those payloads (nil when none reports foreground time).
    public var foregroundHours: Double?
  }
  /// The exposure of each version with diagnostics.
  public var exposure: [String: Exposure] = [:]
  /// Where the page came from (set by the caller; shown in the footer and in saved charts).
  public var provenance: Provenance?
  /// The tool, the command and the time a page was made.
  public struct Provenance: Sendable {
    /// `metrics-report 0.1.0`.
    public var tool: String
    /// The command's arguments, as typed (without the output file).
    public var arguments: [String]
    /// When the page was made, `yyyy-MM-dd HH:mm UTC`.
    public var generated: String

    /// A provenance.
    public init(tool: String, arguments: [String], generated: String) {
      self.tool = tool
      self.arguments = arguments
      self.generated = generated
    }
  }
  /// The bundle identifier most payloads carry (nil when none, or more than the aggregate counts).
  public var bundleIdentifier: String?
  /// What could not be computed or placed.
  public var omissions: [String] = []

  /// Apple's values for a chart: the rows of the chart's metric and statistic (a rate's value is
  /// compared with Apple's mean), one per version.
  public func organizerRows(for spec: ReportChartSpec) -> [OrganizerComparison.Row] {
    guard let organizer else { return [] }
    let statistic: Statistic = spec.statistic == .value ? .mean : spec.statistic
    return organizer.rows.filter { $0.metric == spec.metric && $0.statistic == statistic }
  }

  /// The first and last interval start of any series: the time axis.
  public var axis: ClosedRange<CalendarDay>? {
    let starts = adoption.flatMap { $0.points.map(\.start) }
    guard let first = starts.min(), let last = starts.max() else { return nil }
    return first...last
  }

  /// The gate of a page: the rules and the two versions they compare.
  public struct Gate: Sendable {
    /// The rules, with the estimator and interpolation of the page.
    public var evaluator: RegressionEvaluator
    /// The baseline version.
    public var baseline: String
    /// The candidate version.
    public var candidate: String
    /// Threads evaluating the rules.
    public var threads: Int
    /// With groups (`--by`), the groups compared one by one, the rest merged into `(other)`: as
    /// `compare --by` does.
    public var top: Int

    /// A gate of `candidate` against `baseline`.
    public init(evaluator: RegressionEvaluator, baseline: String, candidate: String, threads: Int = 1, top: Int = 10) {
      self.evaluator = evaluator
      self.baseline = baseline
      self.candidate = candidate
      self.threads = threads
      self.top = top
    }
  }

  /// Builds the page from `aggregate` (read with `AggregationOptions.interval` set to
  /// `options.interval`, or to `.day` when that is nil, and not `seriesOnly`), with `gate` as its gate
  /// (when both its versions are in the aggregate). Each version's pooled statistics are computed
  /// once: the headlines, the distributions and the gate read the same numbers.
  public init(aggregate: DumpAggregate, options: ReportOptions = ReportOptions(), gate: Gate? = nil) {
    let choice = options.interval == nil ? aggregate.automaticIntervalChoice(minPayloads: options.minPayloads) : nil
    automaticInterval = choice
    let interval = options.interval ?? choice?.interval ?? .day
    let aggregate = options.interval == nil ? aggregate.resampled(to: interval) : aggregate
    self.interval = interval
    inputs = aggregate.inputs
    grouping = aggregate.grouping
    minPayloads = options.minPayloads
    interpolation = options.interpolation
    var trendOptions = TrendOptions()
    trendOptions.estimator = options.estimator
    trendOptions.interpolation = options.interpolation
    trendOptions.minPayloads = options.minPayloads
    trendOptions.lastDays = options.lastDays
    trendOptions.top = options.top
    trendOptions.threads = options.threads
    var statistics: [Statistic] = []
    for statistic in options.charts.map(\.statistic) where statistic.isPlottable(for: .histogram) {
      if !statistics.contains(statistic) { statistics.append(statistic) }
    }
    trendOptions.statistics = statistics.isEmpty ? [.mean] : statistics
    var subjects = [TrendSubject.adoption]
    for spec in options.charts where !subjects.contains(.metric(spec.metric)) { subjects.append(.metric(spec.metric)) }
    let trend = TrendReport(aggregate: aggregate, subjects: subjects, interval: interval, options: trendOptions)
    omissions = trend.omissions
    adoption = trend.series.filter { $0.subject == .adoption }

    versions = Self.versionRows(aggregate: aggregate, adoption: adoption, minPayloads: options.minPayloads)
    let ordered = versions.map(\.version)
    let gate = gate.flatMap { g in
      aggregate.versions[g.baseline] != nil && aggregate.versions[g.candidate] != nil ? g : nil
    }
    let distributed =
      !options.distributionVersions.isEmpty
      ? options.distributionVersions
      : gate.map { [$0.baseline, $0.candidate] } ?? Array(ordered.filter { aggregate.versions[$0] != nil }.suffix(2))
    let distributedMetrics = Self.distributedMetrics(
      aggregate, versions: distributed, signposts: options.signpostDistributions)

    // Every pooled statistic of the page once per version and metric: a version's are computed the
    // first time a section reads them, with everything any section reads of that version.
    let requests = PooledStatistics.requests(options.charts.map { ($0.metric, $0.statistic) })
    var computed: [String: PooledStatistics] = [:]
    // With groups, each group's statistics of the charts, once per version.
    var computedGroups: [String: [(value: String, statistics: PooledStatistics, payloads: Int)]] = [:]
    func groupStatistics(_ version: String) -> [(value: String, statistics: PooledStatistics, payloads: Int)] {
      if let known = computedGroups[version] { return known }
      let groups = aggregate.groups(of: version).map { group in
        (
          value: group.value,
          statistics: PooledStatistics(
            group.aggregate, requests: requests, estimator: options.estimator, interpolation: options.interpolation),
          payloads: group.aggregate.payloadCount
        )
      }
      computedGroups[version] = groups
      return groups
    }
    func pooled(_ version: String) -> PooledStatistics? {
      if let known = computed[version] { return known }
      guard let whole = aggregate.versions[version] else { return nil }
      var asked = requests
      if distributed.contains(version) {
        for metric in distributedMetrics {
          asked[metric, default: []].formUnion(Self.Distribution.percentiles.map { .percentile($0) })
        }
      }
      if let gate, version == gate.baseline || version == gate.candidate {
        asked.merge(gate.evaluator.statisticsRequests()) { $0.union($1) }
      }
      let statistics = PooledStatistics(
        whole, requests: asked, estimator: options.estimator, interpolation: options.interpolation)
      computed[version] = statistics
      return statistics
    }

    for spec in options.charts {
      let series = trend.series.filter { $0.subject == .metric(spec.metric) }.compactMap { s -> TrendSeries? in
        var s = s
        s.points = s.points.compactMap { point in
          guard let value = point.value(spec.statistic) else { return nil }
          var p = point
          p.values = [(spec.statistic, value)]
          p.bounds = point.bounds.filter { $0.statistic == spec.statistic }
          return p
        }
        return s.points.isEmpty ? nil : s
      }
      var values: [VersionValue] = []
      for version in ordered {
        guard let whole = aggregate.versions[version], let v = pooled(version)?[spec.metric, spec.statistic] else {
          continue
        }
        values.append(
          VersionValue(version: version, value: v.value, bounds: v.bounds, payloads: whole.payloadCount))
        for group in groupStatistics(version) {
          guard let g = group.statistics[spec.metric, spec.statistic] else { continue }
          values.append(
            VersionValue(
              version: version, group: group.value, value: g.value, bounds: g.bounds, payloads: group.payloads))
        }
      }
      let whole = values.filter { $0.group == nil }
      var headline: [(version: String, value: Double)] = []
      if let gate {
        for version in [gate.candidate, gate.baseline] {
          if let v = whole.first(where: { $0.version == version }) { headline.append((version, v.value)) }
        }
      } else {
        headline = whole.suffix(2).reversed().map { ($0.version, $0.value) }
      }
      charts.append(Chart(spec: spec, series: series, headline: headline, versions: values))
    }

    distributions = Self.distributions(
      aggregate, versions: distributed, metrics: distributedMetrics,
      pooled: distributed.reduce(into: [:]) { $0[$1] = pooled($1) },
      interpolation: options.interpolation)
    stabilityBands = options.stabilityBands.reduce(into: []) { bands, band in
      bands.removeAll { $0.metric == band.metric }
      bands.append(band)
    }
    for version in ordered {
      guard let whole = aggregate.versions[version] else { continue }
      do {
        var kinds: [(kind: TerminationKind, estimate: RateEstimate)] = []
        for kind in TerminationKind.foreground {
          if let e = try RateEstimate(.terminationRate(kind), of: whole), e.events > 0 { kinds.append((kind, e)) }
        }
        kinds.sort { $0.estimate.events > $1.estimate.events }
        let row = Stability(
          version: version, payloads: whole.payloadCount,
          crashFreeDeviceDays: try RateEstimate(.crashFreeDeviceDays, of: whole),
          terminationRate: try RateEstimate(.terminationRate, of: whole),
          backgroundTerminationRate: try RateEstimate(.backgroundTerminationRate, of: whole), kinds: kinds)
        if row.crashFreeDeviceDays != nil || row.terminationRate != nil { stability.append(row) }
      } catch {
        omissions.append("\(version) stability: \(error)")
      }
    }
    diagnostics = aggregate.diagnostics.values.sorted { VersionOrder.precedes($0.version, $1.version) }
    bundleIdentifier = aggregate.mainBundleIdentifier
    for d in diagnostics {
      let whole = aggregate.versions[d.version]
      let hours = whole.map(\.hangRate).flatMap { $0.count > 0 ? $0.denominatorSum.value : nil }
      exposure[d.version] = Exposure(payloads: whole?.payloadCount ?? 0, foregroundHours: hours)
    }
    if let gate, aggregate.grouping != nil || gate.evaluator.stratification.isStratified {
      // Grouped, the gate is compare --by's: each group of the two versions compared on its own; both
      // grouped or not, compared within strata as compare does.
      comparison = ComparisonReport(
        grouped: aggregate, baseline: gate.baseline, candidate: gate.candidate, top: gate.top,
        wholeVersions: aggregate.grouping == nil, baselineDiagnostics: aggregate.diagnostics[gate.baseline],
        candidateDiagnostics: aggregate.diagnostics[gate.candidate], evaluator: gate.evaluator, threads: gate.threads)
    } else if let gate, let b = aggregate.versions[gate.baseline], let c = aggregate.versions[gate.candidate],
      let pb = pooled(gate.baseline), let pc = pooled(gate.candidate)
    {
      comparison = ComparisonReport(
        baseline: b, candidate: c, inputs: aggregate.inputs, baselineDiagnostics: aggregate.diagnostics[gate.baseline],
        candidateDiagnostics: aggregate.diagnostics[gate.candidate], evaluator: gate.evaluator, statistics: (pb, pc),
        threads: gate.threads)
    }
  }

  private static func versionRows(aggregate: DumpAggregate, adoption: [TrendSeries], minPayloads: Int) -> [VersionRow] {
    // Payloads per version and interval, groups together.
    var perInterval: [String: [CalendarDay: Int]] = [:]
    for series in adoption {
      for point in series.points {
        perInterval[series.version, default: [:]][point.start, default: 0] += point.payloads
      }
    }
    let names = Set(aggregate.versions.keys).union(perInterval.keys).sorted(by: VersionOrder.precedes)
    return names.map { version in
      let intervals = perInterval[version, default: [:]]
      return VersionRow(
        version: version, payloads: aggregate.versions[version]?.payloadCount ?? intervals.values.reduce(0, +),
        first: intervals.keys.min(), last: intervals.keys.max(),
        release: intervals.filter { $0.value >= minPayloads }.keys.min())
    }
  }

  /// The histogram metrics whose distributions are drawn: the fixed ones with data in one of the
  /// versions, then the signposts with the most samples across the versions (then by identifier).
  private static func distributedMetrics(_ aggregate: DumpAggregate, versions: [String], signposts: Int) -> [MetricID] {
    let sides = versions.compactMap { aggregate.versions[$0] }
    func hasData(_ metric: MetricID) -> Bool { sides.contains { ($0.histogram(metric)?.sampleCount ?? 0) > 0 } }
    var samples: [MetricID: Int128] = [:]
    for side in sides {
      for id in side.signpostIDs { samples[id, default: 0] += side.histogram(id)?.sampleCount ?? 0 }
    }
    let top = samples.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }.prefix(max(0, signposts))
    return MetricCatalog.histograms.map(\.id).filter(hasData) + top.map(\.key).filter(hasData)
  }

  private static func distributions(
    _ aggregate: DumpAggregate, versions: [String], metrics: [MetricID], pooled: [String: PooledStatistics],
    interpolation: Interpolation
  ) -> [Distribution] {
    let sides = versions.compactMap { aggregate.versions[$0] }
    func distribution(_ metric: MetricID) -> Distribution? {
      let parts = sides.compactMap { side -> Distribution.Side? in
        guard let merged = side.histogram(metric), merged.sampleCount > 0, let statistics = pooled[side.version]
        else { return nil }
        var estimates: [PercentileEstimate] = []
        for p in Distribution.percentiles {
          guard let v = statistics[metric, .percentile(p)], let bounds = v.bounds else { return nil }
          estimates.append(
            PercentileEstimate(
              percentile: p, value: v.value, lowerBound: bounds.lowerBound, upperBound: bounds.upperBound))
        }
        let edges = Set(merged.buckets.flatMap { [$0.range.start, $0.range.end] }).sorted()
        // The curve through the edges and the marked percentiles; a monotone CDF is curved inside a
        // bucket, so buckets wider than 2% of the range get four points more.
        var points = Set(edges + estimates.map(\.value))
        if interpolation == .monotone, let low = edges.first, let high = edges.last {
          for (a, b) in zip(edges, edges.dropFirst()) where b - a > (high - low) / 50 {
            for k in 1...4 { points.insert(a + (b - a) * Double(k) / 5) }
          }
        }
        let xs = points.sorted()
        guard let shares = try? merged.cdf(at: xs, interpolation: interpolation) else { return nil }
        let cdf = zip(xs, shares).map { (x: $0, share: $1) }
        return Distribution.Side(
          version: side.version, cdf: cdf, sampleCount: merged.sampleCount, percentiles: estimates)
      }
      guard !parts.isEmpty else { return nil }
      return Distribution(metric: metric, sides: parts)
    }
    return metrics.compactMap(distribution)
  }
}
