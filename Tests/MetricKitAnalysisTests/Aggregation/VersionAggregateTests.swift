import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// A version's aggregate: bounded in distinct signposts, linear in time, the same whatever the split.
@Suite("Version aggregate")
struct VersionAggregateTests {
  static func payload(signposts names: [String]) throws -> MetricPayload {
    let histogram =
      #"{"histogramNumBuckets":1,"histogramValue":{"0":{"bucketStart":"0 ms","bucketEnd":"10 ms","bucketCount":1}}}"#
    let signposts = names.map {
      #"{"signpostName":"\#($0)","signpostCategory":"C","totalSignpostCount":1,"signpostIntervalData":{"histogrammedSignpostDurations":\#(histogram)}}"#
    }
    return try Support.metricPayload(#"{"appVersion":"1.0","signpostMetrics":[\#(signposts.joined(separator: ","))]}"#)
  }

  @Test func fiftyThousandDistinctSignpostsTakeLinearTimeAndAreBoundedTheSameWayWhateverTheSplit() throws {
    let names = (0..<50_000).map { String(format: "S%05d", $0) }
    let one = try Self.payload(signposts: names.reversed())
    let clock = ContinuousClock()
    var whole = VersionAggregate(version: "1.0")
    let elapsed = clock.measure { whole.add(one, options: AggregationOptions()) }
    print("50,000 distinct signposts aggregated in \(elapsed)")
    // Quadratic, this took minutes (8,000 signposts: 38 s); a generous bound for debug and ASan builds.
    #expect(elapsed < .seconds(20))
    #expect(whole.signpostIDs == names.prefix(10_000).map { MetricID.signpost(category: "C", name: $0) })
    #expect(whole.signpostHistogramsNotKept == 40_000)
    // Split over payloads and merged in any order: the same signposts kept, with their whole data.
    let halves = [
      try Self.payload(signposts: Array(names[25_000...])), try Self.payload(signposts: Array(names[..<25_000])),
    ]
    var a = VersionAggregate(version: "1.0")
    var b = VersionAggregate(version: "1.0")
    a.add(halves[0], options: AggregationOptions())
    b.add(halves[1], options: AggregationOptions())
    b.add(halves[0], options: AggregationOptions())
    a.merge(b)
    #expect(a.signpostIDs == whole.signpostIDs)
    #expect(a.histogram(MetricID.signpost(category: "C", name: "S00000"))?.histogramCount == 1)
    #expect(a.histogram(MetricID.signpost(category: "C", name: "S09999"))?.histogramCount == 1)
    #expect(a.signpostHistogramsNotKept == 40_000 + 25_000)
  }

  /// A projection onto one metric holds that metric's data whole (merged projections give the whole
  /// aggregates' statistics) and nothing of the others.
  @Test func aProjectionKeepsOneMetricWholeAndNothingElse() throws {
    let dump = TestDirectories.packageRoot.appendingPathComponent("Samples/dump")
    var options = WatchOptions().aggregationOptions
    options.payloadMeans = true
    let aggregate = DumpAggregate(paths: [dump.path], options: options, threads: 2)
    // The days × device × OS parts of the version with the most of them.
    let parts = try #require(
      Dictionary(grouping: aggregate.series.values, by: \.version).values.max { $0.count < $1.count })
    try #require(parts.count >= 2)
    for subject in WatchOptions().subjects {
      let metric = subject.metric
      var whole = parts[0]
      var projected = parts[0].projected(onto: metric)
      for part in parts.dropFirst() {
        whole.merge(part)
        projected.merge(part.projected(onto: metric))
      }
      #expect(projected.payloadCount == whole.payloadCount)
      let request = [metric: Set([subject.statistic])]
      let a = PooledStatistics(standardized: [(1, whole)], requests: request)[metric, subject.statistic]?.value
      let b = PooledStatistics(standardized: [(1, projected)], requests: request)[metric, subject.statistic]?.value
      #expect(a != nil && a == b, "\(metric.rawValue) \(subject.statistic)")
      #expect(
        projected.payloadSample(metric, subject.statistic)?.count
          == whole.payloadSample(metric, subject.statistic)?.count)
      let others = Set(projected.histograms.keys).union(projected.scalars.keys).subtracting([metric])
      #expect(others.isEmpty, "\(metric.rawValue) kept \(others)")
    }
  }
}
