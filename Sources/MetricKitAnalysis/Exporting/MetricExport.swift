import Foundation

/// What an export writes: the aggregate of each version (and group), per interval of the time axis
/// with the interval's end as timestamp, or once without one; and how each metric's numbers are read
/// from an aggregate. The writers (`OpenMetricsWriter`, `DatadogWriter`, `OTLPJSONWriter`) only format.
public struct MetricExport: Sendable {
  /// One version (and group), over one interval or the whole dump.
  public struct Point: Sendable {
    /// The app version.
    public var version: String
    /// The group's value with `--by`.
    public var group: String?
    /// The first second of the interval (seconds since 1970); nil without an interval.
    public var start: Int?
    /// The interval's last second (seconds since 1970): the sample's timestamp; nil without one.
    public var timestamp: Int?
    /// What was aggregated.
    public var aggregate: VersionAggregate
  }

  /// The percentiles of a histogram or scalar metric, with the count and sum of its observations.
  public struct Quantiles: Sendable {
    /// (percentile, value in the base unit).
    public var values: [(percentile: Percentile, value: Double)]
    /// Histogram samples, or payloads with a value.
    public var count: Int128
    /// The sum of the observations in the base unit: exact for scalar metrics, the mean estimator's for
    /// histograms (MetricKit does not report sums).
    public var sum: Double
  }

  /// A merged histogram as cumulative counts at its bucket ends, in the base unit.
  public struct Buckets: Sendable {
    /// (upper edge, samples in buckets ending at or below it), edges ascending. Where layouts overlap,
    /// a bucket counts at its end: each count is a sure lower bound of the samples ≤ the edge, and
    /// exact for disjoint buckets (MetricKit's usual layouts).
    public var cumulative: [(upperBound: Double, count: Int128)]
    /// All samples (the `+Inf` bucket).
    public var count: Int128
    /// As in ``Quantiles``.
    public var sum: Double
  }

  /// The key of `--by` groups; nil without.
  public var grouping: GroupingKey?
  /// The width of the points; nil for one point per version (and group).
  public var interval: TrendInterval?
  /// The points, versions in version order, then groups, then time.
  public var points: [Point] = []
  /// The metrics with data, in catalog order, then `signpost:…` identifiers in byte order.
  public var metrics: [MetricID] = []
  /// The bundle identifier seen most often, for `service.name`.
  public var bundleIdentifier: String?
  /// The quantiles written for histogram and scalar metrics.
  public var percentiles = [50, 90, 95, 99].compactMap { Percentile(Double($0)) }
  /// How histogram sums are estimated.
  public var estimator: MeanEstimator = .midpoint
  /// How mass is spread inside buckets for quantiles and midpoint sums.
  public var interpolation: Interpolation = .monotone
  /// The end of the data's latest day (seconds since 1970): the timestamp of points without one where
  /// a format needs it (Datadog, OTLP).
  public var latestTimestamp: Int?

  /// The points of `aggregate` (read with `interval` as its `AggregationOptions.interval`, not
  /// `seriesOnly` when `interval` is nil) for the metrics `selection` allows. With groups, each
  /// version keeps its `top` groups with the most payloads and merges the rest, exactly, into
  /// `(other)`: a dump cannot create more label values than that.
  public init(
    aggregate: DumpAggregate, interval: TrendInterval?, selection: MetricSelection = MetricSelection(),
    estimator: MeanEstimator = .midpoint, interpolation: Interpolation = .monotone, top: Int = 10
  ) {
    self.interval = interval
    self.estimator = estimator
    self.interpolation = interpolation
    grouping = aggregate.grouping
    bundleIdentifier = aggregate.mainBundleIdentifier
    latestTimestamp = aggregate.latestDay.map { ($0.daysSinceEpoch + 1) * 86_400 - 1 }
    if let interval {
      points = aggregate.series.map { key, part in
        Point(
          version: key.version, group: key.group, start: key.start.daysSinceEpoch * 86_400,
          timestamp: interval.next(after: key.start).daysSinceEpoch * 86_400 - 1, aggregate: part)
      }
    } else if aggregate.grouping != nil {
      points = aggregate.groups.map {
        Point(version: $0.key.version, group: $0.key.value, start: nil, timestamp: nil, aggregate: $0.value)
      }
    } else {
      points = aggregate.versions.map {
        Point(version: $0.key, group: nil, start: nil, timestamp: nil, aggregate: $0.value)
      }
    }
    if grouping != nil { points = Self.keepingTop(points, top) }
    points.sort { a, b in
      if a.version != b.version { return VersionOrder.precedes(a.version, b.version) }
      if a.group != b.group { return (a.group ?? "").precedesBytewise(b.group ?? "") }
      return (a.start ?? 0) < (b.start ?? 0)
    }
    var present = Set<MetricID>()
    for point in points {
      let a = point.aggregate
      for (id, h) in a.histograms where h.sampleCount > 0 { present.insert(id) }
      for id in a.scalars.keys { present.insert(id) }
      for rate in MetricCatalog.rates where a.rate(rate.id)?.pooledRate != nil { present.insert(rate.id) }
    }
    let signposts = present.filter(\.isSignpost).sorted { $0.precedesBytewise($1) }
    metrics = (MetricCatalog.fixed.map(\.id).filter(present.contains) + signposts).filter(selection.includes)
  }

  /// Per version, the points of its `top` largest groups, and the others merged into `(other)` per
  /// interval.
  private static func keepingTop(_ points: [Point], _ top: Int) -> [Point] {
    var sizes: [String: [String: Int]] = [:]
    for p in points { sizes[p.version, default: [:]][p.group ?? "", default: 0] += p.aggregate.payloadCount }
    let kept = sizes.mapValues { Set(GroupingKey.ranked($0).prefix(max(0, top))) }
    var out: [Point] = []
    struct OtherKey: Hashable {
      var version: String
      var start: Int?
    }
    var others: [OtherKey: Point] = [:]
    for p in points {
      if kept[p.version]?.contains(p.group ?? "") == true {
        out.append(p)
        continue
      }
      let key = OtherKey(version: p.version, start: p.start)
      if others[key] == nil {
        others[key] = Point(
          version: p.version, group: GroupingKey.other, start: p.start, timestamp: p.timestamp, aggregate: p.aggregate)
      } else {
        others[key]?.aggregate.merge(p.aggregate)
      }
    }
    return out + others.values
  }

  /// The metrics as the formats write them: each on its own, and every signpost together in one (its
  /// category and name are labels, never part of a name).
  public var families: [[MetricID]] {
    let signposts = metrics.filter(\.isSignpost)
    return metrics.filter { !$0.isSignpost }.map { [$0] } + (signposts.isEmpty ? [] : [signposts])
  }

  /// The labels of a point of `metric`: `app_version`, the group's key in snake case, and a signpost's
  /// category and name.
  public func labels(of point: Point, metric: MetricID) -> [(name: String, value: String)] {
    var labels = [(name: "app_version", value: point.version)]
    if let grouping, let group = point.group { labels += Self.groupLabels(grouping, group) }
    if metric.isSignpost { labels += Self.signpostLabels(metric) }
    return labels
  }

  /// The labels of a group: the key in snake case and the value (`device_type="iPhone15,3"`,
  /// `os_version_major="iPhone OS 17"`); a state's label is `state`, with its domain, when the key
  /// names one, as `state_domain` (a domain is text, not a label name).
  static func groupLabels(_ key: GroupingKey, _ value: String) -> [(name: String, value: String)] {
    if case .state(let domain) = key { return [("state", value)] + (domain.map { [("state_domain", $0)] } ?? []) }
    return [(ExportName.snake(key.description.replacingOccurrences(of: ":", with: "_")), value)]
  }

  /// The labels of a group named by its key's text (a rule result's `by`).
  static func groupLabels(_ key: String, _ value: String) -> [(name: String, value: String)] {
    GroupingKey(parsing: key).map { groupLabels($0, value) } ?? [("group", value)]
  }

  /// A signpost identifier's category and name.
  static func signpostLabels(_ identifier: MetricID) -> [(name: String, value: String)] {
    let parts = identifier.signpost ?? (category: "", name: "")
    return [("signpost_category", parts.category), ("signpost_name", parts.name)]
  }

  /// The percentiles of a histogram or scalar metric in the base unit; nil without data.
  public func quantiles(_ metric: MetricID, in a: VersionAggregate) -> Quantiles? {
    guard let exported = ExportedMetric.of(metric) else { return nil }
    if let merged = a.histogram(metric), merged.sampleCount > 0 {
      guard let estimates = try? merged.percentiles(percentiles, interpolation: interpolation),
        let mean = try? merged.mean(estimator: estimator, interpolation: interpolation)
      else { return nil }
      return Quantiles(
        values: estimates.map { ($0.percentile, exported.scaled($0.value)) }, count: merged.sampleCount,
        sum: exported.scaled(mean * Double(merged.sampleCount)))
    }
    guard let sample = a.scalar(metric), sample.count > 0, let values = try? sample.percentiles(percentiles) else {
      return nil
    }
    return Quantiles(
      values: zip(percentiles, values).map { ($0, exported.scaled($1)) }, count: Int128(sample.count),
      // The same bits whatever order threads merged the payloads in (ScalarSample.sum).
      sum: exported.scaled(sample.sum))
  }

  /// The cumulative buckets of a histogram metric in the base unit; nil without data.
  public func buckets(_ metric: MetricID, in a: VersionAggregate) -> Buckets? {
    guard let exported = ExportedMetric.of(metric), let merged = a.histogram(metric), merged.sampleCount > 0,
      let mean = try? merged.mean(estimator: estimator, interpolation: interpolation)
    else { return nil }
    var atEnd: [Double: Int128] = [:]
    for bucket in merged.buckets { atEnd[bucket.range.end, default: 0] += bucket.count }
    var running: Int128 = 0
    let cumulative = atEnd.keys.sorted().map { end -> (Double, Int128) in
      running += atEnd[end] ?? 0
      return (exported.scaled(end), running)
    }
    return Buckets(
      cumulative: cumulative, count: merged.sampleCount, sum: exported.scaled(mean * Double(merged.sampleCount)))
  }

  /// A rate metric in the base unit; nil without data.
  public func rate(_ metric: MetricID, in a: VersionAggregate) -> Double? {
    guard let exported = ExportedMetric.of(metric) else { return nil }
    return a.rate(metric)?.pooledRate.map(exported.scaled)
  }
}
