import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The gate's error rates, measured with fixed seeds: false alarms on two samples of one distribution
/// (A/A), and power against a real 10% launch-time regression.
@Suite("Gate calibration")
struct GateCalibrationTests {
  /// Decoded synthetic payloads of one profile.
  static func pool(_ profile: VersionProfile, count: Int, seed: UInt64) throws -> [MetricPayload] {
    var rng = SplitMix64(seed: seed)
    return try (0..<count).map { n in
      let synthetic = SyntheticPayload.make(
        profile: profile, day: n % 28, device: n, multipleVersions: false, rng: &rng)
      return try Support.metricPayload(synthetic.json)
    }
  }

  static func aggregate(
    _ pool: [MetricPayload], size: Int, version: String, evaluator: RegressionEvaluator, rng: inout SplitMix64
  )
    -> VersionAggregate
  {
    var aggregate = VersionAggregate(version: version)
    let options = evaluator.aggregationOptions
    for _ in 0..<size { aggregate.add(pool[Int(rng.next() % UInt64(pool.count))], options: options) }
    return aggregate
  }

  static let profile = VersionProfile.standard[0]

  /// 2,000 payloads of the profile, decoded once for the hang-rate tests (empty if decoding failed).
  static let hangPool: [MetricPayload] = (try? pool(profile, count: 2000, seed: 31)) ?? []

  /// 2,000 payloads whose hangs last `hangFactor` times as long (measured: a hang rate +22%).
  static let hangierPool: [MetricPayload] = {
    var hangier = profile
    hangier.hangMedian *= hangFactor
    hangier.version = "hangier"
    return (try? pool(hangier, count: 2000, seed: 32)) ?? []
  }()

  static let hangFactor = 1.24

  @Test func falseAlarmRateOnSameDistributionIsAtMostEightPercent() throws {
    let evaluator = RegressionEvaluator()
    let pool = try Self.pool(Self.profile, count: 1200, seed: 11)
    var rng = SplitMix64(seed: 12)
    let runs = 200
    var failures = 0
    var ruleFalseAlarms = 0
    for _ in 0..<runs {
      let a = Self.aggregate(pool, size: 50, version: "A", evaluator: evaluator, rng: &rng)
      let b = Self.aggregate(pool, size: 50, version: "B", evaluator: evaluator, rng: &rng)
      let results = evaluator.evaluate(baseline: a, candidate: b)
      #expect(
        results.filter { $0.rule.metric.kind != .diagnostic }.allSatisfy {
          $0.verdict != .insufficientData
        })
      if results.contains(where: \.failsGate) { failures += 1 }
      ruleFalseAlarms += results.filter { $0.verdict == .regression }.count
    }
    print("A/A: the gate failed \(failures) of \(runs) runs; \(ruleFalseAlarms) rule regressions in all")
    #expect(Double(failures) / Double(runs) <= 0.08)
  }

  @Test func tenPercentLaunchRegressionIsCaughtAtTwoHundredPayloads() throws {
    let evaluator = RegressionEvaluator()
    var slower = Self.profile
    slower.launchMedian *= 1.10
    slower.version = "slower"
    let baselinePool = try Self.pool(Self.profile, count: 1200, seed: 21)
    let candidatePool = try Self.pool(slower, count: 1200, seed: 22)
    var rng = SplitMix64(seed: 23)
    let runs = 50
    var caught = 0
    var covered = 0
    for _ in 0..<runs {
      let a = Self.aggregate(baselinePool, size: 200, version: "A", evaluator: evaluator, rng: &rng)
      let b = Self.aggregate(candidatePool, size: 200, version: "B", evaluator: evaluator, rng: &rng)
      let results = evaluator.evaluate(baseline: a, candidate: b)
      let median = results.first {
        $0.rule.metric == MetricID.histogrammedTimeToFirstDraw
          && $0.rule.statistic == .percentile(Percentile(50)!)
      }
      if median?.verdict == .regression && results.contains(where: \.failsGate) { caught += 1 }
      if median?.changeInterval?.contains(0.10) == true { covered += 1 }
    }
    print(
      "Power: a 10% slower median launch was flagged in \(caught) of \(runs) runs; its interval covered +10% in "
        + "\(covered)")
    #expect(Double(caught) / Double(runs) >= 0.9)
    // The interval placed around the merged histograms' p50 change covers the true shift.
    #expect(Double(covered) / Double(runs) >= 0.9)
  }

  /// The hang-rate rule alone, `runs` times on `size` payloads a side drawn from two pools.
  static func hangRateRuns(
    baseline: [MetricPayload], candidate: [MetricPayload], size: Int, runs: Int, seed: UInt64,
    evaluator: RegressionEvaluator = RegressionEvaluator()
  ) -> (flagged: Int, significant: Int, medianChange: Double) {
    var rng = SplitMix64(seed: seed)
    var flagged = 0
    var significant = 0
    var changes: [Double] = []
    for _ in 0..<runs {
      let a = aggregate(baseline, size: size, version: "A", evaluator: evaluator, rng: &rng)
      let b = aggregate(candidate, size: size, version: "B", evaluator: evaluator, rng: &rng)
      guard
        let r = evaluator.evaluate(baseline: a, candidate: b).first(where: { $0.rule.metric == .hangRate })
      else { continue }
      if r.verdict == .regression { flagged += 1 }
      if let q = r.qValue, q < 0.05 { significant += 1 }
      if let change = r.change { changes.append(change) }
    }
    return (flagged, significant, changes.sorted()[changes.count / 2])
  }

  /// A hang rate 22% higher (as the tool measures it) over ~600 payloads a version, the
  /// built-in rules in one Benjamini–Hochberg family. The per-payload Mann–Whitney test of the rates
  /// flagged it in about a fifth of the runs; the pooled-rate test must in four of five.
  @Test func hangRateTwentyTwoPercentHigherIsFlaggedInFourRunsOfFive() throws {
    try #require(!Self.hangPool.isEmpty && !Self.hangierPool.isEmpty)
    let result = Self.hangRateRuns(
      baseline: Self.hangPool, candidate: Self.hangierPool, size: 600, runs: 50, seed: 34)
    print(
      "Power: hang rate \(String(format: "%+.1f%%", result.medianChange * 100)) (median) flagged in "
        + "\(result.flagged) of 50 runs, q < 0.05 in \(result.significant)")
    #expect(abs(result.medianChange - 0.22) <= 0.03)
    #expect(result.flagged >= 40)
  }

  /// Each payload's (hang seconds, foreground hours), as the aggregation records them.
  static func hangPairs(_ pool: [MetricPayload]) -> [RateSample.Pair] {
    pool.compactMap { payload in
      var one = VersionAggregate(version: "one")
      one.add(payload, options: AggregationOptions())
      return one.hangRate.pairs?.first
    }
  }

  /// The pooled-rate test alone on two samples of one distribution, 2,000 times: one-sided at 5%, it
  /// must not reject more often than 5% (it is not corrected for multiplicity here, as it is in the gate).
  @Test func hangRateTestFalseAlarmsOnSameDistributionAtMostFivePercent() throws {
    let pairs = Self.hangPairs(Self.hangPool)
    try #require(pairs.count == 2000)
    var rng = SplitMix64(seed: 42)
    func draw() -> RateSample {
      var sample = RateSample()
      for _ in 0..<600 {
        let pair = pairs[Int(rng.next() % UInt64(pairs.count))]
        sample.append(numerator: pair.numerator, denominator: pair.denominator)
      }
      return sample
    }
    let runs = 2000
    var rejected = 0
    for _ in 0..<runs {
      let (a, b) = (draw(), draw())
      if try PooledRateTest(baseline: a, candidate: b).pHigher < 0.05 { rejected += 1 }
    }
    print("A/A: the pooled hang-rate test rejected at 5% in \(rejected) of \(runs) runs")
    #expect(Double(rejected) / Double(runs) <= 0.055)
  }
}
