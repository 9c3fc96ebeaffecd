import Foundation

/// What one rule found.
public struct RuleResult: Sendable {
  /// The rule.
  public var rule: RegressionRule
  /// The baseline's pooled statistic, in the metric's canonical unit (nil without data).
  public var baseline: Double?
  /// The candidate's pooled statistic.
  public var candidate: Double?
  /// The guaranteed brackets of histogram percentiles (baseline, candidate).
  public var baselineBounds: ClosedRange<Double>?
  /// The candidate's bracket.
  public var candidateBounds: ClosedRange<Double>?
  /// Payloads with a per-payload statistic, per side.
  public var baselinePayloads: Int
  /// The candidate's.
  public var candidatePayloads: Int
  /// The one-sided Mann–Whitney test that the candidate is worse (nil when not run, or for
  /// diagnostic rules).
  public var test: MannWhitneyTest?
  /// The test of a rate rule's pooled rate (nil for other rules).
  public var rateTest: PooledRateTest?
  /// Within strata: van Elteren's test of a per-payload rule (in place of ``test``).
  public var stratifiedTest: VanElterenTest?
  /// The Mantel–Haenszel test of a diagnostic rate within strata, or of a termination rate (within
  /// strata, or pooled as one stratum).
  public var stratifiedRateTest: MantelHaenszelRateTest?
  /// The Cochran–Mantel–Haenszel test of crash-free device-days (within strata, or pooled as one).
  public var shareTest: MantelHaenszelShareTest?
  /// The dispersion of a termination rate's events over device-days its test's variance was
  /// inflated by (1 for Poisson counts); nil for other rules.
  public var dispersion: Double?
  /// What matching did, when the versions were compared within strata; nil when pooled.
  public var matching: RuleMatching?
  /// The one-sided p-value that the candidate is worse, whichever test gave it.
  public var pValue: Double?
  /// The 95% confidence interval of the relative change ``change``: Hodges–Lehmann on the per-payload
  /// values for histogram and scalar rules, the pooled-rate interval for rate rules, the exact Poisson
  /// interval for diagnostic rates; nil where none applies.
  public var changeInterval: ClosedRange<Double>?
  /// `newSignature` rules: the candidate's new signatures, most frequent first.
  public var newSignatures: [DiagnosticAggregate.Group] = []
  /// For a stability rule with both versions' diagnostics: whether their crash reports moved as the
  /// rate did, and the signatures behind the move.
  public var crashEvidence: CrashEvidence?
  /// Its Benjamini–Hochberg q-value over every test of the run.
  public var qValue: Double?
  /// The q-value of the opposite one-sided test (the candidate is better), for improvements.
  public var improvementQValue: Double?
  /// The verdict.
  public var verdict: Verdict
  /// Whether the candidate breaks the rule's budget (nil when the rule has none or data is short).
  public var budgetExceeded: Bool?
  /// With `compare --by`, the group compared: the key (`deviceType`) and the group's value.
  public var by: (key: String, value: String)?

  /// The baseline's statistic as a measurement in the metric's unit (nil without data, or for a metric
  /// counted in plain numbers: exit counts, diagnostic rates).
  public var baselineMeasurement: Measurement<Dimension>? { rule.metric.measurement(baseline) }
  /// The candidate's.
  public var candidateMeasurement: Measurement<Dimension>? { rule.metric.measurement(candidate) }
  /// The baseline's bracket as measurements (histogram percentiles).
  public var baselineBracket: ClosedRange<Measurement<Dimension>>? { Self.bracket(baselineBounds, rule.metric) }
  /// The candidate's.
  public var candidateBracket: ClosedRange<Measurement<Dimension>>? { Self.bracket(candidateBounds, rule.metric) }

  private static func bracket(_ bounds: ClosedRange<Double>?, _ metric: MetricID) -> ClosedRange<
    Measurement<Dimension>
  >? {
    guard let bounds, let lower = metric.measurement(bounds.lowerBound),
      let upper = metric.measurement(bounds.upperBound)
    else { return nil }
    return lower...upper
  }

  /// (candidate − baseline) ÷ |baseline|; nil when the baseline is 0 or a side has no data.
  public var change: Double? {
    guard let baseline, let candidate, baseline != 0 else { return nil }
    return (candidate - baseline) / abs(baseline)
  }

  /// candidate − baseline.
  public var changeAbsolute: Double? {
    guard let baseline, let candidate else { return nil }
    return candidate - baseline
  }

  /// The test that gave ``pValue``: `mann-whitney`, `pooled-rate` or `poisson-exact`, or within
  /// strata `van-elteren`, `standardized-rate` or `mantel-haenszel`; for stability rates
  /// `mantel-haenszel` (terminations) or `cochran-mantel-haenszel` (crash-free device-days), pooled or
  /// within strata; nil when none ran.
  public var testName: String? {
    guard pValue != nil else { return nil }
    if shareTest != nil { return "cochran-mantel-haenszel" }
    if rule.metric.kind == .rate, stratifiedRateTest != nil { return "mantel-haenszel" }
    if matching != nil {
      if rule.metric.kind == .diagnostic { return "mantel-haenszel" }
      return rateTest != nil ? "standardized-rate" : "van-elteren"
    }
    if rule.metric.kind == .diagnostic { return "poisson-exact" }
    return rateTest != nil ? "pooled-rate" : "mann-whitney"
  }

  /// The one q-value a result is read by, the same in every format: the regression test's for a
  /// regression, the improvement test's for an improvement, and otherwise the smaller of the two (the
  /// direction nearest significance); nil when no test ran.
  public var decidingQValue: Double? {
    switch verdict {
    case .regression: qValue
    case .improvement: improvementQValue
    default: [qValue, improvementQValue].compactMap { $0 }.min()
    }
  }

  /// Whether this result fails the gate: an error-severity regression or broken budget.
  public var failsGate: Bool { failsGate(failingVerdicts: []) }

  /// Whether this result fails a gate that also fails on `failingVerdicts` (a rule file's
  /// `verdicts:`): an error-severity regression, broken budget, or one of those verdicts.
  public func failsGate(failingVerdicts: Set<Verdict>) -> Bool {
    rule.severity == .error
      && (verdict == .regression || budgetExceeded == true || failingVerdicts.contains(verdict))
  }
}
