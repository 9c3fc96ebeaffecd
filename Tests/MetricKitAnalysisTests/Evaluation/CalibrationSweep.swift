import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// Slow sweeps behind the calibration tables of Docs/calibration.md, run by `Scripts/calibrate.sh`
/// (`METRICS_REPORT_CALIBRATE=1`); the fast, asserted versions live in ``GateCalibrationTests`` and
/// ``ChangeIntervalTests``. Each prints a Markdown table.
@Suite("Calibration sweeps", .enabled(if: ProcessInfo.processInfo.environment["METRICS_REPORT_CALIBRATE"] != nil))
struct CalibrationSweep {
  static let runs = Int(ProcessInfo.processInfo.environment["METRICS_REPORT_CALIBRATE_RUNS"] ?? "") ?? 100

  /// The two decisions on launch-time shifts of 0–12%: how often the p50 rule (threshold 5%) flags a
  /// regression, at 576 payloads a version, the built-in rules in one family.
  @Test func decisionsOnLaunchShifts() throws {
    let base = GateCalibrationTests.profile
    let baseline = try GateCalibrationTests.pool(base, count: 1500, seed: 51)
    var rows = [
      "| true p50 shift | measured (median) | significant: p50 flagged | confident: p50 flagged | significant: gate fails | confident: gate fails |",
      "|---:|---:|---:|---:|---:|---:|",
    ]
    for (k, shift) in [0.0, 0.03, 0.05, 0.08, 0.12].enumerated() {
      var slower = base
      slower.launchMedian *= 1 + shift
      let candidate = try GateCalibrationTests.pool(slower, count: 1500, seed: 52 + UInt64(k))
      var rng = SplitMix64(seed: 60 + UInt64(k))
      var flagged = [0, 0]
      var failed = [0, 0]
      var changes: [Double] = []
      let evaluators = [RegressionEvaluator(decision: .significant), RegressionEvaluator(decision: .confident)]
      for _ in 0..<Self.runs {
        let a = GateCalibrationTests.aggregate(
          baseline, size: 576, version: "A", evaluator: evaluators[0], rng: &rng)
        let b = GateCalibrationTests.aggregate(
          candidate, size: 576, version: "B", evaluator: evaluators[0], rng: &rng)
        for (i, evaluator) in evaluators.enumerated() {
          let results = evaluator.evaluate(baseline: a, candidate: b)
          let p50 = results.first {
            $0.rule.metric == .histogrammedTimeToFirstDraw
              && $0.rule.statistic == .percentile(Percentile(50)!)
          }
          if p50?.verdict == .regression { flagged[i] += 1 }
          if results.contains(where: \.failsGate) { failed[i] += 1 }
          if i == 0, let change = p50?.change { changes.append(change) }
        }
      }
      func percent(_ n: Int) -> String { String(format: "%.0f%%", 100 * Double(n) / Double(Self.runs)) }
      rows.append(
        "| \(String(format: "%+.0f%%", shift * 100)) | \(String(format: "%+.1f%%", changes.sorted()[changes.count / 2] * 100)) "
          + "| \(percent(flagged[0])) | \(percent(flagged[1])) | \(percent(failed[0])) | \(percent(failed[1])) |")
    }
    print((["", "Decisions (\(Self.runs) runs per row, 576 payloads a version):"] + rows).joined(separator: "\n"))
  }

  /// The hang-rate rule before and after: the per-payload Mann–Whitney test of each payload's rate
  /// against the pooled-rate test, alone at 5% and in the built-in rules' family, at ~600 payloads.
  @Test func hangRateTests() throws {
    let base = GateCalibrationTests.hangPool
    var rows = [
      "| hang rate | measured (median) | Mann–Whitney per payload, p < 0.05 | pooled-rate test, p < 0.05 | pooled-rate, flagged by the gate |",
      "|---|---:|---:|---:|---:|",
    ]
    for (label, candidate) in [
      ("independent of foreground time, same (A/A)", base),
      ("independent, hangs ×\(GateCalibrationTests.hangFactor)", GateCalibrationTests.hangierPool),
    ] {
      var rng = SplitMix64(seed: 71)
      let evaluator = RegressionEvaluator()
      var mw = 0
      var pooled = 0
      var flagged = 0
      var changes: [Double] = []
      for _ in 0..<Self.runs {
        let a = GateCalibrationTests.aggregate(base, size: 600, version: "A", evaluator: evaluator, rng: &rng)
        let b = GateCalibrationTests.aggregate(candidate, size: 600, version: "B", evaluator: evaluator, rng: &rng)
        if try MannWhitneyTest(baseline: a.hangRate.perPayloadRates, candidate: b.hangRate.perPayloadRates).pValue
          < 0.05
        {
          mw += 1
        }
        if try PooledRateTest(baseline: a.hangRate, candidate: b.hangRate).pHigher < 0.05 { pooled += 1 }
        let result = evaluator.evaluate(baseline: a, candidate: b).first { $0.rule.metric == .hangRate }
        if result?.verdict == .regression { flagged += 1 }
        if let change = result?.change { changes.append(change) }
      }
      func percent(_ n: Int) -> String { String(format: "%.0f%%", 100 * Double(n) / Double(Self.runs)) }
      rows.append(
        "| \(label) | \(String(format: "%+.1f%%", changes.sorted()[changes.count / 2] * 100)) | \(percent(mw)) "
          + "| \(percent(pooled)) | \(percent(flagged)) |")
    }
    // Hangs arriving in proportion to foreground time (ChangeIntervalTests' model): the gate's family is
    // not simulated here, only the two tests.
    for (label, factor) in [("∝ foreground time, same (A/A)", 1.0), ("∝ foreground time, +22%", 1.22)] {
      var rng = SplitMix64(seed: 72)
      var mw = 0
      var pooled = 0
      var changes: [Double] = []
      for _ in 0..<Self.runs {
        let a = ChangeIntervalTests.hangPayloads(600, perHour: 2, rng: &rng)
        let b = ChangeIntervalTests.hangPayloads(600, perHour: 2 * factor, rng: &rng)
        if try MannWhitneyTest(baseline: a.perPayloadRates, candidate: b.perPayloadRates).pValue < 0.05 { mw += 1 }
        if try PooledRateTest(baseline: a, candidate: b).pHigher < 0.05 { pooled += 1 }
        changes.append(b.pooledRate! / a.pooledRate! - 1)
      }
      func percent(_ n: Int) -> String { String(format: "%.0f%%", 100 * Double(n) / Double(Self.runs)) }
      rows.append(
        "| \(label) | \(String(format: "%+.1f%%", changes.sorted()[changes.count / 2] * 100)) | \(percent(mw)) "
          + "| \(percent(pooled)) | – |")
    }
    print((["", "Hang rate (\(Self.runs) runs per row, 600 payloads a version):"] + rows).joined(separator: "\n"))
  }
}
