/// What a trend computes.
public struct TrendOptions: Sendable, Hashable {
  /// The statistics of histogram and scalar metrics, means and percentiles (rates have one value).
  public var statistics: [Statistic] = [.percentile(Percentile(50)!), .percentile(Percentile(90)!), .mean]
  /// How histogram means are estimated.
  public var estimator: MeanEstimator = .midpoint
  /// How mass is spread inside buckets for percentiles and midpoint means.
  public var interpolation: Interpolation = .monotone

  /// Points with fewer payloads are kept but flagged sparse.
  public var minPayloads = 5
  /// Keep only the intervals reaching into the last this many days of the data (counted back from
  /// the latest day, not the clock, so a report is reproducible); nil keeps all.
  public var lastDays: Int?
  /// With grouping, the groups kept per version (most payloads first); the rest merge into `(other)`.
  public var top = 10
  /// Threads computing the points' statistics (the report is the same for any number).
  public var threads = 1

  /// Creates the default options.
  public init() {}
}

/// One point of a series: one interval.
public struct TrendPoint: Sendable {
  /// The interval's first day.
  public var start: CalendarDay
  /// Payloads of the version (and group) in the interval.
  public var payloads: Int
  /// Observations: histogram counts, payloads with a value for scalar metrics, payloads for rates.
  public var count: Int
  /// Fewer payloads than `minPayloads`.
  public var sparse: Bool
  /// The statistics, in the order asked (`value` for rates).
  public var values: [(statistic: Statistic, value: Double)] = []
  /// The guaranteed brackets of histogram percentiles.
  public var bounds: [(statistic: Statistic, lower: Double, upper: Double)] = []
  /// A stability rate's 95% interval, with the events and exposure it counts (nil for other metrics).
  public var estimate: RateEstimate?

  /// The value of one statistic, nil when the point has none.
  public func value(_ statistic: Statistic) -> Double? { values.first { $0.statistic == statistic }?.value }
  /// Adoption series: the version's share of the interval's payloads.
  public var share: Double?
}

/// One metric of one version (and group) over time.
public struct TrendSeries: Sendable {
  /// The metric, or adoption.
  public var subject: TrendSubject
  /// The app version.
  public var version: String
  /// The group with `--by`: key and value.
  public var by: (key: String, value: String)?
  /// The points, oldest first; intervals without data are absent, not zero.
  public var points: [TrendPoint]
}

/// The time axis of a dump: for each metric and version (and group), one point per interval.
public struct TrendReport: Sendable {
  /// The interval of the points.
  public var interval: TrendInterval
  /// What was read, counted, excluded and rejected.
  public var inputs: InputAccounting
  /// The series: metrics in the order asked, then versions in version order, then groups by payloads.
  public var series: [TrendSeries] = []
  /// What could not be computed or placed.
  public var omissions: [String] = []
  /// Apple's Organizer numbers beside the whole versions, when Apple's responses were given
  /// (`--organizer`).
  public var organizer: OrganizerComparison?
  /// Why the contents of series parts held in outline (a ``CachedReading`` of outlines) could not be
  /// read, when they could not: the report is then incomplete, and the dump must be read again.
  public internal(set) var unreadableParts: String?

  /// Builds the series of `metrics` (identifiers, prefixes ending in `*`, or `payloads`) from an
  /// aggregate made with `AggregationOptions.interval == interval`; what matches no metric is left out.
  public init(
    aggregate: DumpAggregate, metrics: [String], interval: TrendInterval, options: TrendOptions = TrendOptions()
  ) {
    self.init(
      aggregate: aggregate, subjects: Self.subjects(matching: metrics, in: aggregate), interval: interval,
      options: options)
  }

  /// Builds the series of `subjects`, in that order, from an aggregate made with
  /// `AggregationOptions.interval == interval`.
  public init(
    aggregate: DumpAggregate, subjects: [TrendSubject], interval: TrendInterval, options: TrendOptions = TrendOptions()
  ) {
    self.init(aggregate: aggregate, subjects: subjects, interval: interval, options: options, points: nil)
  }

  /// Days before 1970-01-01 a window may reach back to: far before any MetricKit payload.
  private static let earliestDay = 36_500

  /// Builds the series of `subjects` with the points `source` finds, or computes (all of them without
  /// one).
  init(
    aggregate: DumpAggregate, subjects: [TrendSubject], interval: TrendInterval, options: TrendOptions,
    points source: (any TrendPointSource)?
  ) {
    self.interval = interval
    inputs = aggregate.inputs
    omissions += aggregate.foldedGroupsNotes
    if aggregate.undatedPayloads > 0 {
      omissions.append(
        "\(aggregate.undatedPayloads) counted payloads have no timestamps and are left off the time axis")
    }
    // A window reaching past the calendar's first day keeps everything (and no date arithmetic on it
    // can overflow).
    let windowStart = options.lastDays.flatMap { days -> CalendarDay? in
      guard let latest = aggregate.latestDay, days <= latest.daysSinceEpoch + Self.earliestDay else { return nil }
      return interval.start(of: latest.adding(days: -(max(days, 0) - 1)))
    }
    // The series of each version (and group): groups beyond the top merged into (other); the parts
    // read, and those held in outline.
    var byLine: [LineKey: [CalendarDay: TrendCell]] = [:]
    let kept = Self.keptGroups(aggregate, top: options.top)
    let lineOf: @Sendable (SeriesKey) -> LineKey = { key in
      LineKey(
        version: key.version, group: key.group.map { kept[key.version]?.contains($0) == true ? $0 : GroupingKey.other })
    }
    for (key, part) in aggregate.series where windowStart.map({ key.start >= $0 }) ?? true {
      let line = lineOf(key)
      byLine[line, default: [:]][key.start, default: TrendCell(line: line, start: key.start)].add(part)
    }
    for (key, part) in aggregate.outlinedSeries where windowStart.map({ key.start >= $0 }) ?? true {
      let line = lineOf(key)
      byLine[line, default: [:]][key.start, default: TrendCell(line: line, start: key.start)].add(part)
    }
    let lines = byLine.keys.sorted { a, b in
      if a.version != b.version { return VersionOrder.precedes(a.version, b.version) }
      return (kept[a.version]?.firstIndex(of: a.group ?? "") ?? .max, a.group ?? "")
        < (kept[b.version]?.firstIndex(of: b.group ?? "") ?? .max, b.group ?? "")
    }
    let by = aggregate.grouping?.description
    // The points of every metric in each interval of each line (version and group), in order
    // (cell first[l] + i: line l, its interval i).
    let ordered = lines.map { line in byLine[line, default: [:]].sorted { $0.key < $1.key } }
    let metrics = subjects.compactMap { subject -> MetricID? in
      if case .metric(let metric) = subject { metric } else { nil }
    }
    let cells = ordered.flatMap { $0.map(\.value) }
    let first = ordered.reduce(into: [0]) { starts, parts in starts.append(starts.last! + parts.count) }
    let computed: (points: [[TrendPoint?]], failure: String?)
    if let source {
      var index: [LineKey: [CalendarDay: Int]] = [:]
      for (n, cell) in cells.enumerated() { index[cell.line, default: [:]][cell.start] = n }
      let cellIndex = index
      let groupPayloads = aggregate.groupPayloads
      computed = source.points(
        of: cells, metrics: metrics, options: options, kept: kept,
        cellOf: { key in
          // A key as read: its group as the whole aggregate folded it, then as the trend keeps it.
          let folded = key.group.map { group in
            group == GroupingKey.other || groupPayloads[VersionGroup(version: key.version, value: group)] != nil
              ? group : GroupingKey.other
          }
          return cellIndex[lineOf(SeriesKey(version: key.version, group: folded, start: key.start))]?[key.start]
        })
    } else {
      computed = Self.computedPoints(cells, metrics: metrics, options: options)
    }
    unreadableParts = computed.failure
    var m = 0
    for subject in subjects {
      guard case .metric = subject else {
        series += Self.adoptionSeries(lines, byLine, by: by, options: options)
        continue
      }
      for (l, line) in lines.enumerated() {
        let points = ordered[l].indices.compactMap { computed.points[first[l] + $0][m] }
        guard !points.isEmpty else { continue }
        series.append(
          TrendSeries(
            subject: subject, version: line.version, by: by.flatMap { key in line.group.map { (key, $0) } },
            points: points))
      }
      m += 1
    }
  }

  /// Per version, the groups kept (most payloads first, then by name), and `(other)` when some are not.
  private static func keptGroups(_ aggregate: DumpAggregate, top: Int) -> [String: [String]] {
    var sizes: [String: [String: Int]] = [:]
    for (key, part) in aggregate.series {
      guard let group = key.group else { continue }
      sizes[key.version, default: [:]][group, default: 0] += part.payloadCount
    }
    for (key, part) in aggregate.outlinedSeries {
      guard let group = key.group else { continue }
      sizes[key.version, default: [:]][group, default: 0] += part.payloadCount
    }
    return sizes.mapValues { groups in
      let ranked = GroupingKey.ranked(groups)
      return Array(ranked.prefix(max(0, top))) + (ranked.count > top ? [GroupingKey.other] : [])
    }
  }

  /// What `patterns` ask for, in order and once each: `payloads` (or `adoption`), identifiers as they
  /// are, prefixes ending in `*` expanded against the catalog and the signposts present.
  public static func subjects(matching patterns: [String], in aggregate: DumpAggregate) -> [TrendSubject] {
    let signposts = aggregate.seriesSignpostIDs.sorted { $0.rawValue < $1.rawValue }
    let known = MetricCatalog.fixed.map(\.id) + signposts
    var out: [TrendSubject] = []
    for pattern in patterns {
      let matches: [TrendSubject]
      if pattern.hasSuffix("*") {
        let prefix = pattern.dropLast()
        matches = known.filter { $0.rawValue.hasPrefix(prefix) }.map { .metric($0) }
      } else {
        matches = TrendSubject(parsing: pattern).map { [$0] } ?? []
      }
      for subject in matches where !out.contains(subject) { out.append(subject) }
    }
    return out
  }

  /// One metric's point of one interval; nil when the interval has no data for it.
  static func point(_ metric: MetricID, start: CalendarDay, _ part: VersionAggregate, _ options: TrendOptions)
    -> TrendPoint?
  {
    var point = TrendPoint(
      start: start, payloads: part.payloadCount, count: 0, sparse: part.payloadCount < options.minPayloads)
    switch metric.kind {
    case .histogram:
      guard let merged = part.histogram(metric), merged.sampleCount > 0 else { return nil }
      point.count = Int(clamping: merged.sampleCount)
    case .scalar, .counter:
      guard let sample = part.scalar(metric), sample.count > 0 else { return nil }
      point.count = sample.count
    case .rate:
      guard let rates = part.rate(metric), rates.pooledRate != nil else { return nil }
      point.count = rates.count
      point.estimate = try? RateEstimate(metric, of: part)
    case .diagnostic:
      return nil
    }
    // The point's statistics, computed as every pooled statistic is (all percentiles of a histogram
    // from one model of it); a rate has its one value.
    let statistics = metric.kind == .rate ? [.value] : options.statistics.filter { $0.isPlottable(for: metric.kind) }
    let pooled = PooledStatistics(
      part, requests: [metric: Set(statistics)], estimator: options.estimator, interpolation: options.interpolation)
    for statistic in statistics {
      guard let value = pooled[metric, statistic] else { continue }
      point.values.append((statistic, value.value))
      if let bounds = value.bounds { point.bounds.append((statistic, bounds.lowerBound, bounds.upperBound)) }
    }
    return point
  }

  /// Payloads per version and interval, and each version's share of the interval.
  private static func adoptionSeries(
    _ lines: [LineKey], _ byLine: [LineKey: [CalendarDay: TrendCell]], by: String?, options: TrendOptions
  ) -> [TrendSeries] {
    var totals: [CalendarDay: Int] = [:]
    for parts in byLine.values { for (start, part) in parts { totals[start, default: 0] += part.payloadCount } }
    return lines.compactMap { line in
      let points = byLine[line, default: [:]].sorted { $0.key < $1.key }.map { start, part in
        var point = TrendPoint(
          start: start, payloads: part.payloadCount, count: part.payloadCount,
          sparse: part.payloadCount < options.minPayloads)
        point.share = Double(part.payloadCount) / Double(max(1, totals[start] ?? 0))
        return point
      }
      guard !points.isEmpty else { return nil }
      return TrendSeries(
        subject: .adoption, version: line.version, by: by.flatMap { key in line.group.map { (key, $0) } },
        points: points)
    }
  }
}
