/// What an aggregation records besides the merged histograms and scalar values.
public struct AggregationOptions: Sendable, Hashable {
  /// Sets the per-payload histogram means and the hang time a histogram accounts for.
  public var estimator: MeanEstimator
  /// Which metrics are aggregated.
  public var selection: MetricSelection
  /// The histogram metrics whose per-payload statistics are recorded (the unit of evidence of the
  /// regression tests, and per-payload pooling); nil records none, which is fastest.
  public var payloadStatistics: MetricSelection?
  /// The per-payload percentiles recorded besides the mean.
  public var payloadPercentiles: [Percentile]
  /// Whether the per-payload means are recorded with `payloadStatistics` (rules on means, per-payload
  /// pooling, snapshots). A ``RegressionEvaluator`` whose rules read none turns it off: each mean is
  /// a pass over the buckets and a sample to keep.
  public var payloadMeans = true
  /// How diagnostics are aggregated.
  public var diagnostics = DiagnosticOptions()
  /// When set, each version is also aggregated per group of this key (`--by`).
  public var grouping: GroupingKey?
  /// When set, each version (and group) is also aggregated per fine stratum of these dimensions
  /// (a matched comparison's input), only the coarsening limit aside.
  public var stratification: Stratification?
  /// The versions aggregated per stratum; nil: all of them.
  public var stratifiedVersions: Set<String>?
  /// When set, strata receive only the payloads of these days (`compare --window overlap`); payloads
  /// of other days are left out of the matched comparison, and count against its coverage.
  public var window: ClosedRange<CalendarDay>?
  /// The most distinct fine strata aggregated apart per version (and group): the byte-wise first;
  /// the payloads of the others are aggregated, exactly, in one stratum whose every value is
  /// `(other)`.
  public var stratumLimit = AggregationOptions.defaultGroupLimit
  /// When set, each version (and group) is also aggregated per interval of the time axis (`trend`).
  public var interval: TrendInterval?
  /// The offset from UTC, in seconds, of the calendar that assigns payloads to days (0: UTC).
  public var dayUTCOffset = 0
  /// With an interval, aggregate only the series (a trend reads nothing else); otherwise versions and
  /// groups too (a snapshot carries both).
  public var seriesOnly = false
  /// The most distinct signposts kept per version: the byte-wise smallest identifiers; histograms of
  /// others are counted, not stored (MetricKit reports far fewer for an app).
  public var signpostLimit = AggregationOptions.defaultSignpostLimit

  /// The most payloads of a version (or of one series entry) whose per-payload values are kept
  /// exactly; past it they are kept as sketches with 1% relative error (``ScalarSample``), so memory
  /// and snapshots stay bounded at any size.
  public var exactValueLimit = ScalarSample.defaultExactLimit

  /// With grouping, the most distinct values of the key aggregated apart per version: the byte-wise
  /// first; the payloads of the others are aggregated, exactly, as one group, `(other)`. The key's
  /// values are text from the payloads: memory stays flat in how many distinct ones a dump holds.
  public var groupLimit = AggregationOptions.defaultGroupLimit

  /// The most distinct bucket ranges one metric's merged histogram holds per version: a metric whose
  /// histograms hold more is not computed for that version, and its payload histograms are counted
  /// (the same for any order of the payloads and any split of them into shards).
  public var rangeLimit = AggregationOptions.defaultRangeLimit

  /// The default bound on distinct bucket ranges per metric and version: 2²⁰, about 50 MB.
  public static let defaultRangeLimit = 1 << 20

  /// The default number of distinct group values aggregated apart per version.
  public static let defaultGroupLimit = 1_000

  /// The default number of distinct signposts kept per version.
  public static let defaultSignpostLimit = 10_000

  /// Creates options.
  public init(
    estimator: MeanEstimator = .midpoint, selection: MetricSelection = MetricSelection(),
    payloadStatistics: MetricSelection? = nil, payloadPercentiles: [Percentile] = []
  ) {
    self.estimator = estimator
    self.selection = selection
    self.payloadStatistics = payloadStatistics
    self.payloadPercentiles = payloadPercentiles
  }
}
