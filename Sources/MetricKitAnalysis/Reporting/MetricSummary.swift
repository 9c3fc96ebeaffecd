/// The numbers of one metric for one version.
public enum MetricSummary: Sendable, Hashable {
  /// A histogram metric: the merged histogram's total count, mean and percentiles with brackets.
  case histogram(HistogramSummary)
  /// A scalar metric: one value per payload; mean and type-7 percentiles across payloads.
  case scalar(ScalarSummary)
  /// A pooled rate (hangRate, scrollHitchRate).
  case rate(RateSummary)

  /// The metric identifier.
  public var metric: MetricID {
    switch self {
    case .histogram(let s): s.metric
    case .scalar(let s): s.metric
    case .rate(let s): s.metric
    }
  }

  /// The canonical unit.
  public var unit: MetricUnit {
    switch self {
    case .histogram(let s): s.unit
    case .scalar(let s): s.unit
    case .rate(let s): s.unit
    }
  }
}

/// A histogram metric's summary.
public struct HistogramSummary: Sendable, Hashable {
  /// The metric identifier.
  public var metric: MetricID
  /// The unit of mean and percentiles.
  public var unit: MetricUnit
  /// The total bucket count (observations).
  public var count: Int128
  /// Payloads that carried this histogram.
  public var payloads: Int
  /// The mean under the report's estimator and pooling.
  public var mean: Double
  /// The sample standard deviation of the merged mixture.
  public var standardDeviation: Double?
  /// Percentiles with their brackets.
  public var percentiles: [PercentileEstimate]
}

/// A scalar metric's summary.
public struct ScalarSummary: Sendable, Hashable {
  /// The metric identifier.
  public var metric: MetricID
  /// The unit.
  public var unit: MetricUnit
  /// Payloads with a value.
  public var count: Int
  /// The mean across payloads.
  public var mean: Double
  /// Type-7 percentiles across payloads, in the report's percentile order.
  public var percentiles: [(Percentile, Double)]

  public static func == (a: ScalarSummary, b: ScalarSummary) -> Bool {
    a.metric == b.metric && a.unit == b.unit && a.count == b.count && a.mean == b.mean
      && a.percentiles.map(\.0) == b.percentiles.map(\.0) && a.percentiles.map(\.1) == b.percentiles.map(\.1)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(metric)
    hasher.combine(count)
    hasher.combine(mean)
  }
}

/// A pooled rate.
public struct RateSummary: Sendable, Hashable {
  /// The metric identifier.
  public var metric: MetricID
  /// The unit (`s/h`, `ms/s`).
  public var unit: MetricUnit
  /// Σ numerator ÷ Σ denominator.
  public var value: Double
  /// Payloads that contributed.
  public var payloads: Int
  /// For a stability rate: its 95% interval, events and exposure; nil for a rate of amounts.
  public var estimate: RateEstimate?
}
