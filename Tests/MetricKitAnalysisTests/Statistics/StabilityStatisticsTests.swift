import Foundation
import Testing

@testable import MetricKitAnalysis

/// The stability rates' intervals and tests against hand-computed values: Garwood's exact Poisson
/// interval (published tables), its widening by the dispersion over device-days, Wilson's interval,
/// and the Mantel–Haenszel tests of terminations and of crash-free device-days.
@Suite("Stability statistics")
struct StabilityStatisticsTests {
  private func sample(_ pairs: [(Double, Double)]) -> RateSample {
    var s = RateSample()
    for (x, y) in pairs { s.append(numerator: x, denominator: y) }
    return s
  }

  private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-4) -> Bool { abs(a - b) <= tolerance }

  @Test func garwoodsIntervalIsTheTablesWhenCountsAreNotOverdispersed() throws {
    // Ten device-days of one termination each over 100 hours: no spread beyond Poisson's (φ = 1), 10
    // events over 1,000 hours. The exact 95% interval of a count of 10 is [4.7954, 18.3904].
    let estimate = try RateEstimate(sample(Array(repeating: (1, 0.1), count: 10)), counting: .events)
    #expect(estimate.value == 10 && estimate.events == 10 && estimate.exposure == 1000)
    #expect(estimate.dispersion == 1)
    #expect(close(estimate.interval.lowerBound, 4.7954) && close(estimate.interval.upperBound, 18.3904))
    // None over 1,000 hours: [0, χ²(0.975; 2) ÷ 2] = [0, 3.6889].
    let none = try RateEstimate(sample(Array(repeating: (0, 0.1), count: 10)), counting: .events)
    #expect(none.value == 0 && none.interval.lowerBound == 0 && close(none.interval.upperBound, 3.6889))
  }

  @Test func aCrashLoopWidensTheIntervalByItsDispersion() throws {
    // One device-day with 12 terminations, nine with none, 100 hours each: R = 12 per 1,000 h,
    // Σ(x − R y)² = 144 − 2·12·1.2 + 144·0.1 = 129.6, φ = 129.6 ÷ 12 × 10 ÷ 9 = 12. The interval is one
    // event's over 1,000 ÷ 12 hours: [χ²(0.025; 2) ÷ 2, χ²(0.975; 4) ÷ 2] × 12 = [0.30381, 66.8595].
    let estimate = try RateEstimate(sample([(12, 0.1)] + Array(repeating: (0, 0.1), count: 9)), counting: .events)
    #expect(close(estimate.dispersion, 12, 1e-9))
    #expect(close(estimate.interval.lowerBound, 0.30381) && close(estimate.interval.upperBound, 66.8595, 1e-3))
    // The same 12 events spread one a device-day over 12 device-days are Poisson's interval.
    let spread = try RateEstimate(sample(Array(repeating: (1, 1.0 / 12), count: 12)), counting: .events)
    #expect(spread.dispersion == 1 && spread.interval.upperBound < 21)
  }

  @Test func crashFreeDeviceDaysHaveWilsonsInterval() throws {
    // 95 crash-free device-days of 100: Wilson's 95% interval is [88.83%, 97.85%].
    let estimate = try RateEstimate(
      sample(Array(repeating: (100, 1), count: 95) + Array(repeating: (0, 1), count: 5)), counting: .eventFreeDays)
    #expect(close(estimate.value, 95, 1e-9) && estimate.events == 5 && estimate.exposure == 100)
    #expect(close(estimate.interval.lowerBound, 88.83, 0.01) && close(estimate.interval.upperBound, 97.85, 0.01))
    // All crash-free: the upper end is 100%, the lower 96.30% (1 − z² ÷ (n + z²)).
    let clean = try RateEstimate(sample(Array(repeating: (100, 1), count: 100)), counting: .eventFreeDays)
    #expect(clean.interval.upperBound == 100 && close(clean.interval.lowerBound, 96.30, 0.01))
  }

  @Test func aRateOfAmountsHasNoEventInterval() {
    #expect(throws: StatisticsError.self) { try RateEstimate(sample([(1.5, 2)]), counting: .amount) }
    #expect(throws: StatisticsError.self) { try RateEstimate(sample([(0, 0)]), counting: .events) }
  }

  @Test func theDispersionWidensMantelHaenszelByItsSquareRoot() throws {
    let strata = [(20, 1.0, 36, 1.0), (10, 2.0, 12, 2.5)]
    let plain = try MantelHaenszelRateTest(strata: strata)
    let dispersed = try MantelHaenszelRateTest(strata: strata, dispersion: 4)
    #expect(close(dispersed.z, plain.z / 2, 1e-12))
    #expect(dispersed.ratio == plain.ratio)
    let (p, d) = (try #require(plain.changeInterval), try #require(dispersed.changeInterval))
    // The interval's half-width on the log scale doubles.
    let ratio = try #require(plain.ratio)
    #expect(close(log(1 + d.upperBound) - log(ratio), 2 * (log(1 + p.upperBound) - log(ratio)), 1e-9))
    #expect(throws: StatisticsError.self) { try MantelHaenszelRateTest(strata: strata, dispersion: 0.5) }
  }

  @Test func crashFreeSharesAreComparedByCochranMantelHaenszel() throws {
    // One stratum: the difference is the difference of shares, its variance Wald's:
    // 0.90·0.10 ÷ 200 + 0.95·0.05 ÷ 100 = 0.00092500, half-width 1.959964 × 0.0304138 = 0.0596101.
    let one = try MantelHaenszelShareTest(strata: [(95, 100, 180, 200)])
    #expect(close(one.difference, -0.05, 1e-12))
    #expect(close(one.differenceInterval.lowerBound, -0.05 - 0.0596101, 1e-6))
    #expect(close(one.differenceInterval.upperBound, -0.05 + 0.0596101, 1e-6))
    // The conditional test: a = 180 of n₁ = 200, m = 275 of N = 300: E a = 183.333, Var a =
    // 100·200·275·25 ÷ (300²·299) = 5.10962, z = −3.33333 ÷ 2.26045 = −1.47464.
    #expect(close(one.z, -1.47464, 1e-4))
    #expect(close(one.pLower, 0.070158, 1e-4) && close(one.pHigher, 1 - one.pLower, 1e-12))
    // Two strata with the same difference in each: the common difference is that difference.
    let two = try MantelHaenszelShareTest(strata: [(95, 100, 90, 100), (490, 500, 240, 250)])
    #expect(close(two.difference, (-0.05 * 50 + (0.96 - 0.98) * 500.0 / 3) / (50 + 500.0 / 3), 1e-12))
    #expect(throws: StatisticsError.self) { try MantelHaenszelShareTest(strata: [(5, 5, 0, 0)]) }
  }
}
