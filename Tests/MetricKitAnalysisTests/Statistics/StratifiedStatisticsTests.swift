import Foundation
import Testing

@testable import MetricKitAnalysis

/// The statistics of matched comparisons, against values computed by hand or by an independent
/// implementation (Python, ranks by sorting).
extension Array where Element == [Double] {
  /// The one inner array `n` times over, flattened.
  fileprivate func repeated(_ n: Int) -> [Double] { (0..<n).flatMap { _ in self[0] } }
}

@Suite("Stratified statistics")
struct StratifiedStatisticsTests {
  @Test func vanElterenWithOneStratumIsMannWhitney() throws {
    // The Mann–Whitney golden: U = 625.5, z = 2.6029070114, p = 0.00462185107949.
    let x: [Double] = Array([[400.0, 410, 410, 420, 430, 450, 450, 460, 480, 500]].repeated(3))
    let y: [Double] = Array([[410.0, 420, 430, 450, 460, 470, 480, 500, 520, 530]].repeated(3))
    let test = try VanElterenTest(strata: [(ScalarSample(x), ScalarSample(y))])
    #expect(abs(test.z - 2.6029070114) < 1e-9)
    #expect(abs(test.pValue - 0.00462185107949) < 1e-12)
    #expect(test.strata == 1)
  }

  @Test func vanElterenOverTwoStrataMatchesAnIndependentComputation() throws {
    // Python: mid-ranks by sorting each stratum, weights 1/(N+1), tie-corrected variances.
    let strata = [
      (ScalarSample([1, 2, 3, 4, 5]), ScalarSample([3, 4, 6, 7])),
      (ScalarSample([10, 10, 12, 15]), ScalarSample([11, 13, 14, 16, 17, 18])),
    ]
    let test = try VanElterenTest(strata: strata)
    #expect(abs(test.z - 2.260993395206852) < 1e-12)
    #expect(abs(test.pValue - 0.011879833029409674) < 1e-12)
    let smaller = try VanElterenTest(strata: strata, candidateLarger: false)
    #expect(abs(smaller.z + 2.260993395206852) < 1e-12)
    // A stratum lacking a version adds nothing.
    let padded = try VanElterenTest(strata: strata + [(ScalarSample([1, 2, 3]), ScalarSample())])
    #expect(padded.z == test.z && padded.strata == 2)
    #expect(throws: StatisticsError.self) { try VanElterenTest(strata: [(ScalarSample(), ScalarSample([1]))]) }
  }

  @Test func mantelHaenszelMatchesAnIndependentComputation() throws {
    // Python, from the formulas: RR, the conditional binomial Z, Greenland–Robins' interval.
    let test = try MantelHaenszelRateTest(strata: [(10, 100, 20, 120), (5, 200, 15, 150)])
    #expect(abs(test.ratio! - 2.324786324786325) < 1e-12)
    #expect(abs(test.z - 2.8656571153510018) < 1e-12)
    #expect(abs(test.pHigher - 0.0020807235668375865) < 1e-12)
    #expect(abs(test.changeInterval!.lowerBound - 0.28321138231002374) < 1e-9)
    #expect(abs(test.changeInterval!.upperBound - 3.211801368363914) < 1e-9)
    // Strata of one version only weigh nothing; no event at all is no test.
    let same = try MantelHaenszelRateTest(strata: [(10, 100, 20, 120), (5, 200, 15, 150), (9, 50, 0, 0)])
    #expect(same.z == test.z)
    #expect(throws: StatisticsError.self) { try MantelHaenszelRateTest(strata: [(0, 100, 0, 100)]) }
  }

  @Test func mixturePercentilesAndBracketsByHand() throws {
    // A quarter of the mix in [0, 10), three quarters in [10, 20): the mixture's CDF is 0.25 at 10,
    // then 0.25 + 0.75 (x − 10) / 10, so p50 = 10 + 10/3 and p10 = 4.
    let parts = [(0.25, Support.merged([(0, 10, 100)])), (0.75, Support.merged([(10, 20, 7)]))]
    let p50 = try PooledStatistics.mixturePercentiles(parts, [Percentile(50)!], interpolation: .uniform)[0]
    #expect(abs(p50.value - (10 + 10.0 / 3)) < 1e-9)
    #expect(p50.bounds == 10...20)
    let p10 = try PooledStatistics.mixturePercentiles(parts, [Percentile(10)!], interpolation: .uniform)[0]
    #expect(abs(p10.value - 4) < 1e-9)
    #expect(p10.bounds == 0...10)
    // Weights, not counts, decide: the same strata weighed the other way round.
    let swapped = try PooledStatistics.mixturePercentiles(
      [(0.75, Support.merged([(0, 10, 100)])), (0.25, Support.merged([(10, 20, 7)]))], [Percentile(50)!],
      interpolation: .uniform)[0]
    #expect(abs(swapped.value - 10.0 * 0.5 / 0.75) < 1e-9)
    // One stratum: the merged histogram's own percentile.
    let one = Support.merged([(0, 100, 50), (100, 400, 60), (400, 700, 30)])
    let alone = try PooledStatistics.mixturePercentiles([(1, one)], [Percentile(50)!], interpolation: .uniform)[0]
    #expect(abs(alone.value - 200) < 1e-9)
  }

  @Test func weightedPercentilesOfValues() {
    // Values of two strata, the second weighing three times the first: 1, 2 at 1/8 each; 10, 20 at 3/8.
    let parts = [(1.0, ScalarSample([1, 2])), (3.0, ScalarSample([10, 20]))]
    #expect(PooledStatistics.weightedPercentiles(parts, [Percentile(10)!])[0] == 1)
    #expect(PooledStatistics.weightedPercentiles(parts, [Percentile(25)!])[0] == 2)
    #expect(PooledStatistics.weightedPercentiles(parts, [Percentile(50)!])[0] == 10)
    #expect(PooledStatistics.weightedPercentiles(parts, [Percentile(90)!])[0] == 20)
  }

  @Test func weightedPercentilesOfInterleavedStrataAreThoseOfAllValuesSorted() {
    // Five strata whose values interleave and tie across strata, one held unordered, one a sketch:
    // every percentile is the one found by sorting all (value, mass) pairs together.
    var unordered = ScalarSample([30, 3, 17, 9, 3])
    unordered.append(12)
    let parts: [(Double, ScalarSample)] = [
      (2, ScalarSample([1, 4, 9, 16, 25]).ascending()), (1, unordered),
      (5, ScalarSample([2, 3, 5, 7, 11, 13, 17]).ascending()), (0.5, ScalarSample([0.5, 9, 40], exactLimit: 0)),
      (3, ScalarSample([9, 10, 11]).ascending()),
    ]
    let total = parts.reduce(0) { $0 + $1.0 }
    var pairs: [(value: Double, mass: Double)] = []
    for (w, sample) in parts {
      let n = Double(sample.count)
      if let values = sample.exactValues {
        pairs += values.map { ($0, w / total / n) }
      } else {
        pairs += sample.binned.bins.map { ($0.value, w / total * Double($0.count) / n) }
      }
    }
    pairs.sort { $0.value < $1.value }
    let percentiles = (1...99).map { Percentile(Double($0))! }
    let expected = percentiles.map { p -> Double in
      var cumulative = 0.0
      for pair in pairs {
        cumulative += pair.mass
        if cumulative >= p.probability * (1 - 1e-12) { return pair.value }
      }
      return pairs.last!.value
    }
    #expect(PooledStatistics.weightedPercentiles(parts, percentiles) == expected)
  }

  @Test func standardizedRatesWeighStrataAlike() throws {
    // Two strata, each with a rate of 1 in the baseline and 2 in the candidate: the standardized
    // ratio is 2 whatever the mix of either version.
    func sample(_ rate: Double, payloads: Int) -> RateSample {
      var s = RateSample()
      for i in 0..<payloads { s.append(numerator: rate * Double(1 + i % 3), denominator: Double(1 + i % 3)) }
      return s
    }
    let test = try PooledRateTest(standardized: [
      (weight: 0.9, baseline: sample(1, payloads: 50), candidate: sample(2, payloads: 5)),
      (weight: 0.1, baseline: sample(3, payloads: 5), candidate: sample(6, payloads: 50)),
    ])
    #expect(abs(test.ratio! - 2) < 1e-12)
  }
}
