import Foundation

extension Sequence where Element == MetricPayload {
  /// The payloads of `applicationVersion`, leaving out those that span several app versions: the
  /// version filter of the on-device recipe.
  public func filter(applicationVersion: String) -> [MetricPayload] {
    filter { $0.latestApplicationVersion == applicationVersion && !$0.includesMultipleApplicationVersions }
  }

  /// The mean of one histogrammed metric over the payloads of `applicationVersion`, skipping payloads
  /// that span several app versions; nil when none has an observation.
  ///
  /// ```swift
  /// let launch = payloads.average(for: \.applicationLaunchMetrics, applicationVersion: "3.9.0")
  /// ```
  ///
  /// What each combination computes (a bucket `[a, b)` with count `k`):
  /// - `pooling: .pooled` (default): the mean of the exact merge of every payload's histogram, each
  ///   bucket counted at the estimator's point (`midpoint` (a + b) ÷ 2, `bucketEnd` b, `bucketStart`
  ///   a): Σ k·point ÷ Σ k over all payloads, so a payload weighs by its number of observations.
  /// - `pooling: .perPayload`: each payload's own Σ k·point ÷ Σ k (bucket order), then the plain mean
  ///   of those means in payload order: each device-day weighs the same. With `estimator: .bucketEnd`
  ///   this is the well-known on-device recipe, computed the same way to the last bit (payloads whose
  ///   histogram has no observation are skipped, where the recipe would divide 0 by 0).
  public func average<T: HistogrammedMetric>(
    for keyPath: KeyPath<MetricPayload, T?>, applicationVersion: String, estimator: MeanEstimator = .midpoint,
    pooling: Pooling = .pooled, interpolation: Interpolation = .monotone
  ) -> Measurement<T.UnitType>? {
    switch pooling {
    case .pooled:
      guard let merged = mergedHistogram(for: keyPath, applicationVersion: applicationVersion),
        let mean = try? merged.mean(estimator: estimator, interpolation: interpolation)
      else { return nil }
      return Measurement(value: mean, unit: merged.unit)
    case .perPayload:
      var means: [Double] = []
      var unit: T.UnitType?
      for payload in filter(applicationVersion: applicationVersion) {
        guard let histogram = payload[keyPath: keyPath]?.histogram else { continue }
        var total = 0
        var weighted: Double = 0
        for bucket in histogram.buckets {
          total += bucket.count
          weighted += Double(bucket.count) * estimator.representative(start: bucket.start, end: bucket.end)
        }
        guard total > 0 else { continue }
        means.append(weighted / Double(total))
        unit = histogram.unit
      }
      guard let unit, !means.isEmpty else { return nil }
      return Measurement(value: means.reduce(0, +) / Double(means.count), unit: unit)
    }
  }

  /// The exact merge of one histogrammed metric over the payloads of `applicationVersion` (payloads
  /// spanning several versions skipped); nil when none carries it.
  public func mergedHistogram<T: HistogrammedMetric>(
    for keyPath: KeyPath<MetricPayload, T?>, applicationVersion: String
  ) -> MergedHistogram<T.UnitType>? {
    var merged: MergedHistogram<T.UnitType>? = nil
    for payload in self
    where payload.latestApplicationVersion == applicationVersion && !payload.includesMultipleApplicationVersions {
      guard let histogram = payload[keyPath: keyPath]?.histogram else { continue }
      if merged == nil { merged = MergedHistogram(unit: histogram.unit) }
      merged?.add(histogram)
    }
    return merged
  }

  /// One percentile (0 < p ≤ 100) of one histogrammed metric of one version, in the metric's unit, with
  /// its guaranteed bracket; nil without observations or for a p out of range.
  public func percentile<T: HistogrammedMetric>(
    _ p: Double, for keyPath: KeyPath<MetricPayload, T?>, applicationVersion: String,
    interpolation: Interpolation = .monotone
  ) -> MeasuredPercentile<T.UnitType>? {
    guard let percentile = Percentile(p) else { return nil }
    return percentiles(
      for: keyPath, applicationVersion: applicationVersion, [percentile], interpolation: interpolation
    ).first
  }

  /// Percentiles with their guaranteed brackets for one histogrammed metric of one version.
  public func percentiles<T: HistogrammedMetric>(
    for keyPath: KeyPath<MetricPayload, T?>, applicationVersion: String,
    _ percentiles: [Percentile] = Percentile.defaults, interpolation: Interpolation = .monotone
  ) -> [MeasuredPercentile<T.UnitType>] {
    guard let merged = mergedHistogram(for: keyPath, applicationVersion: applicationVersion),
      let estimates = try? merged.percentiles(percentiles, interpolation: interpolation)
    else { return [] }
    return estimates.map { MeasuredPercentile($0, unit: merged.unit) }
  }

  /// The hang rate of one version, as Xcode Organizer shows it: Σ hang time ÷ Σ foreground time over
  /// the payloads reporting foreground time (a payload without a hang histogram hung for 0 s), hang
  /// time counted at the estimator's point of each bucket; nil without foreground time. The same
  /// number as `summary`'s `hangRate`.
  public func hangRate(applicationVersion: String, estimator: MeanEstimator = .midpoint) -> Measurement<UnitTimeRatio>?
  {
    aggregate(applicationVersion: applicationVersion, metric: .hangRate, estimator: estimator).hangRate
      .pooledRate.map { Measurement(value: $0, unit: UnitTimeRatio.secondsPerHour) }
  }

  /// The scroll hitch rate of one version: `scrollHitchTimeRatio` weighted by foreground time.
  public func scrollHitchRate(applicationVersion: String) -> Measurement<UnitTimeRatio>? {
    aggregate(applicationVersion: applicationVersion, metric: .scrollHitchRate).scrollHitchRate
      .pooledRate.map { Measurement(value: $0, unit: UnitTimeRatio.millisecondsPerSecond) }
  }

  /// The mean across payloads of a metric with one value per payload (peak memory, CPU time, …), in
  /// the unit of the first value; nil when no payload of the version has one.
  ///
  /// ```swift
  /// let memory = payloads.mean(of: \.memoryMetrics?.peakMemoryUsage, applicationVersion: "3.9.0")
  /// ```
  public func mean<U: Dimension>(of keyPath: KeyPath<MetricPayload, Measurement<U>?>, applicationVersion: String)
    -> Measurement<U>?
  {
    guard let (sample, unit) = scalarSample(keyPath, applicationVersion), let mean = try? sample.mean() else {
      return nil
    }
    return Measurement(value: mean, unit: unit)
  }

  /// A percentile across payloads (type 7, numpy's default, as `summary` computes it) of a metric with
  /// one value per payload; nil without values or for a p out of range.
  ///
  /// ```swift
  /// let p90 = payloads.percentile(90, of: \.memoryMetrics?.peakMemoryUsage, applicationVersion: "3.9.0")
  /// ```
  public func percentile<U: Dimension>(
    _ p: Double, of keyPath: KeyPath<MetricPayload, Measurement<U>?>, applicationVersion: String
  ) -> Measurement<U>? {
    guard let percentile = Percentile(p), let (sample, unit) = scalarSample(keyPath, applicationVersion),
      let value = try? sample.percentiles([percentile]).first
    else { return nil }
    return Measurement(value: value, unit: unit)
  }

  /// The payloads grouped by `latestApplicationVersion`; payloads spanning several versions are left
  /// out unless `includingMultipleVersions` is true (then they count for their latest version).
  public func groupedByApplicationVersion(includingMultipleVersions: Bool = false) -> [String: [MetricPayload]] {
    var groups: [String: [MetricPayload]] = [:]
    for payload in self where includingMultipleVersions || !payload.includesMultipleApplicationVersions {
      groups[payload.latestApplicationVersion, default: []].append(payload)
    }
    return groups
  }

  /// The payloads grouped by any key: each group is a payload array, so every statistic above applies
  /// to it.
  ///
  /// ```swift
  /// for (device, group) in payloads.grouped(by: \.metaData?.deviceType) {
  ///   print(device ?? "unknown", group.percentile(90, for: \.applicationLaunchMetrics, applicationVersion: "3.9.0")!)
  /// }
  /// ```
  public func grouped<Key: Hashable>(by keyPath: KeyPath<MetricPayload, Key>) -> [Key: [MetricPayload]] {
    Dictionary(grouping: self) { $0[keyPath: keyPath] }
  }

  // MARK: - Shared with the reports

  /// The aggregate `summary` computes for one version, for one metric.
  private func aggregate(applicationVersion: String, metric: MetricID, estimator: MeanEstimator = .midpoint)
    -> VersionAggregate
  {
    var aggregate = VersionAggregate(version: applicationVersion)
    let options = AggregationOptions(estimator: estimator, selection: MetricSelection(metrics: [metric]))
    for payload in filter(applicationVersion: applicationVersion) { aggregate.add(payload, options: options) }
    return aggregate
  }

  /// One value per payload of the version, converted to the first value's unit.
  private func scalarSample<U: Dimension>(_ keyPath: KeyPath<MetricPayload, Measurement<U>?>, _ version: String)
    -> (ScalarSample, U)?
  {
    var sample = ScalarSample()
    var unit: U?
    for payload in filter(applicationVersion: version) {
      guard let value = payload[keyPath: keyPath], value.value.isFinite else { continue }
      if unit == nil { unit = value.unit }
      sample.append(value.converted(to: unit!).value)
    }
    guard let unit, sample.count > 0 else { return nil }
    return (sample, unit)
  }
}
