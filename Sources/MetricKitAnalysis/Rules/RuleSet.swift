/// Rules and the settings they share.
public struct RuleSet: Sendable, Hashable {
  /// The false-discovery rate: a rule regresses only when its Benjamini–Hochberg q-value is below it.
  public package(set) var alpha: Double
  /// The rules, in the order they are reported.
  public package(set) var rules: [RegressionRule]
  /// What Apple's own regression insights for the candidate do to the gate (`compare --organizer`):
  /// nil lists them for information; ``Severity/error`` fails the gate on any of them.
  public var organizerRegressions: Severity?
  /// Whether an error rule whose data cannot tell (its interval reaches past the thresholds both
  /// ways) fails the gate (`verdicts: {inconclusive: fail}` in a rule file); by default it is
  /// reported, not failed.
  public var failsOnInconclusive = false
  /// Whether an error rule with too few payloads, or too little matched, fails the gate (`verdicts:
  /// {insufficientData: fail}`); by default it is reported (and a gate where no error rule had data
  /// enough cannot be evaluated).
  public var failsOnInsufficientData = false

  /// Creates a rule set of checked rules.
  /// - Throws: ``RuleValidationError`` when alpha is not in (0, 1) or there is no rule (a gate without
  ///   rules always passes: a mistake, not a configuration).
  public init(alpha: Double = 0.05, rules: [RegressionRule]) throws(RuleValidationError) {
    guard alpha > 0 && alpha < 1 else {
      throw RuleValidationError(field: "alpha", message: "\(alpha) is not between 0 and 1")
    }
    guard !rules.isEmpty else { throw RuleValidationError(field: "rules", message: "no rules") }
    for rule in rules { try rule.validate() }
    self.init(unchecked: alpha, rules: rules)
  }

  /// A rule set known to be valid.
  init(unchecked alpha: Double, rules: [RegressionRule]) {
    self.alpha = alpha
    self.rules = rules
  }

  /// Sets the false-discovery rate.
  /// - Throws: ``RuleValidationError`` when it is not in (0, 1).
  public mutating func setAlpha(_ alpha: Double) throws(RuleValidationError) {
    guard alpha > 0 && alpha < 1 else {
      throw RuleValidationError(field: "alpha", message: "\(alpha) is not between 0 and 1")
    }
    self.alpha = alpha
  }

  /// The built-in rules: the metrics Xcode Organizer shows, with thresholds that keep the gate quiet
  /// on noise (calibrated: two samples of one distribution fail it in under 5% of runs) and catch a
  /// 10% regression in launch time at 200 payloads per version.
  public static let builtIn = RuleSet(
    unchecked: 0.05,
    rules: [
      RegressionRule(
        unchecked: .histogrammedTimeToFirstDraw, statistic: .percentile(Percentile(50)!),
        maxIncrease: 0.05),
      RegressionRule(
        unchecked: .histogrammedTimeToFirstDraw, statistic: .percentile(Percentile(90)!),
        maxIncrease: 0.05),
      RegressionRule(
        unchecked: .histogrammedApplicationResumeTime,
        statistic: .percentile(Percentile(90)!), maxIncrease: 0.10, severity: .warning),
      RegressionRule(unchecked: .hangRate, statistic: .rate, maxIncrease: 0.10),
      RegressionRule(
        unchecked: .histogrammedApplicationHangTime,
        statistic: .percentile(Percentile(90)!), maxIncrease: 0.10),
      RegressionRule(
        unchecked: .peakMemoryUsage, statistic: .percentile(Percentile(90)!), maxIncrease: 0.10,
        severity: .warning),
      RegressionRule(
        unchecked: .cumulativeLogicalWrites, statistic: .percentile(Percentile(90)!), maxIncrease: 0.20,
        severity: .warning),
      RegressionRule(unchecked: .scrollHitchRate, statistic: .rate, maxIncrease: 0.10, severity: .warning),
      // Stability: crash-class terminations per 1,000 foreground hours (a rise past 10% and 0.1 per
      // 1,000 hours: one more crash in 10,000 hours of use), and crash-free device-days (a fall of
      // 0.1 percentage point).
      RegressionRule(unchecked: .terminationRate, statistic: .rate, maxIncrease: 0.10, maxIncreaseAbsolute: 0.1),
      RegressionRule(unchecked: .crashFreeDeviceDays, statistic: .rate, maxIncreaseAbsolute: 0.1),
      RegressionRule(unchecked: .diagnostics(.crash), statistic: .rate, maxIncrease: 0.10),
      RegressionRule(unchecked: .diagnostics(.crash), statistic: .newSignature, minCount: 3),
      RegressionRule(unchecked: .diagnostics(.hang), statistic: .rate, maxIncrease: 0.25, severity: .warning),
    ])
}
