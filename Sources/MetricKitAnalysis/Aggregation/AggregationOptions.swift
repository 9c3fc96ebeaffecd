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
  /// How diagnostics are aggregated.
  public var diagnostics = DiagnosticOptions()

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
