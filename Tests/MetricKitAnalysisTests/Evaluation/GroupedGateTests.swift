import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// `compare --by`: each group compared on its own, every group's tests in one Benjamini–Hochberg
/// family.
@Suite("Grouped gate")
struct GroupedGateTests {
  static func dump(_ payloads: [(MetricPayload, String)], evaluator: RegressionEvaluator) -> DumpAggregate {
    var options = evaluator.aggregationOptions
    options.grouping = .deviceType
    var aggregate = DumpAggregate()
    for (payload, version) in payloads {
      var p = payload
      p.latestApplicationVersion = version
      aggregate.add(.payload(p, PayloadLocation(path: "memory")), filter: PayloadFilter(), options: options)
    }
    return aggregate
  }

  @Test func onlyTheGroupThatRegressedIsFlagged() throws {
    let evaluator = RegressionEvaluator()
    var slower = GateCalibrationTests.profile
    slower.launchMedian *= 1.3
    // Device n has type n % 3: iPhone14,2, iPhone15,3 (slower in the candidate), iPhone12,1.
    var rng = SplitMix64(seed: 31)
    var payloads: [(MetricPayload, String)] = []
    for n in 0..<240 {
      let base = SyntheticPayload.make(
        profile: GateCalibrationTests.profile, day: n % 28, device: n, multipleVersions: false, rng: &rng)
      payloads.append((try Support.metricPayload(base.json), "A"))
      let profile = n % 3 == 1 ? slower : GateCalibrationTests.profile
      let candidate = SyntheticPayload.make(
        profile: profile, day: n % 28, device: n, multipleVersions: false, rng: &rng)
      payloads.append((try Support.metricPayload(candidate.json), "B"))
    }
    let report = ComparisonReport(
      grouped: Self.dump(payloads, evaluator: evaluator), baseline: "A", candidate: "B", top: 10, evaluator: evaluator)
    let launch = report.results.filter { $0.rule.metric == MetricID.histogrammedTimeToFirstDraw }
    #expect(launch.count == 6)  // p50 and p90 in each of 3 groups
    for r in launch {
      #expect((r.verdict == .regression) == (r.by?.value == "iPhone15,3"), "\(r.by?.value ?? "") \(r.rule.statistic)")
    }
    #expect(report.gateFails)
    #expect(report.results.filter { $0.verdict == .regression }.allSatisfy { $0.by?.value == "iPhone15,3" })
  }

  @Test func aSameDistributionDumpWithTenGroupsPassesInAtLeast95PercentOfRuns() throws {
    let evaluator = RegressionEvaluator()
    let pool = try GateCalibrationTests.pool(GateCalibrationTests.profile, count: 1200, seed: 41)
    var rng = SplitMix64(seed: 42)
    let runs = Int(ProcessInfo.processInfo.environment["GROUPED_AA_RUNS"] ?? "") ?? 100
    var passes = 0
    for _ in 0..<runs {
      var payloads: [(MetricPayload, String)] = []
      for version in ["A", "B"] {
        for group in 0..<10 {
          for _ in 0..<25 {
            var p = pool[Int(rng.next() % UInt64(pool.count))]
            p.metaData?.deviceType = "Device\(group)"
            payloads.append((p, version))
          }
        }
      }
      let report = ComparisonReport(
        grouped: Self.dump(payloads, evaluator: evaluator), baseline: "A", candidate: "B", top: 10,
        evaluator: evaluator)
      #expect(Set(report.results.compactMap(\.by?.value)).count == 10)
      if !report.gateFails { passes += 1 }
    }
    print("A/A with 10 groups: the gate passed \(passes) of \(runs) runs")
    #expect(Double(passes) / Double(runs) >= 0.95)
  }
}
