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
  /// Merged signpost histograms, in the order first seen: a linear scan comparing the (short)
  /// category and name finds a payload's signpost without building and hashing its identifier.
  private var signposts: [SignpostSlot] = []

  private struct SignpostSlot: Sendable {
    var category: String
    var name: String
    var identifier: String
    var merged: MergedHistogram<Dimension>
  }
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
    var all: [String: MergedHistogram<Dimension>] = [:]
    for slot in signposts { all[slot.identifier] = slot.merged }
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
    } else if let i = signposts.firstIndex(where: { $0.identifier == identifier }) {
      signposts[i].merged = merged
    } else {
      signposts.append(SignpostSlot(category: "", name: "", identifier: identifier, merged: merged))
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
      let dimension = CanonicalUnit.histogramDimension(definition.unit)
      if fixedHistograms[i] == nil { fixedHistograms[i] = MergedHistogram(unit: dimension) }
      fixedHistograms[i]?.add(buckets: buckets)
      recordPayloadStatistics(definition.identifier, buckets: buckets, options: options)
    }
    for signpost in payload.signpostMetrics {
      guard let buckets = signpost.histogram?.buckets else { continue }
      let slot: Int
      if let known = signposts.firstIndex(where: {
        $0.name == signpost.signpostName && $0.category == signpost.signpostCategory
      }) {
        slot = known
      } else if let known = signposts.firstIndex(where: { $0.identifier == signpost.identifier }) {
        // Set from a snapshot, which knows only the identifier.
        signposts[known].category = signpost.signpostCategory
        signposts[known].name = signpost.signpostName
        slot = known
      } else {
        let identifier = signpost.identifier
        guard selection.includes(identifier) else { continue }
        slot = signposts.count
        signposts.append(
          SignpostSlot(
            category: signpost.signpostCategory, name: signpost.signpostName, identifier: identifier,
            merged: MergedHistogram(unit: CanonicalUnit.durationDimension)))
      }
      signposts[slot].merged.add(buckets: buckets)
      recordPayloadStatistics(signposts[slot].identifier, buckets: buckets, options: options)
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
    guard let values = try? buckets.percentileValues(options.payloadPercentiles) else { return }
    for (percentile, value) in zip(options.payloadPercentiles, values) {
      payloadStatistics[identifier, default: [:]][percentile.label, default: ScalarSample()].append(value)
    }
  }

  /// Adds another aggregate of the same version.
  public mutating func merge(_ other: VersionAggregate) {
    payloadCount += other.payloadCount
    for (i, merged) in other.fixedHistograms.enumerated() {
      guard let merged else { continue }
      if fixedHistograms[i] == nil { fixedHistograms[i] = merged } else { fixedHistograms[i]?.merge(merged) }
    }
    for slot in other.signposts {
      if let i = signposts.firstIndex(where: { $0.identifier == slot.identifier }) {
        signposts[i].merged.merge(slot.merged)
      } else {
        signposts.append(slot)
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
