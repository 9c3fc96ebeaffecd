/// One regression rule: a metric's statistic, which way is better, how much worse the candidate may
/// get, an absolute budget, and what a breach means.
public struct RegressionRule: Sendable, Hashable {
  /// The metric identifier (SPEC §2), e.g. `applicationLaunchMetrics.histogrammedTimeToFirstDraw`.
  public var metric: String
  /// The statistic compared.
  public var statistic: RuleStatistic
  /// Which direction is better.
  public var polarity: Polarity
  /// The largest relative worsening tolerated (0.1 for `"10%"`); nil for no relative threshold.
  public var maxIncrease: Double?
  /// The largest absolute worsening tolerated, in the metric's canonical unit; nil for none.
  public var maxIncreaseAbsolute: Double?
  /// An absolute ceiling (a floor for higher-is-better) on the candidate's statistic, in the
  /// metric's canonical unit; nil for none.
  public var budget: Double?
  /// What a breach does to the gate.
  public var severity: Severity
  /// Fewer payloads than this on either side gives `insufficient-data`.
  public var minPayloads: Int
  /// `newSignature` rules: how many occurrences in the candidate make a new signature count.
  public var minCount: Int

  /// Creates a rule.
  public init(
    metric: String, statistic: RuleStatistic, polarity: Polarity = .lowerIsBetter, maxIncrease: Double? = nil,
    maxIncreaseAbsolute: Double? = nil, budget: Double? = nil, severity: Severity = .error, minPayloads: Int = 20,
    minCount: Int = 3
  ) {
    self.metric = metric
    self.statistic = statistic
    self.polarity = polarity
    self.maxIncrease = maxIncrease
    self.maxIncreaseAbsolute = maxIncreaseAbsolute
    self.budget = budget
    self.severity = severity
    self.minPayloads = minPayloads
    self.minCount = minCount
  }

  /// The metric's canonical unit.
  public var unit: String { statistic == .newSignature ? "signatures" : MetricCatalog.unit(of: metric) ?? "" }

  /// Whether a move from `baseline` to `candidate` passes every threshold in the bad direction.
  func worsened(from baseline: Double, to candidate: Double) -> Bool {
    let worsening = polarity == .lowerIsBetter ? candidate - baseline : baseline - candidate
    return passes(worsening, baseline: baseline)
  }

  /// Whether it passes every threshold in the good direction.
  func improved(from baseline: Double, to candidate: Double) -> Bool {
    let betterment = polarity == .lowerIsBetter ? baseline - candidate : candidate - baseline
    return passes(betterment, baseline: baseline)
  }

  private func passes(_ move: Double, baseline: Double) -> Bool {
    guard move > 0 else { return false }
    if let maxIncrease {
      if baseline != 0 {
        guard move / abs(baseline) > maxIncrease else { return false }
      }
    }
    if let maxIncreaseAbsolute, move <= maxIncreaseAbsolute { return false }
    return true
  }

  /// Whether the candidate's statistic breaks the budget.
  func breaksBudget(_ candidate: Double) -> Bool {
    guard let budget else { return false }
    return polarity == .lowerIsBetter ? candidate > budget : candidate < budget
  }
}
