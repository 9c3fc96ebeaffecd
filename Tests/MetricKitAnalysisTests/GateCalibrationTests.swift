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
        results.filter { MetricCatalog.diagnosticKind(of: $0.rule.metric) == nil }.allSatisfy {
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
    for _ in 0..<runs {
      let a = Self.aggregate(baselinePool, size: 200, version: "A", evaluator: evaluator, rng: &rng)
      let b = Self.aggregate(candidatePool, size: 200, version: "B", evaluator: evaluator, rng: &rng)
      let results = evaluator.evaluate(baseline: a, candidate: b)
      let median = results.first {
        $0.rule.metric == "applicationLaunchMetrics.histogrammedTimeToFirstDraw"
          && $0.rule.statistic == .percentile(Percentile(50)!)
      }
      if median?.verdict == .regression && results.contains(where: \.failsGate) { caught += 1 }
    }
    print("Power: a 10% slower median launch was flagged in \(caught) of \(runs) runs")
    #expect(Double(caught) / Double(runs) >= 0.9)
  }
}
