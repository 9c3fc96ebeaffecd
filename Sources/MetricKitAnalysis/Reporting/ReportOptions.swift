/// What the `report` page shows.
public struct ReportOptions: Sendable {
  /// The trend charts, in order.
  public var charts: [ReportChartSpec] = ReportChartSpec.defaults
  /// The width of a point on the time axis; nil chooses it from the data (the aggregate must then be
  /// per day): see ``DumpAggregate/automaticInterval(minPayloads:)``.
  public var interval: TrendInterval?
  /// Only the intervals reaching into the last this many days of the data; nil keeps all.
  public var lastDays: Int?
  /// Points with fewer payloads are drawn but marked sparse; a version's release marker is its first
  /// interval with at least this many payloads.
  public var minPayloads = 5
  /// How histogram means are estimated.
  public var estimator: MeanEstimator = .midpoint
  /// How mass is spread inside buckets for percentiles and midpoint means.
  public var interpolation: Interpolation = .monotone
  /// With grouping, the groups drawn per version (most payloads first); the rest merge into `(other)`.
  public var top = 10
  /// Threads computing the charts' points (the page is the same for any number).
  public var threads = 1
  /// The versions whose distributions are overlaid; empty: the gate's baseline and candidate, or
  /// without a gate the latest two versions.
  public var distributionVersions: [String] = []
  /// The most signpost distributions drawn (the signposts with the most samples).
  public var signpostDistributions = 6
  /// Where the stability section's numbers turn from good to needing attention and to bad; a band of
  /// a metric replaces the default band of the same metric.
  public var stabilityBands: [StabilityBand] = StabilityBand.defaults

  /// Creates the default options.
  public init() {}

  /// The metrics the page reads: the charts', every fixed histogram and the signposts (for the
  /// distributions), the stability rates (for their section), and `extra` (the gate's rules).
  public func selection(adding extra: [MetricID] = []) -> MetricSelection {
    let read = charts.map(\.metric) + MetricCatalog.histograms.map(\.id) + MetricCatalog.stability.map(\.id) + extra
    var patterns = read.map(\.rawValue)
    patterns.append(MetricID.signpostPrefix + "*")
    return MetricSelection(patterns)
  }
}
