/// Rules and the settings they share.
public struct RuleSet: Sendable, Hashable {
  /// The false-discovery rate: a rule regresses only when its Benjamini–Hochberg q-value is below it.
  public var alpha: Double
  /// The rules, in the order they are reported.
  public var rules: [RegressionRule]

  /// Creates a rule set.
  public init(alpha: Double = 0.05, rules: [RegressionRule]) {
    self.alpha = alpha
    self.rules = rules
  }

  /// The built-in rules: the metrics Xcode Organizer shows, with thresholds that keep the gate quiet
  /// on noise (calibrated: two samples of one distribution fail it in under 5% of runs) and catch a
  /// 10% regression in launch time at 200 payloads per version.
  public static let builtIn = RuleSet(
    alpha: 0.05,
    rules: [
      RegressionRule(
        metric: "applicationLaunchMetrics.histogrammedTimeToFirstDraw", statistic: .percentile(Percentile(50)!),
        maxIncrease: 0.05),
      RegressionRule(
        metric: "applicationLaunchMetrics.histogrammedTimeToFirstDraw", statistic: .percentile(Percentile(90)!),
        maxIncrease: 0.05),
      RegressionRule(
        metric: "applicationLaunchMetrics.histogrammedApplicationResumeTime",
        statistic: .percentile(Percentile(90)!), maxIncrease: 0.10, severity: .warning),
      RegressionRule(metric: MetricCatalog.hangRate, statistic: .rate, maxIncrease: 0.10),
      RegressionRule(
        metric: "applicationResponsivenessMetrics.histogrammedApplicationHangTime",
        statistic: .percentile(Percentile(90)!), maxIncrease: 0.10),
      RegressionRule(
        metric: "memoryMetrics.peakMemoryUsage", statistic: .percentile(Percentile(90)!), maxIncrease: 0.10,
        severity: .warning),
      RegressionRule(
        metric: "diskIOMetrics.cumulativeLogicalWrites", statistic: .percentile(Percentile(90)!), maxIncrease: 0.20,
        severity: .warning),
      RegressionRule(metric: MetricCatalog.scrollHitchRate, statistic: .rate, maxIncrease: 0.10, severity: .warning),
      RegressionRule(
        metric: "applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount", statistic: .mean,
        maxIncrease: 0.25, maxIncreaseAbsolute: 0.01),
      RegressionRule(metric: "diagnostics.crash", statistic: .rate, maxIncrease: 0.10),
      RegressionRule(metric: "diagnostics.crash", statistic: .newSignature, minCount: 3),
      RegressionRule(metric: "diagnostics.hang", statistic: .rate, maxIncrease: 0.25, severity: .warning),
    ])
}
