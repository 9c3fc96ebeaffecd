import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The exact-value budget of a snapshot: at most so many per-payload values written exactly, the
/// samples the built-in rules test first, every other sample a sketch.
@Suite("snapshot exact-value budget")
struct SnapshotBudgetTests {
  /// The samples' 3.9.0 with every per-payload statistic a snapshot records.
  static func snapshot(budget: Int) -> VersionSnapshot {
    var options = AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults)
    options.selection = MetricSelection()
    let aggregate = DumpAggregate(
      paths: [TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path], options: options, threads: 2)
    var snapshot = VersionSnapshot(
      aggregate: aggregate.versions["3.9.0"]!, estimator: .midpoint, payloadPercentiles: Percentile.defaults,
      inputs: aggregate.inputs, diagnostics: nil)
    snapshot.exactValueBudget = budget
    return snapshot
  }

  /// The written snapshot's exact values and sketches, per sample (`metric statistic`, `scalar id`, `rate id`).
  static func forms(_ json: String) throws -> (exact: [String: Int], sketched: Set<String>) {
    let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
    var exact: [String: Int] = [:]
    var sketched: Set<String> = []
    func record(_ name: String, _ sample: Any?) {
      if let values = sample as? [Any] {
        exact[name] = values.count
      } else if sample is [String: Any] {
        sketched.insert(name)
      }
    }
    for (metric, byStatistic) in root["payloadStatistics"] as? [String: [String: Any]] ?? [:] {
      for (statistic, sample) in byStatistic { record("\(metric) \(statistic)", sample) }
    }
    for (metric, sample) in root["scalars"] as? [String: Any] ?? [:] { record("scalar \(metric)", sample) }
    for (metric, sample) in root["rates"] as? [String: Any] ?? [:] where (sample as? [Any])?.isEmpty != true {
      record("rate \(metric)", sample)
    }
    return (exact, sketched)
  }

  @Test func theBudgetBoundsTheExactValuesAndTheRulesSamplesComeFirst() throws {
    let whole = try Self.forms(Self.snapshot(budget: .max).json)
    #expect(whole.sketched.isEmpty && whole.exact.count > 40, "\(whole.sketched)")
    let payloads = whole.exact.values.max() ?? 0
    #expect(payloads == 56)
    // A budget of 300 values: the first five samples (56 payloads each, 43 with hangs) fit, the sixth
    // does not.
    let small = try Self.forms(Self.snapshot(budget: 300).json)
    #expect(small.exact.values.reduce(0, +) <= 300)
    #expect(small.exact.count == 5, "\(small.exact)")
    #expect(small.exact.count + small.sketched.count == whole.exact.count)
    // The built-in rules' per-payload samples are the ones kept.
    for name in [
      "applicationLaunchMetrics.histogrammedTimeToFirstDraw p50",
      "applicationLaunchMetrics.histogrammedTimeToFirstDraw p90",
      "applicationResponsivenessMetrics.histogrammedApplicationHangTime p90",
    ] {
      #expect(small.exact[name] != nil && small.exact[name] == whole.exact[name], "\(name): \(small.exact)")
    }
    // Nothing exact with no budget; written again, a budgeted snapshot keeps its bytes.
    #expect(try Self.forms(Self.snapshot(budget: 0).json).exact.isEmpty)
    let text = Self.snapshot(budget: 300).json
    let read = try Array(text.utf8).withUnsafeBytes { try VersionSnapshot.loadAll(bytes: $0, name: "s") }
    #expect(read.count == 1 && read[0].json == text)
  }
}
