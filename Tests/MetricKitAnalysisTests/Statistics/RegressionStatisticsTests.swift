import Testing

@testable import MetricKitAnalysis

/// Golden values of the gate's tests.
@Suite("Regression statistics")
struct RegressionStatisticsTests {
  @Test func mannWhitneyGoldenValues() throws {
    let xs: [Double] = [400, 410, 410, 420, 430, 450, 450, 460, 480, 500]
    let ys: [Double] = [410, 420, 430, 450, 460, 470, 480, 500, 520, 530]
    let x: [Double] = xs + xs + xs
    let y: [Double] = ys + ys + ys
    let test = try MannWhitneyTest(baseline: x, candidate: y)
    #expect(test.u == 625.5)
    #expect(abs(test.z - 2.6029070114) < 1e-9)
    #expect(abs(test.pValue - 0.00462185107949) < 1e-12)
    // The other direction: the candidate is not better.
    let better = try MannWhitneyTest(baseline: x, candidate: y, candidateLarger: false)
    #expect(better.u == 30 * 30 - 625.5)
    #expect(better.pValue > 0.99)
  }

  @Test func allTiedSamplesCarryNoEvidence() throws {
    let test = try MannWhitneyTest(baseline: [1, 1, 1], candidate: [1, 1])
    #expect(test.pValue == 1)
    #expect(throws: StatisticsError.empty) { try MannWhitneyTest(baseline: [], candidate: [1]) }
  }

  @Test func benjaminiHochbergGoldenValues() {
    let q = BenjaminiHochberg.adjust([0.005, 0.01, 0.03, 0.04])
    let expected = [0.02, 0.02, 0.04, 0.04]
    for (a, b) in zip(q, expected) { #expect(abs(a - b) < 1e-15) }
    // Input order is kept, and monotonicity enforced.
    let shuffled = BenjaminiHochberg.adjust([0.04, 0.005, 0.5])
    for (a, b) in zip(shuffled, [0.06, 0.015, 0.5]) { #expect(abs(a - b) < 1e-15) }
    #expect(BenjaminiHochberg.adjust([]) == [])
  }

  @Test func thresholdsNeedEveryConditionInTheBadDirection() throws {
    var rule = try RegressionRule(metric: MetricID.peakMemoryUsage, statistic: .mean, maxIncrease: 0.1)
    #expect(rule.worsened(from: 100, to: 111))
    #expect(!rule.worsened(from: 100, to: 110))
    rule.maxIncreaseAbsolute = 20
    #expect(!rule.worsened(from: 100, to: 115))
    #expect(rule.worsened(from: 100, to: 121))
    rule.polarity = .higherIsBetter
    #expect(rule.worsened(from: 100, to: 79))
    #expect(rule.improved(from: 100, to: 125))
    rule.budget = 90
    #expect(rule.breaksBudget(89) && !rule.breaksBudget(91))
  }
}
