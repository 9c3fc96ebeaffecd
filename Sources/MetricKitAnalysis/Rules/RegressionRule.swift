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
  /// The metric, e.g. ``MetricID/histogrammedTimeToFirstDraw``.
  public package(set) var metric: MetricID
  /// The statistic compared.
  public package(set) var statistic: Statistic
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
  /// The one group the rule compares (`where:` in a rule file); nil for every group, or the whole
  /// versions without `--by`.
  public package(set) var group: GroupFilter?

  /// Creates a rule, checked as a rule file's rule is. Without a statistic, the metric's usual one:
  /// p90 for histograms, the mean for scalar metrics and counters, the rate for rates and
  /// diagnostics; without a polarity, the metric's.
  /// - Throws: ``RuleValidationError`` naming the field and why.
  public init(
    metric: MetricID, statistic: Statistic? = nil, polarity: Polarity? = nil, maxIncrease: Double? = nil,
    maxIncreaseAbsolute: Double? = nil, budget: Double? = nil, severity: Severity = .error, minPayloads: Int = 20,
    minCount: Int = 3
  ) throws(RuleValidationError) {
    self.init(
      unchecked: metric, statistic: statistic ?? Self.defaultStatistic(metric.kind), polarity: polarity,
      maxIncrease: maxIncrease, maxIncreaseAbsolute: maxIncreaseAbsolute, budget: budget, severity: severity,
      minPayloads: minPayloads, minCount: minCount)
    try validate()
  }

  /// A rule known to be valid (the built-in set).
  init(
    unchecked metric: MetricID, statistic: Statistic, polarity: Polarity? = nil, maxIncrease: Double? = nil,
    maxIncreaseAbsolute: Double? = nil, budget: Double? = nil, severity: Severity = .error, minPayloads: Int = 20,
    minCount: Int = 3
  ) {
    self.metric = metric
    self.statistic = statistic
    self.polarity = polarity ?? metric.metric.polarity
    self.maxIncrease = maxIncrease
    self.maxIncreaseAbsolute = maxIncreaseAbsolute
    self.budget = budget
    self.severity = severity
    self.minPayloads = minPayloads
    self.minCount = minCount
  }

  /// The budget as a measurement in the metric's unit (nil without one, or for plain numbers).
  public var budgetMeasurement: Measurement<Dimension>? { metric.measurement(budget) }

  /// The absolute threshold as a measurement in the metric's unit.
  public var maxIncreaseAbsoluteMeasurement: Measurement<Dimension>? {
    metric.measurement(maxIncreaseAbsolute)
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
    let canonical = metric.metric.unit
    guard let unit = canonical.dimension, type(of: unit) == type(of: amount.unit as Dimension) else {
      throw RuleValidationError(
        field: field,
        message: "\(amount) is not in \(metric)'s unit (\(canonical.symbol))")
    }
    let base = amount.unit.converter.baseUnitValue(fromValue: amount.value)
    return unit.converter.value(fromBaseUnitValue: base)
  }

  /// The statistic a rule on a metric of this kind compares when none is named.
  static func defaultStatistic(_ kind: MetricKind) -> Statistic {
    switch kind {
    case .rate, .diagnostic: .rate
    case .scalar, .counter: .mean
    case .histogram: .percentile(Percentile(90)!)
    }
  }

  /// Checks the rule: the metric known, the statistic applicable, the thresholds sane.
  /// - Throws: ``RuleValidationError`` naming the first field that is wrong.
  public func validate() throws(RuleValidationError) {
    let kind = metric.kind
    guard statistic.isComparable(for: kind) else {
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
    if group != nil, kind == .diagnostic {
      throw RuleValidationError(
        field: "where", message: "diagnostics are not grouped: a diagnostic rule applies to the whole versions")
    }
  }

  /// The same rule, comparing only one group of each version.
  public func only(_ group: GroupFilter) throws(RuleValidationError) -> RegressionRule {
    var copy = self
    copy.group = group
    try copy.validate()
    return copy
  }

  private static func applicable(_ kind: MetricKind) -> String {
    switch kind {
    case .rate: "rates take: rate"
    case .histogram: "histograms take: mean, pNN"
    case .scalar, .counter: "scalar metrics take: mean, value, pNN"
    case .diagnostic: "diagnostics take: rate, newSignature"
    }
  }

  /// The unit of the statistic compared: the metric's canonical unit's symbol, or `signatures`.
  public var unit: String { statistic == .newSignature ? "signatures" : metric.metric.unit.symbol }

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
