/// The pooled statistics of one aggregate (a version, or a group of one), each computed once and found
/// by metric and statistic: a histogram's mean and percentiles (all percentiles of a metric from one
/// model of its merged histogram, with their brackets), the mean and type-7 percentiles of a scalar
/// metric's values, a rate's pooled value.
///
/// The report page's headlines, its distributions and its gate read the same numbers from one of
/// these; the evaluator reads each rule's pooled statistic from one.
public struct PooledStatistics: Sendable {
  /// One pooled statistic.
  public struct Value: Sendable, Hashable {
    /// The statistic's value, in the metric's canonical unit.
    public var value: Double
    /// The guaranteed bracket of a histogram percentile.
    public var bounds: ClosedRange<Double>?
  }

  var values: [MetricID: [Statistic: Value]] = [:]

  /// No statistics.
  init() {}

  /// Computes `requests` (the statistics wanted of each metric) on `aggregate`. A statistic that has
  /// no value (no data, or one that does not apply) is absent.
  public init(
    _ aggregate: VersionAggregate, requests: [MetricID: Set<Statistic>], estimator: MeanEstimator = .midpoint,
    interpolation: Interpolation = .monotone
  ) {
    for (metric, statistics) in requests {
      let computed = Self.compute(
        metric, statistics, aggregate, estimator: estimator, interpolation: interpolation)
      if !computed.isEmpty { values[metric] = computed }
    }
  }

  /// A statistic of a metric; nil when it was not asked for or has no value.
  public subscript(metric: MetricID, statistic: Statistic) -> Value? { values[metric]?[statistic] }

  /// The requests of several (metric, statistic) pairs, merged by metric.
  public static func requests(_ pairs: some Sequence<(MetricID, Statistic)>) -> [MetricID: Set<Statistic>] {
    var requests: [MetricID: Set<Statistic>] = [:]
    for (metric, statistic) in pairs { requests[metric, default: []].insert(statistic) }
    return requests
  }

  private static func compute(
    _ metric: MetricID, _ statistics: Set<Statistic>, _ aggregate: VersionAggregate, estimator: MeanEstimator,
    interpolation: Interpolation
  ) -> [Statistic: Value] {
    // In a fixed order, so that the work done does not depend on a set's order.
    let percentiles = statistics.compactMap(\.percentile).sorted()
    let others = statistics.filter { $0.percentile == nil }
    var out: [Statistic: Value] = [:]
    switch metric.kind {
    case .histogram:
      guard let merged = aggregate.histogram(metric), merged.sampleCount > 0 else { return [:] }
      // Under the monotone model the percentiles and the midpoint mean read one partition: made once.
      let partition =
        interpolation == .monotone && !percentiles.isEmpty && !others.isEmpty && estimator == .midpoint
        ? ElementaryPartition(buckets: merged.buckets, selfConsistent: true) : nil
      if let estimates = try? merged.percentiles(percentiles, interpolation: interpolation, partition: partition) {
        for e in estimates {
          out[.percentile(e.percentile)] = Value(value: e.value, bounds: e.lowerBound...e.upperBound)
        }
      }
      // Any other statistic of a histogram is its mean.
      if !others.isEmpty,
        let mean = try? merged.mean(estimator: estimator, interpolation: interpolation, partition: partition)
      {
        for statistic in others { out[statistic] = Value(value: mean) }
      }
    case .scalar, .counter:
      guard let sample = aggregate.scalar(metric), sample.count > 0,
        let summary = try? sample.summary(percentiles)
      else { return [:] }
      for (p, value) in zip(percentiles, summary.percentiles) { out[.percentile(p)] = Value(value: value) }
      // Any other statistic of values is their mean.
      for statistic in others { out[statistic] = Value(value: summary.mean) }
    case .rate:
      guard let rate = aggregate.rate(metric)?.pooledRate else { return [:] }
      for statistic in statistics { out[statistic] = Value(value: rate) }
    case .diagnostic:
      return [:]
    }
    return out
  }
}

extension PooledStatistics.Value {
  /// A value without a bracket.
  init(value: Double) { self.init(value: value, bounds: nil) }
}
