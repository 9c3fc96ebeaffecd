import Foundation
import PayloadSynthesis
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
}
