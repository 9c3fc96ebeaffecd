import Foundation

/// One regression rule: a metric's statistic, which way is better, how much worse the candidate may
/// get, an absolute budget, and what a breach means.
///
/// A rule is checked where it is made, in code exactly as in a rule file: the metric must be known,
/// the statistic must apply to it, and thresholds must be sane (a relative threshold is a fraction,
/// `0.05` for +5%, in (0, 10]).
///
/// ```swift
/// let rule = try RegressionRule(metric: .histogrammedTimeToFirstDraw, statistic: .percentile(Percentile(90)!),
///                               maxIncrease: 0.05)
/// ```
public struct RegressionRule: Sendable, Hashable {
  /// The metric identifier (SPEC §2), e.g. `applicationLaunchMetrics.histogrammedTimeToFirstDraw`.
  public package(set) var metric: String
  /// The statistic compared.
  public package(set) var statistic: RuleStatistic
  /// Which direction is better.
  public package(set) var polarity: Polarity
  /// The largest relative worsening tolerated (0.1 for `"10%"`); nil for no relative threshold.
  public package(set) var maxIncrease: Double?
  /// The largest absolute worsening tolerated, in the metric's canonical unit; nil for none.
  public package(set) var maxIncreaseAbsolute: Double?
  /// An absolute ceiling (a floor for higher-is-better) on the candidate's statistic, in the
  /// metric's canonical unit; nil for none.
  public package(set) var budget: Double?
  /// What a breach does to the gate.
  public package(set) var severity: Severity
  /// Fewer payloads than this on either side gives `insufficient-data`.
  public package(set) var minPayloads: Int
  /// `newSignature` rules: how many occurrences in the candidate make a new signature count.
  public package(set) var minCount: Int

  /// Creates a rule, checked as a rule file's rule is. Without a statistic, the metric's usual one:
  /// p90 for histograms, the mean for scalar metrics, the rate for rates and diagnostics.
  /// - Throws: ``RuleValidationError`` naming the field and why.
  public init(
    metric: String, statistic: RuleStatistic? = nil, polarity: Polarity = .lowerIsBetter, maxIncrease: Double? = nil,
    maxIncreaseAbsolute: Double? = nil, budget: Double? = nil, severity: Severity = .error, minPayloads: Int = 20,
    minCount: Int = 3
  ) throws(RuleValidationError) {
    let id = try MetricID(metric)
    self.init(
      unchecked: metric, statistic: statistic ?? Self.defaultStatistic(id.kind), polarity: polarity,
      maxIncrease: maxIncrease, maxIncreaseAbsolute: maxIncreaseAbsolute, budget: budget, severity: severity,
      minPayloads: minPayloads, minCount: minCount)
    try validate()
  }

  /// Creates a rule for a metric of the catalog.
  /// - Throws: ``RuleValidationError`` naming the field and why.
  public init(
    metric: MetricID, statistic: RuleStatistic? = nil, polarity: Polarity = .lowerIsBetter, maxIncrease: Double? = nil,
    maxIncreaseAbsolute: Double? = nil, budget: Double? = nil, severity: Severity = .error, minPayloads: Int = 20,
    minCount: Int = 3
  ) throws(RuleValidationError) {
    try self.init(
      metric: metric.rawValue, statistic: statistic, polarity: polarity, maxIncrease: maxIncrease,
      maxIncreaseAbsolute: maxIncreaseAbsolute, budget: budget, severity: severity, minPayloads: minPayloads,
      minCount: minCount)
  }

  /// A rule known to be valid (the built-in set).
  init(
    unchecked metric: String, statistic: RuleStatistic, polarity: Polarity = .lowerIsBetter, maxIncrease: Double? = nil,
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

  /// The budget as a measurement in the metric's unit (nil without one, or for plain numbers).
  public var budgetMeasurement: Measurement<Dimension>? { RuleResult.measurement(budget, metric) }

  /// The absolute threshold as a measurement in the metric's unit.
  public var maxIncreaseAbsoluteMeasurement: Measurement<Dimension>? {
    RuleResult.measurement(maxIncreaseAbsolute, metric)
  }

  /// The rule with a budget given in any unit of the metric's dimension (`250 ms`, `0.4 s`).
  /// - Throws: ``RuleValidationError`` when the unit is not the metric's kind of unit.
  public func budget<U: Dimension>(_ amount: Measurement<U>) throws(RuleValidationError) -> RegressionRule {
    var copy = self
    copy.budget = try canonical(amount, field: "budget")
    try copy.validate()
    return copy
  }

  /// The rule with an absolute threshold given in any unit of the metric's dimension.
  /// - Throws: ``RuleValidationError`` when the unit is not the metric's kind of unit.
  public func maxIncrease<U: Dimension>(absolute amount: Measurement<U>) throws(RuleValidationError) -> RegressionRule {
    var copy = self
    copy.maxIncreaseAbsolute = try canonical(amount, field: "maxIncreaseAbsolute")
    try copy.validate()
    return copy
  }

  private func canonical<U: Dimension>(_ amount: Measurement<U>, field: String) throws(RuleValidationError) -> Double {
    guard let unit = MetricCatalog.dimension(of: metric), type(of: unit) == type(of: amount.unit as Dimension) else {
      throw RuleValidationError(
        field: field,
        message: "\(amount) is not in \(metric)'s unit (\(MetricCatalog.unit(of: metric) ?? "a plain number"))")
    }
    let base = amount.unit.converter.baseUnitValue(fromValue: amount.value)
    return unit.converter.value(fromBaseUnitValue: base)
  }

  /// The statistic a rule on a metric of this kind compares when none is named.
  static func defaultStatistic(_ kind: MetricCatalog.Kind) -> RuleStatistic {
    switch kind {
    case .rate, .diagnostic: .rate
    case .scalar: .mean
    case .histogram: .percentile(Percentile(90)!)
    }
  }

  /// Checks the rule: the metric known, the statistic applicable, the thresholds sane.
  /// - Throws: ``RuleValidationError`` naming the first field that is wrong.
  public func validate() throws(RuleValidationError) {
    let kind = try MetricID(metric).kind
    switch (kind, statistic) {
    case (.rate, .rate), (.histogram, .mean), (.histogram, .percentile), (.scalar, .mean), (.scalar, .value),
      (.scalar, .percentile), (.diagnostic, .rate), (.diagnostic, .newSignature):
      break
    default:
      throw RuleValidationError(
        field: "statistic", message: "'\(statistic)' does not apply to \(metric) (\(Self.applicable(kind)))")
    }
    if let maxIncrease, !(maxIncrease > 0 && maxIncrease <= 10) {
      throw RuleValidationError(
        field: "maxIncrease",
        message: "\(maxIncrease) is outside (0, 10]: a relative threshold is a fraction, 0.05 for +5% "
          + "(\(maxIncrease) would mean +\(RuleQuantity.percentText(maxIncrease)))")
    }
    if let maxIncreaseAbsolute, !(maxIncreaseAbsolute > 0 && maxIncreaseAbsolute.isFinite) {
      throw RuleValidationError(
        field: "maxIncreaseAbsolute", message: "\(maxIncreaseAbsolute) is not a positive amount")
    }
    if let budget, !budget.isFinite {
      throw RuleValidationError(field: "budget", message: "\(budget) is not a finite amount")
    }
    if minPayloads < 2 { throw RuleValidationError(field: "minPayloads", message: "\(minPayloads) is below 2") }
    if minCount < 1 { throw RuleValidationError(field: "minCount", message: "\(minCount) is below 1") }
  }

  private static func applicable(_ kind: MetricCatalog.Kind) -> String {
    switch kind {
    case .rate: "rates take: rate"
    case .histogram: "histograms take: mean, pNN"
    case .scalar: "scalar metrics take: mean, value, pNN"
    case .diagnostic: "diagnostics take: rate, newSignature"
    }
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
