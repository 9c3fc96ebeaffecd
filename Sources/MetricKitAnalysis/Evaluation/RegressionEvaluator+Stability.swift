// Stability rates (terminations per 1,000 hours, crash-free device-days): tested as counts, not as
// ratios of amounts. Within strata or pooled (one stratum), terminations by Mantel–Haenszel's
// conditional test with the variance inflated by the events' dispersion over device-days, and
// crash-free device-days by Cochran–Mantel–Haenszel.
extension RegressionEvaluator {
  /// Runs a stability rule's test over `parts` (each stratum's two samples; one when pooled) into
  /// `result`: its test, p-value and the interval of its relative change, placed around the change
  /// reported. The one-sided p-values (worse, better); nil when no test could run.
  static func testStability(
    _ rule: RegressionRule, _ parts: [(baseline: RateSample, candidate: RateSample)], into result: inout RuleResult
  ) -> (worse: Double, better: Double)? {
    let lowerIsBetter = rule.polarity == .lowerIsBetter
    switch rule.metric.metric.counting {
    case .events:
      let dispersion = EventDispersion.of(parts.flatMap { [$0.baseline, $0.candidate] })
      guard
        let test = try? MantelHaenszelRateTest(
          strata: parts.map {
            (
              Int($0.baseline.numeratorSum.value.rounded()), $0.baseline.denominatorSum.value,
              Int($0.candidate.numeratorSum.value.rounded()), $0.candidate.denominatorSum.value
            )
          }, dispersion: dispersion)
      else { return nil }
      let (worse, better) = lowerIsBetter ? (test.pHigher, test.pLower) : (test.pLower, test.pHigher)
      result.stratifiedRateTest = test
      result.dispersion = dispersion
      result.pValue = worse
      result.changeInterval = placed(
        test.changeInterval, estimate: test.ratio.map { $0 - 1 }, around: result.change, multiplicative: true)
      return (worse, better)
    case .eventFreeDays:
      // Each device-day is 100 (event-free) or 0 over 1: Σx ÷ 100 event-free days of Σy.
      guard
        let test = try? MantelHaenszelShareTest(
          strata: parts.map {
            (
              $0.baseline.numeratorSum.value / 100, $0.baseline.denominatorSum.value,
              $0.candidate.numeratorSum.value / 100, $0.candidate.denominatorSum.value
            )
          })
      else { return nil }
      let (worse, better) = lowerIsBetter ? (test.pHigher, test.pLower) : (test.pLower, test.pHigher)
      result.shareTest = test
      result.pValue = worse
      // The difference is in shares; the change reported is relative to the baseline's percent.
      if let baseline = result.baseline, baseline > 0 {
        let relative = { (d: Double) in 100 * d / baseline }
        result.changeInterval = placed(
          relative(test.differenceInterval.lowerBound)...relative(test.differenceInterval.upperBound),
          estimate: relative(test.difference), around: result.change, multiplicative: false)
      }
      return (worse, better)
    case .amount, nil:
      return nil
    }
  }

  /// Whether a rule is on a stability rate, tested as counts.
  static func isStability(_ rule: RegressionRule) -> Bool {
    switch rule.metric.metric.counting {
    case .events, .eventFreeDays: true
    case .amount, nil: false
    }
  }
}
