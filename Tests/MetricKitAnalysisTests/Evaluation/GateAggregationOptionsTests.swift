import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// A dump read for the gate alone aggregates only the metrics its rules read, and the gate over it is
/// the gate over the dump read whole.
@Suite("Gate aggregation options")
struct GateAggregationOptionsTests {
  @Test func theGateOverTheRulesMetricsAloneIsTheGateOverEveryMetric() throws {
    try withTemporaryDirectory { folder in
      try RolloutScenario(.familyRegression, payloadsPerVersion: 300).write(to: folder, seed: 9011)
      let evaluator = RegressionEvaluator()
      func gate(_ options: AggregationOptions) throws -> (DumpAggregate, String) {
        let aggregate = DumpAggregate(paths: [folder.path], options: options, threads: 1)
        let report = try ComparisonReport(
          gate: evaluator, aggregate: aggregate, baseline: .dump(version: RolloutScenario.baseline),
          candidate: .dump(version: RolloutScenario.candidate), grouping: nil, wholeVersions: true, top: 10)
        return (aggregate, ComparisonRenderer.render(report, as: .json))
      }
      let (whole, expected) = try gate(evaluator.aggregationOptions)
      let (gateOnly, text) = try gate(evaluator.gateAggregationOptions)
      #expect(text == expected)
      #expect(text.contains("\"verdict\":\"regression\"") || text.contains("\"verdict\": \"regression\""))

      let ruleMetrics = Set(evaluator.ruleSet.rules.map(\.metric))
      for version in [RolloutScenario.baseline, RolloutScenario.candidate] {
        let all = try #require(whole.versions[version])
        let read = try #require(gateOnly.versions[version])
        #expect(read.payloadCount == all.payloadCount)
        // Every metric read has a rule; every metric with a rule is read as it is whole.
        #expect(Set(read.scalars.keys).isSubset(of: ruleMetrics) && Set(read.histograms.keys).isSubset(of: ruleMetrics))
        #expect(all.scalars.keys.contains { !ruleMetrics.contains($0) })
        for metric in ruleMetrics {
          // (Values in ascending order, as a reading hands them out.)
          #expect(read.scalar(metric)?.exactValues == all.scalar(metric)?.exactValues, "\(metric)")
          #expect(read.rate(metric)?.pairs == all.rate(metric)?.pairs, "\(metric)")
          #expect(read.rate(metric)?.sums.map(\.value) == all.rate(metric)?.sums.map(\.value), "\(metric)")
          for statistic in [Statistic.mean, .percentile(Percentile(90)!)] {
            #expect(
              read.payloadSample(metric, statistic)?.exactValues == all.payloadSample(metric, statistic)?.exactValues,
              "\(metric) \(statistic)")
          }
          #expect(read.histogram(metric)?.buckets == all.histogram(metric)?.buckets, "\(metric)")
        }
      }
    }
  }

  /// A reading hands out every exact sample in ascending order: the versions' and the strata's, read
  /// on any number of threads, through a cache or not.
  @Test func aReadingHandsOutEverySampleInOrder() throws {
    try withTemporaryDirectory { folder in
      let dump = folder.appendingPathComponent("dump")
      try RolloutScenario(.familyRegression, payloadsPerVersion: 300).write(to: dump, seed: 9013)
      let options = RegressionEvaluator().gateAggregationOptions
      let cache = try AggregateCache(directory: folder.appendingPathComponent("cache").path)
      let readings = [
        DumpAggregate(paths: [dump.path], options: options, threads: 1),
        DumpAggregate(paths: [dump.path], options: options, threads: 2),
        CachedReading(paths: [InputPath(dump.path)], options: options, threads: 2, cache: cache).aggregate,
        CachedReading(paths: [InputPath(dump.path)], options: options, threads: 2, cache: cache).aggregate,
      ]
      for (n, aggregate) in readings.enumerated() {
        let aggregates = Array(aggregate.versions.values) + Array(aggregate.strata.values)
        #expect(aggregate.versions.count == 2 && aggregate.strata.count > 2, "reading \(n)")
        var samples = 0
        for part in aggregates {
          let all = Array(part.scalars.values) + part.payloadStatistics.values.flatMap(\.values)
          for sample in all {
            let values = try #require(sample.exactValues)
            #expect(sample.ascendingExact == values, "reading \(n)")
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "reading \(n)")
            samples += values.isEmpty ? 0 : 1
          }
        }
        #expect(samples > 20, "reading \(n)")
        for version in aggregate.versions.keys {
          let first = try #require(readings[0].versions[version])
          let this = try #require(aggregate.versions[version])
          #expect(this.scalars == first.scalars && this.payloadStatistics == first.payloadStatistics, "reading \(n)")
        }
      }
    }
  }
}
