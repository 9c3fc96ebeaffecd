import Foundation

/// Everything the reports need about one app version, accumulated payload by payload and mergeable
/// (aggregates of disjoint payload sets merge into the aggregate of their union).
///
/// Storage is indexed by the position of a metric in ``MetricCatalog`` rather than by name: adding a
/// payload then hashes no metric identifiers, which matters at tens of thousands of payloads a second.
public struct VersionAggregate: Sendable {
  /// The app version.
  public let version: String
  /// The payloads counted.
  public internal(set) var payloadCount = 0
  /// Merged fixed histograms, by index in `MetricCatalog.histograms`.
  private var fixedHistograms: [MergedHistogram<Dimension>?]
  /// Merged signpost histograms, by identifier.
  private var signpostHistograms: [String: MergedHistogram<Dimension>] = [:]
  /// Scalar values, by index in `MetricCatalog.scalars`.
  private var scalarSamples: [ScalarSample]
  /// Each payload's own statistics of the histogram metrics that record them, by metric then
  /// statistic (`mean`, `p90`…): the unit of evidence of the regression tests, and the per-payload
  /// pooling of means.
  public internal(set) var payloadStatistics: [String: [String: ScalarSample]] = [:]
  /// Hang seconds over foreground hours, per payload.
  public internal(set) var hangRate = RateSample()
  /// Scroll hitch ratio × foreground seconds over foreground seconds, per payload.
  public internal(set) var scrollHitchRate = RateSample()

  /// Creates an empty aggregate.
  public init(version: String) {
    self.version = version
    fixedHistograms = Array(repeating: nil, count: MetricCatalog.histograms.count)
    scalarSamples = Array(repeating: ScalarSample(), count: MetricCatalog.scalars.count)
  }

  /// Merged histograms by metric identifier.
  public var histograms: [String: MergedHistogram<Dimension>] {
    var all = signpostHistograms
    for (i, merged) in fixedHistograms.enumerated() {
      if let merged { all[MetricCatalog.histograms[i].identifier] = merged }
    }
    return all
  }

  /// The unit of each histogram metric in output.
  public var histogramUnits: [String: String] {
    histograms.mapValues { $0.unit.symbol == UnitSignalBars.bars.symbol ? "bars" : "ms" }
  }

  /// One value per payload of each scalar metric that has values.
  public var scalars: [String: ScalarSample] {
    var all: [String: ScalarSample] = [:]
    for (i, sample) in scalarSamples.enumerated() where sample.count > 0 {
      all[MetricCatalog.scalars[i].identifier] = sample
    }
    return all
  }

  /// Sets a merged histogram (reading snapshots).
  mutating func setHistogram(_ identifier: String, _ merged: MergedHistogram<Dimension>) {
    if let i = MetricCatalog.histogramIndex[identifier] {
      fixedHistograms[i] = merged
    } else {
      signpostHistograms[identifier] = merged
    }
  }

  /// Sets a scalar metric's values (reading snapshots); unknown identifiers are ignored.
  mutating func setScalar(_ identifier: String, _ sample: ScalarSample) {
    if let i = MetricCatalog.scalarIndex[identifier] { scalarSamples[i] = sample }
  }

  /// Adds one payload's metrics.
  public mutating func add(_ payload: MetricPayload, options: AggregationOptions) {
    let estimator = options.estimator
    let selection = options.selection
    payloadCount += 1
    for (i, definition) in MetricCatalog.histograms.enumerated() {
      guard let buckets = definition.buckets(payload), selection.includes(definition.identifier) else { continue }
      let dimension: Dimension = definition.unit == "bars" ? UnitSignalBars.bars : UnitDuration.milliseconds
      if fixedHistograms[i] == nil { fixedHistograms[i] = MergedHistogram(unit: dimension) }
      fixedHistograms[i]?.add(buckets: buckets)
      recordPayloadStatistics(definition.identifier, buckets: buckets, options: options)
    }
    for signpost in payload.signpostMetrics {
      guard let buckets = signpost.histogram?.buckets else { continue }
      let identifier = signpost.identifier
      guard selection.includes(identifier) else { continue }
      signpostHistograms[identifier, default: MergedHistogram(unit: UnitDuration.milliseconds)].add(buckets: buckets)
      recordPayloadStatistics(identifier, buckets: buckets, options: options)
    }
    for (i, definition) in MetricCatalog.scalars.enumerated() {
      if let value = definition.value(payload), value.isFinite, selection.includes(definition.identifier) {
        scalarSamples[i].append(value)
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

  /// Records one payload's mean and percentiles of a histogram metric, when the options ask for them.
  private mutating func recordPayloadStatistics(
    _ identifier: String, buckets: [HistogramBucket], options: AggregationOptions
  ) {
    guard let recorded = options.payloadStatistics, recorded.includes(identifier),
      let mean = try? buckets.mean(estimator: options.estimator)  // nil: no observations
    else { return }
    payloadStatistics[identifier, default: [:]]["mean", default: ScalarSample()].append(mean)
    guard !options.payloadPercentiles.isEmpty else { return }
    var single = MergedHistogram<Dimension>(unit: UnitDuration.milliseconds)
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
    for (i, merged) in other.fixedHistograms.enumerated() {
      guard let merged else { continue }
      if fixedHistograms[i] == nil { fixedHistograms[i] = merged } else { fixedHistograms[i]?.merge(merged) }
    }
    for (id, merged) in other.signpostHistograms {
      if signpostHistograms[id] == nil {
        signpostHistograms[id] = merged
      } else {
        signpostHistograms[id]?.merge(merged)
      }
    }
    for (i, sample) in other.scalarSamples.enumerated() { scalarSamples[i].merge(sample) }
    for (id, statistics) in other.payloadStatistics {
      for (statistic, sample) in statistics {
        payloadStatistics[id, default: [:]][statistic, default: ScalarSample()].merge(sample)
      }
    }
    hangRate.merge(other.hangRate)
    scrollHitchRate.merge(other.scrollHitchRate)
  }
}
