/// What an aggregation records besides the merged histograms and scalar values.
public struct AggregationOptions: Sendable, Hashable {
  /// Sets the per-payload histogram means and the hang time a histogram accounts for.
  public var estimator: MeanEstimator
  /// Which metrics are aggregated.
  public var selection: MetricSelection
  /// Per-payload histogram percentiles to record (for the regression tests, whose unit of evidence
  /// is one payload). Empty for summaries.
  public var payloadPercentiles: [Percentile]

  /// Creates options.
  public init(
    estimator: MeanEstimator = .midpoint, selection: MetricSelection = MetricSelection(),
    payloadPercentiles: [Percentile] = []
  ) {
    self.estimator = estimator
    self.selection = selection
    self.payloadPercentiles = payloadPercentiles
  }
}
