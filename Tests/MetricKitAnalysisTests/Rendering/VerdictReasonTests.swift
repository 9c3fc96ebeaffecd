import Testing

@testable import MetricKitAnalysis

/// A verdict's reason: one q-value, the one the table shows, and where the test and the interval
/// disagree, which one the verdict follows.
@Suite("Verdict reasons")
struct VerdictReasonTests {
  static func result(verdict: Verdict, q: Double, qBetter: Double, interval: ClosedRange<Double>?) -> RuleResult {
    var result = RuleResult(
      rule: RegressionRule(
        unchecked: .histogrammedApplicationHangTime, statistic: .percentile(Percentile(90)!), maxIncrease: 0.10),
      baseline: 746, candidate: 1099, baselineBounds: nil, candidateBounds: nil, baselinePayloads: 56,
      candidatePayloads: 56, test: nil, qValue: q, improvementQValue: qBetter, verdict: verdict, budgetExceeded: nil)
    result.pValue = q
    result.changeInterval = interval
    return result
  }

  @Test func aRegressionWhoseIntervalHoldsNoChangeSaysWhichMethodItFollows() {
    let disagreeing = Self.result(verdict: .regression, q: 6e-7, qBetter: 1, interval: -0.005...0.26)
    let reason = VerdictReason.text(disagreeing, alpha: 0.05, decision: .significant)
    #expect(reason.hasPrefix("significant (q = 6e-07 < α 0.05) and +47.3% is past +10%"), "\(reason)")
    #expect(
      reason.contains(
        "the verdict follows the mann-whitney test: the 95% interval, a ratio of per-payload means, holds no change"),
      "\(reason)")
    let agreeing = Self.result(verdict: .regression, q: 6e-7, qBetter: 1, interval: 0.2...0.8)
    #expect(!VerdictReason.text(agreeing, alpha: 0.05, decision: .significant).contains("follows"))
  }

  @Test func theTableAndTheReasonShowTheSameQ() {
    // Unchanged, the improvement direction nearer significance: both show it.
    let unchanged = Self.result(verdict: .unchanged, q: 0.815, qBetter: 0.807, interval: -0.1...0.1)
    #expect(unchanged.decidingQValue == 0.807)
    #expect(ComparisonRenderer.decisiveQ(unchanged) == "0.807")
    #expect(
      VerdictReason.text(unchanged, alpha: 0.05, decision: .significant) == "not significant (q = 0.807 ≥ α 0.05)")
    let improvement = Self.result(verdict: .improvement, q: 0.99, qBetter: 0.001, interval: -0.3...(-0.1))
    #expect(ComparisonRenderer.decisiveQ(improvement) == "0.001")
  }
}
