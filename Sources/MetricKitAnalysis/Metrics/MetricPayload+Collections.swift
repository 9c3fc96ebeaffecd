import Foundation

extension Sequence where Element == MetricPayload {
  /// The mean of one histogrammed metric over the payloads of `applicationVersion`, skipping payloads
  /// that include several app versions: the familiar on-device recipe, unchanged.
  ///
  /// ```swift
  /// let launch = payloads.average(for: \.applicationLaunchMetrics, applicationVersion: "3.9.0")
  /// ```
  ///
  /// The mean is the merged histogram's (count-weighted over all payloads). Pass
  /// `estimator: .bucketEnd` to reproduce the blog recipe's Σ count × bucketEnd ÷ Σ count.
  public func average<T: HistogrammedMetric>(
    for keyPath: KeyPath<MetricPayload, T?>, applicationVersion: String, estimator: MeanEstimator = .midpoint
  ) -> Measurement<T.UnitType>? {
    guard let merged = mergedHistogram(for: keyPath, applicationVersion: applicationVersion),
      let mean = try? merged.mean(estimator: estimator)
    else { return nil }
    return Measurement(value: mean, unit: merged.unit)
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

  /// Percentiles with their guaranteed brackets for one histogrammed metric of one version.
  public func percentiles<T: HistogrammedMetric>(
    for keyPath: KeyPath<MetricPayload, T?>, applicationVersion: String,
    _ percentiles: [Percentile] = Percentile.defaults
  ) -> [PercentileEstimate] {
    guard let merged = mergedHistogram(for: keyPath, applicationVersion: applicationVersion) else { return [] }
    return (try? merged.percentiles(percentiles)) ?? []
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
}
