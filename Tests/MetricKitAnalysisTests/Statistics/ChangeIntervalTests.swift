import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The 95% intervals of a rule's change: computed as their definitions say (checked against brute
/// force), and covering the true change in 95% of seeded runs where the truth is known.
@Suite("Change intervals")
struct ChangeIntervalTests {
  static func poisson(_ lambda: Double, _ rng: inout SplitMix64) -> Int {
    let limit = exp(-lambda)
    var k = 0
    var product = rng.unit()
    while product > limit {
      k += 1
      product *= rng.unit()
    }
    return k
  }

  @Test func hodgesLehmannBoundsAreTheRankedPairwiseDifferences() throws {
    // Brute force: every pairwise difference of logs, sorted; the bounds are the k-th smallest and
    // k-th largest with k = ⌊n₁n₂/2 − 1.96·σ_U⌋ (no ties here).
    var rng = SplitMix64(seed: 4)
    let b = (0..<37).map { _ in rng.logNormal(median: 400, sigma: 0.3) }
    let c = (0..<29).map { _ in rng.logNormal(median: 440, sigma: 0.3) }
    let differences = c.flatMap { y in b.map { x in log(y) - log(x) } }.sorted()
    let (n1, n2) = (37.0, 29.0)
    let sigma = (n1 * n2 * (n1 + n2 + 1) / 12).squareRoot()
    let k = Int((n1 * n2 / 2 - 1.959963984540054 * sigma).rounded(.down))
    let interval = try HodgesLehmannInterval(baseline: ScalarSample(b), candidate: ScalarSample(c))
    #expect(interval.logarithmic)
    #expect(abs(interval.shift.lowerBound - differences[k - 1]) <= 1e-12)
    #expect(abs(interval.shift.upperBound - differences[differences.count - k]) <= 1e-12)
    // With a zero the scale is absolute, and the relative interval is over the reference.
    let absolute = try HodgesLehmannInterval(
      baseline: ScalarSample([0, 1, 2, 3]), candidate: ScalarSample([1, 2, 3, 4]))
    #expect(!absolute.logarithmic)
    #expect(absolute.relativeChange(reference: 2).map { $0.lowerBound * 2 == absolute.shift.lowerBound } == true)
    #expect(absolute.relativeChange(reference: 0) == nil)
  }

  /// The k-th smallest weighted difference, against brute force over every pair (each weighted pair
  /// repeated by its count): every k on small samples with ties (listed at once), and on samples
  /// large enough that bisection narrows first, the ranks the interval reads plus a spread of others,
  /// with runs of equal differences among them.
  @Test func orderedDifferenceIsTheRankedWeightedDifference() {
    func bruteForce(_ b: [(value: Double, count: Int)], _ c: [(value: Double, count: Int)]) -> [Double] {
      var all: [Double] = []
      for y in c {
        for x in b { all += repeatElement(y.value - x.value, count: y.count * x.count) }
      }
      return all.sorted()
    }
    var rng = SplitMix64(seed: 16)
    let small: [(value: Double, count: Int)] = [(1, 3), (2, 1), (4, 2), (7, 5)]
    let other: [(value: Double, count: Int)] = [(0, 2), (2, 4), (3, 1), (9, 1)]
    let smallDifferences = bruteForce(small, other)
    for k in 1...smallDifferences.count {
      #expect(HodgesLehmannInterval.orderedDifference(Double(k), small, other) == smallDifferences[k - 1], "k = \(k)")
    }
    // Values on a grid of 1/8 (many equal differences) and continuous ones, 300 and 260 entries.
    func sample(_ n: Int, grid: Bool) -> [(value: Double, count: Int)] {
      let values = (0..<n).map { _ in
        let x = rng.logNormal(median: 400, sigma: 0.4)
        return grid ? (x * 8).rounded() / 8 : x
      }
      return Set(values).sorted().map { ($0, 1 + Int(rng.unit() * 3)) }
    }
    for grid in [true, false] {
      let b = sample(300, grid: grid)
      let c = sample(260, grid: grid)
      let differences = bruteForce(b, c)
      let n = differences.count
      let ranks =
        [1, 2, n / 40, n / 2, n / 2 + 1, n - n / 40, n - 1, n]
        + (0..<40).map { _ in 1 + Int(rng.unit() * Double(n - 1)) }
      for k in ranks {
        #expect(
          HodgesLehmannInterval.orderedDifference(Double(k), b, c) == differences[k - 1], "grid \(grid), k = \(k)")
      }
    }
  }

  /// How often, in 400 seeded runs, the interval of a 5% multiplicative shift of log-normal
  /// per-payload values (`n` a side) covers +5%.
  static func coverageOfAFivePercentShift(
    n: Int, median: Double, sigma: Double, seed: UInt64,
    interval: (ScalarSample, ScalarSample) throws -> ClosedRange<Double>?
  ) throws -> Double {
    var rng = SplitMix64(seed: seed)
    var covered = 0
    for _ in 0..<400 {
      let b = (0..<n).map { _ in rng.logNormal(median: median, sigma: sigma) }
      let c = (0..<n).map { _ in rng.logNormal(median: median, sigma: sigma) * 1.05 }
      if try #require(try interval(ScalarSample(b), ScalarSample(c))).contains(0.05) { covered += 1 }
    }
    return Double(covered) / 400
  }

  @Test func hodgesLehmannIntervalCoversAFivePercentShift() throws {
    let coverage = try Self.coverageOfAFivePercentShift(n: 150, median: 420, sigma: 0.35, seed: 8) {
      try HodgesLehmannInterval(baseline: $0, candidate: $1).relativeChange(reference: 1)
    }
    print("Hodges–Lehmann: covered a 5% shift in \(coverage * 100)% of 400 runs")
    #expect((0.925...0.975).contains(coverage))
  }

  @Test func sketchedSamplesGiveNearlyTheSameInterval() throws {
    var rng = SplitMix64(seed: 9)
    let b = (0..<3000).map { _ in rng.logNormal(median: 420, sigma: 0.35) }
    let c = (0..<3000).map { _ in rng.logNormal(median: 440, sigma: 0.35) }
    let exact = try HodgesLehmannInterval(baseline: ScalarSample(b), candidate: ScalarSample(c))
    let sketched = try HodgesLehmannInterval(
      baseline: ScalarSample(b, exactLimit: 0), candidate: ScalarSample(c, exactLimit: 0))
    // Buckets are 2% wide on the log scale: the bounds move by at most one bucket.
    #expect(abs(sketched.shift.lowerBound - exact.shift.lowerBound) <= 0.02)
    #expect(abs(sketched.shift.upperBound - exact.shift.upperBound) <= 0.02)
  }

  @Test func meanRatioIntervalCoversAFivePercentShift() throws {
    let coverage = try Self.coverageOfAFivePercentShift(n: 200, median: 180, sigma: 0.2, seed: 10) {
      try PooledRateTest(baselineValues: $0, candidateValues: $1).changeInterval
    }
    print("Ratio of means: covered a 5% shift in \(coverage * 100)% of 400 runs")
    #expect((0.925...0.975).contains(coverage))
  }

  /// Payloads with 5 min to 2 h of foreground time and hangs arriving at `perHour` an hour, each
  /// lasting a log-normal time around 0.4 s: the expected rate is perHour × E[duration].
  static func hangPayloads(_ n: Int, perHour: Double, rng: inout SplitMix64) -> RateSample {
    var sample = RateSample()
    for _ in 0..<n {
      let hours = (300 + rng.unit() * 7200) / 3600
      let hangs = poisson(perHour * hours, &rng)
      let seconds = (0..<hangs).reduce(0.0) { total, _ in total + rng.logNormal(median: 0.4, sigma: 0.6) }
      sample.append(numerator: seconds, denominator: hours)
    }
    return sample
  }

  @Test func pooledRateIntervalCoversATwentyTwoPercentIncrease() throws {
    var rng = SplitMix64(seed: 12)
    let runs = 400
    var covered = 0
    var rejected = 0
    for _ in 0..<runs {
      let b = Self.hangPayloads(600, perHour: 2, rng: &rng)
      let c = Self.hangPayloads(600, perHour: 2 * 1.22, rng: &rng)
      let test = try PooledRateTest(baseline: b, candidate: c)
      if try #require(test.changeInterval).contains(0.22) { covered += 1 }
      if test.pHigher < 0.05 { rejected += 1 }
    }
    print("Pooled rate: covered +22% in \(covered) of \(runs) runs; rejected equality in \(rejected)")
    #expect((0.925...0.975).contains(Double(covered) / Double(runs)))
    #expect(Double(rejected) / Double(runs) >= 0.8)
  }

  @Test func poissonIntervalIsExactAndCovers() throws {
    // 10 events in 1,000 payloads against 20 in 1,000: the share 20/30 has the Clopper–Pearson interval
    // [0.47187996, 0.82712578] (bisection on the exact binomial CDF in Python, a second method), a rate
    // ratio of π/(1 − π).
    let test = try RateComparisonTest(
      baselineCount: 10, baselineExposure: 1000, candidateCount: 20, candidateExposure: 1000)
    let interval = try #require(test.changeInterval)
    #expect(abs(interval.lowerBound - (0.4718799552 / (1 - 0.4718799552) - 1)) < 1e-6)
    #expect(abs(interval.upperBound - (0.8271257785 / (1 - 0.8271257785) - 1)) < 1e-6)
    var rng = SplitMix64(seed: 13)
    let runs = 400
    var covered = 0
    for _ in 0..<runs {
      let xb = Self.poisson(0.02 * 500, &rng)
      let xc = Self.poisson(0.025 * 600, &rng)
      let t = try RateComparisonTest(
        baselineCount: xb, baselineExposure: 500, candidateCount: xc, candidateExposure: 600)
      if t.changeInterval?.contains(0.25) ?? false { covered += 1 }
    }
    print("Poisson: covered +25% in \(covered) of \(runs) runs")
    // Exact intervals are conservative: at least 95%.
    #expect(Double(covered) / Double(runs) >= 0.94)
  }
}
