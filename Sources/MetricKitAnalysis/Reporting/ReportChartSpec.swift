/// What one trend chart of the `report` page draws: a metric and the statistic of its points.
public struct ReportChartSpec: Sendable, Hashable {
  /// The metric.
  public var metric: MetricID
  /// The statistic drawn: the mean or a percentile of a distribution, the value of a rate.
  public var statistic: Statistic

  /// A chart of `metric`'s `statistic`; without one (and always for rates, which have one value), the
  /// metric's usual statistic: p90 for distributions, the mean for counters, the value of a rate.
  public init(metric: MetricID, statistic: Statistic? = nil) {
    self.metric = metric
    let kind = metric.kind
    self.statistic = kind == .rate ? .value : statistic ?? Self.defaultStatistic(of: kind)
  }

  /// Parses `ID` or `ID@STAT` (`applicationLaunchMetrics.histogrammedTimeToFirstDraw@p50`,
  /// `signpost:net/fetch@mean`); without `@STAT` a distribution draws its p90 and a counter its
  /// mean. Nil for an unknown metric, a diagnostic, or a statistic that cannot be drawn.
  public init?(parsing text: String) {
    var metric = text
    var statistic: Statistic?
    if let at = text.lastIndex(of: "@"), let parsed = Statistic(parsing: String(text[text.index(after: at)...])),
      parsed == .mean || parsed.percentile != nil
    {
      metric = String(text[..<at])
      statistic = parsed
    }
    guard let id = MetricCatalog.id(metric), id.kind != .diagnostic else { return nil }
    self.init(metric: id, statistic: statistic)
  }

  /// p90 for distributions; the mean for counters (exits per payload).
  static func defaultStatistic(of kind: MetricKind) -> Statistic {
    kind == .counter ? .mean : .percentile(Percentile(90)!)
  }

  /// The charts drawn without `--metric`: launch p50 and p90, resume p90, hang rate, hang time p90,
  /// peak memory p90, scroll hitch rate, crash-free device-days and the termination rate.
  public static let defaults: [ReportChartSpec] = [
    .init(metric: .histogrammedTimeToFirstDraw, statistic: .percentile(Percentile(50)!)),
    .init(metric: .histogrammedTimeToFirstDraw, statistic: .percentile(Percentile(90)!)),
    .init(metric: .histogrammedApplicationResumeTime, statistic: .percentile(Percentile(90)!)),
    .init(metric: .hangRate),
    .init(metric: .histogrammedApplicationHangTime, statistic: .percentile(Percentile(90)!)),
    .init(metric: .peakMemoryUsage, statistic: .percentile(Percentile(90)!)),
    .init(metric: .scrollHitchRate),
    .init(metric: .crashFreeDeviceDays),
    .init(metric: .terminationRate),
  ]

  /// A title a reader understands: `Launch time (first draw) p90`, `Hang rate`.
  public var title: String {
    let entry = metric.metric
    switch statistic {
    case .mean: return entry.kind == .counter ? "\(entry.title) per payload" : "\(entry.title) mean"
    case .percentile(let p): return "\(entry.title) \(p.label)"
    default: return entry.title
    }
  }
}
