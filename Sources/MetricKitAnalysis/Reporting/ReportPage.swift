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
    public var unit: String
    /// The series; each point's `values` and `bounds` hold the statistic drawn.
    public var series: [TrendSeries]
    /// The whole-version value of the latest version with data, then of the one before it.
    public var headline: [(version: String, value: Double)]
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
    }
    /// The metric identifier.
    public var metric: String
    /// The unit of the bucket edges.
    public var unit: String
    /// The versions, in version order.
    public var sides: [Side]
  }

  /// The interval of the time axis.
  public var interval: TrendInterval
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
  /// The gate, when a baseline and candidate were given.
  public var comparison: ComparisonReport?
  /// Diagnostics per version, in version order.
  public var diagnostics: [DiagnosticAggregate] = []
  /// What could not be computed or placed.
  public var omissions: [String] = []

  /// The first and last interval start of any series: the time axis.
  public var axis: ClosedRange<CalendarDay>? {
    let starts = adoption.flatMap { $0.points.map(\.start) }
    guard let first = starts.min(), let last = starts.max() else { return nil }
    return first...last
  }

  /// Builds the page from `aggregate` (read with `AggregationOptions.interval` set to
  /// `options.interval`, or to `.day` when that is nil, and not `seriesOnly`), with `comparison` as
  /// its gate.
  public init(aggregate: DumpAggregate, options: ReportOptions = ReportOptions(), comparison: ComparisonReport? = nil) {
    let interval = options.interval ?? aggregate.automaticInterval(minPayloads: options.minPayloads)
    let aggregate = options.interval == nil ? aggregate.resampled(to: interval) : aggregate
    self.interval = interval
    inputs = aggregate.inputs
    grouping = aggregate.grouping
    minPayloads = options.minPayloads
    interpolation = options.interpolation
    self.comparison = comparison
    var trendOptions = TrendOptions()
    trendOptions.estimator = options.estimator
    trendOptions.interpolation = options.interpolation
    trendOptions.minPayloads = options.minPayloads
    trendOptions.lastDays = options.lastDays
    trendOptions.top = options.top
    var statistics: [TrendStatistic] = []
    for statistic in options.charts.compactMap(\.statistic) where !statistics.contains(statistic) {
      statistics.append(statistic)
    }
    trendOptions.statistics = statistics.isEmpty ? [.mean] : statistics
    var metrics = [TrendReport.adoption]
    for metric in options.charts.map(\.metric) where !metrics.contains(metric) { metrics.append(metric) }
    let trend = TrendReport(aggregate: aggregate, metrics: metrics, interval: interval, options: trendOptions)
    omissions = trend.omissions
    adoption = trend.series.filter { $0.metric == TrendReport.adoption }

    versions = Self.versionRows(aggregate: aggregate, adoption: adoption, minPayloads: options.minPayloads)
    let ordered = versions.map(\.version)
    for spec in options.charts {
      let label = spec.statisticLabel
      let series = trend.series.filter { $0.metric == spec.metric }.compactMap { s -> TrendSeries? in
        var s = s
        s.points = s.points.compactMap { point in
          guard let value = point.values.first(where: { $0.statistic == label })?.value else { return nil }
          var p = point
          p.values = [(label, value)]
          p.bounds = point.bounds.filter { $0.statistic == label }
          return p
        }
        return s.points.isEmpty ? nil : s
      }
      var headline: [(version: String, value: Double)] = []
      for version in ordered.reversed() where headline.count < 2 {
        // The whole version as one point (its start is not part of the value).
        guard let whole = aggregate.versions[version],
          let point = TrendReport.point(spec.metric, start: CalendarDay(daysSinceEpoch: 0), whole, trendOptions),
          let value = point.values.first(where: { $0.statistic == label })?.value
        else { continue }
        headline.append((version, value))
      }
      charts.append(
        Chart(spec: spec, unit: MetricCatalog.unit(of: spec.metric) ?? "", series: series, headline: headline))
    }

    let chosen =
      options.distributionVersions.isEmpty
      ? Array(ordered.filter { aggregate.versions[$0] != nil }.suffix(2)) : options.distributionVersions
    distributions = Self.distributions(
      aggregate, versions: chosen, signposts: options.signpostDistributions, interpolation: options.interpolation)
    diagnostics = aggregate.diagnostics.values.sorted { VersionOrder.precedes($0.version, $1.version) }
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

  private static func distributions(
    _ aggregate: DumpAggregate, versions: [String], signposts: Int, interpolation: Interpolation
  ) -> [Distribution] {
    let sides = versions.compactMap { aggregate.versions[$0] }
    let percentiles = [50, 90, 99].compactMap { Percentile(Double($0)) }
    func distribution(_ metric: String) -> Distribution? {
      let parts = sides.compactMap { side -> Distribution.Side? in
        guard let merged = side.histogram(metric), merged.sampleCount > 0,
          let estimates = try? merged.percentiles(percentiles, interpolation: interpolation)
        else { return nil }
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
      return Distribution(metric: metric, unit: sides.first?.histogramUnit(metric) ?? "ms", sides: parts)
    }
    var out = MetricCatalog.histograms.compactMap { distribution($0.identifier) }
    // The signposts with the most samples across the versions, then by identifier.
    var samples: [String: Int128] = [:]
    for side in sides {
      for id in side.signpostIdentifiers { samples[id, default: 0] += side.histogram(id)?.sampleCount ?? 0 }
    }
    let top = samples.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(max(0, signposts))
    out += top.compactMap { distribution($0.key) }
    return out
  }
}
