/// What `watch` reads and how it decides.
public struct WatchOptions: Sendable, Hashable {
  /// The metrics and statistics watched: by default those of the built-in gate rules that daily
  /// payloads carry.
  public var subjects: [WatchSubject] = WatchSubject.builtIn
  /// The `--by` key whose groups get their own series; nil for none.
  public var grouping: GroupingKey?
  /// How change points are found.
  public var detector = ChangePointDetector()
  /// Benjamini–Hochberg's level over every change point of every series.
  public var falseDiscoveryRate = 0.01
  /// The two-sided p-value the rank test of device-days must reach where it applies.
  public var distributionPValue = 0.001
  /// Days with fewer payloads in a scope are left out of its series.
  public var minimumDailyPayloads = 10
  /// The days each side of a change its cause is judged on.
  public var causeWindow = 14
  /// How histogram means are estimated, and mass spread inside buckets.
  public var estimator: MeanEstimator = .midpoint
  public var interpolation: Interpolation = .monotone

  /// Creates the default options.
  public init() {}

  /// The dimensions of the strata each scope is standardized over.
  public static let strata: [GroupingKey] = [.deviceType, .osVersionMajor]

  /// The grouping an aggregation for `watch` is read with: the `--by` key, then the strata.
  public var aggregationGrouping: GroupingKey { .combined((grouping.map { [$0] } ?? []) + Self.strata) }

  /// How a dump is aggregated for these options: one day per point, grouped by
  /// ``aggregationGrouping``, with the per-payload statistics the rank test reads.
  public var aggregationOptions: AggregationOptions {
    let histograms = subjects.filter { $0.metric.kind == .histogram }
    var options = AggregationOptions(
      estimator: estimator, selection: MetricSelection(metrics: subjects.map(\.metric)),
      payloadStatistics: histograms.isEmpty ? nil : MetricSelection(metrics: histograms.map(\.metric)),
      payloadPercentiles: Array(Set(histograms.compactMap(\.statistic.percentile))).sorted())
    options.payloadMeans = histograms.contains { $0.statistic == .mean }
    options.grouping = aggregationGrouping
    options.interval = .day
    options.seriesOnly = true
    return options
  }
}

/// One metric and statistic `watch` follows.
public struct WatchSubject: Sendable, Hashable {
  /// The metric.
  public var metric: MetricID
  /// Its statistic: a mean or percentile of a histogram or scalar, a rate's `rate`.
  public var statistic: Statistic

  /// Creates a subject.
  public init(metric: MetricID, statistic: Statistic) {
    self.metric = metric
    self.statistic = statistic
  }

  /// The built-in gate rules' metrics and statistics that payloads carry (diagnostic counts aside).
  public static let builtIn: [WatchSubject] = RuleSet.builtIn.rules.compactMap { rule in
    rule.metric.kind == .diagnostic || rule.statistic == .newSignature
      ? nil : WatchSubject(metric: rule.metric, statistic: rule.statistic)
  }
}
