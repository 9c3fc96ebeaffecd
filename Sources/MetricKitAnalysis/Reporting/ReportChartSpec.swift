/// What one trend chart of the `report` page draws: a metric and the statistic of its points.
public struct ReportChartSpec: Sendable, Hashable {
  /// The metric identifier.
  public var metric: String
  /// The statistic drawn (`p90`, `mean`); nil for rates, which have one value.
  public var statistic: TrendStatistic?

  /// A chart of `metric`'s `statistic` (ignored for rates).
  public init(metric: String, statistic: TrendStatistic? = nil) {
    self.metric = metric
    self.statistic = MetricCatalog.kind(of: metric) == .rate ? nil : statistic ?? Self.defaultStatistic(of: metric)
  }

  /// Parses `ID` or `ID@STAT` (`applicationLaunchMetrics.histogrammedTimeToFirstDraw@p50`,
  /// `signpost:net/fetch@mean`); without `@STAT` a percentile metric draws its p90 and a count its
  /// mean. Nil for an unknown metric or statistic.
  public init?(parsing text: String) {
    var metric = text
    var statistic: TrendStatistic?
    if let at = text.lastIndex(of: "@"), let parsed = TrendStatistic(parsing: String(text[text.index(after: at)...])) {
      metric = String(text[..<at])
      statistic = parsed
    }
    guard MetricCatalog.isKnown(metric), MetricCatalog.kind(of: metric) != .diagnostic else { return nil }
    self.init(metric: metric, statistic: statistic)
  }

  /// p90 for distributions; the mean for counts (exits per payload).
  static func defaultStatistic(of metric: String) -> TrendStatistic {
    MetricCatalog.unit(of: metric) == "count" ? .mean : .percentile(Percentile(90)!)
  }

  /// The charts drawn without `--metric`: launch p50 and p90, resume p90, hang rate, hang time p90,
  /// peak memory p90, scroll hitch rate, abnormal exits per payload.
  public static let defaults: [ReportChartSpec] = [
    .init(metric: "applicationLaunchMetrics.histogrammedTimeToFirstDraw", statistic: .percentile(Percentile(50)!)),
    .init(metric: "applicationLaunchMetrics.histogrammedTimeToFirstDraw", statistic: .percentile(Percentile(90)!)),
    .init(
      metric: "applicationLaunchMetrics.histogrammedApplicationResumeTime", statistic: .percentile(Percentile(90)!)),
    .init(metric: MetricCatalog.hangRate),
    .init(
      metric: "applicationResponsivenessMetrics.histogrammedApplicationHangTime",
      statistic: .percentile(Percentile(90)!)),
    .init(metric: "memoryMetrics.peakMemoryUsage", statistic: .percentile(Percentile(90)!)),
    .init(metric: MetricCatalog.scrollHitchRate),
    .init(metric: "applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount", statistic: .mean),
  ]

  /// The label of the statistic in points (`value` for rates).
  var statisticLabel: String { statistic?.description ?? "value" }

  /// A title a reader understands: `Launch time (first draw) p90`, `Hang rate`.
  public var title: String {
    let names: [String: String] = [
      "applicationLaunchMetrics.histogrammedTimeToFirstDraw": "Launch time (first draw)",
      "applicationLaunchMetrics.histogrammedApplicationResumeTime": "Resume time",
      "applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDraw": "Optimized launch time",
      "applicationLaunchMetrics.histogrammedExtendedLaunch": "Extended launch time",
      "applicationResponsivenessMetrics.histogrammedApplicationHangTime": "Hang time",
      "cellularConditionMetrics.histogrammedCellularConditionTime": "Cellular signal",
      "memoryMetrics.peakMemoryUsage": "Peak memory",
      MetricCatalog.hangRate: "Hang rate",
      MetricCatalog.scrollHitchRate: "Scroll hitch rate",
      "applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount": "Abnormal exits (foreground)",
    ]
    let name = names[metric] ?? metric.split(separator: ".").last.map(String.init) ?? metric
    switch statistic {
    case nil: return name
    case .mean?: return MetricCatalog.unit(of: metric) == "count" ? "\(name) per payload" : "\(name) mean"
    case .percentile(let p)?: return "\(name) \(p.label)"
    }
  }
}
