import Foundation

/// Everything the reports need about one app version, accumulated payload by payload and mergeable
/// (aggregates of disjoint payload sets merge into the aggregate of their union).
public struct VersionAggregate: Sendable {
  /// The app version.
  public let version: String
  /// The payloads counted.
  public internal(set) var payloadCount = 0
  /// Merged histograms by metric identifier.
  public internal(set) var histograms: [String: MergedHistogram<Dimension>] = [:]
  /// The unit of each histogram metric in output.
  public internal(set) var histogramUnits: [String: String] = [:]
  /// Each payload's own statistics of each histogram metric, by metric then statistic (`mean`,
  /// `p90`…): the unit of evidence of the regression tests, and the per-payload pooling of means.
  public internal(set) var payloadStatistics: [String: [String: ScalarSample]] = [:]
  /// One value per payload of each scalar metric.
  public internal(set) var scalars: [String: ScalarSample] = [:]
  /// Hang seconds over foreground hours, per payload.
  public internal(set) var hangRate = RateSample()
  /// Scroll hitch ratio × foreground seconds over foreground seconds, per payload.
  public internal(set) var scrollHitchRate = RateSample()

  /// Creates an empty aggregate.
  public init(version: String) { self.version = version }

  /// Adds one payload's metrics.
  public mutating func add(_ payload: MetricPayload, options: AggregationOptions) {
    let estimator = options.estimator
    let selection = options.selection
    payloadCount += 1
    for definition in MetricCatalog.histograms where selection.includes(definition.identifier) {
      if let buckets = definition.buckets(payload) {
        addHistogram(definition.identifier, unit: definition.unit, buckets: buckets, options: options)
      }
    }
    for signpost in payload.signpostMetrics {
      let identifier = signpost.identifier
      if selection.includes(identifier), let buckets = signpost.histogram?.buckets {
        addHistogram(identifier, unit: "ms", buckets: buckets, options: options)
      }
    }
    for definition in MetricCatalog.scalars where selection.includes(definition.identifier) {
      if let value = definition.value(payload), value.isFinite {
        scalars[definition.identifier, default: ScalarSample()].append(value)
      }
    }
    let foregroundSeconds = payload.applicationTimeMetrics?.cumulativeForegroundTime?.value
    if let foregroundSeconds, selection.includes(MetricCatalog.hangRate) {
      let hangMilliseconds =
        payload.applicationResponsivenessMetrics?.histogrammedApplicationHangTime?.buckets.total(estimator: estimator)
        ?? 0
      hangRate.append(numerator: hangMilliseconds / 1000, denominator: foregroundSeconds / 3600)
    }
    if let foregroundSeconds, let ratio = payload.animationMetrics?.scrollHitchTimeRatio?.value,
      selection.includes(MetricCatalog.scrollHitchRate)
    {
      scrollHitchRate.append(numerator: ratio * foregroundSeconds, denominator: foregroundSeconds)
    }
  }

  private mutating func addHistogram(
    _ identifier: String, unit: String, buckets: [HistogramBucket], options: AggregationOptions
  ) {
    let dimension: Dimension = unit == "bars" ? UnitSignalBars.bars : UnitDuration.milliseconds
    histograms[identifier, default: MergedHistogram(unit: dimension)].add(buckets: buckets)
    histogramUnits[identifier] = unit
    guard let mean = try? buckets.mean(estimator: options.estimator) else { return }  // no observations
    payloadStatistics[identifier, default: [:]]["mean", default: ScalarSample()].append(mean)
    guard !options.payloadPercentiles.isEmpty else { return }
    var single = MergedHistogram<Dimension>(unit: dimension)
    single.add(buckets: buckets)
    guard let estimates = try? single.percentiles(options.payloadPercentiles) else { return }
    for estimate in estimates {
      payloadStatistics[identifier, default: [:]][estimate.percentile.label, default: ScalarSample()].append(
        estimate.value)
    }
  }

  /// Adds another aggregate of the same version.
  public mutating func merge(_ other: VersionAggregate) {
    payloadCount += other.payloadCount
    for (id, histogram) in other.histograms {
      if histograms[id] == nil {
        histograms[id] = histogram
      } else {
        histograms[id]?.merge(histogram)
      }
    }
    histogramUnits.merge(other.histogramUnits) { a, _ in a }
    for (id, statistics) in other.payloadStatistics {
      for (statistic, sample) in statistics {
        payloadStatistics[id, default: [:]][statistic, default: ScalarSample()].merge(sample)
      }
    }
    for (id, sample) in other.scalars { scalars[id, default: ScalarSample()].merge(sample) }
    hangRate.merge(other.hangRate)
    scrollHitchRate.merge(other.scrollHitchRate)
  }
}
