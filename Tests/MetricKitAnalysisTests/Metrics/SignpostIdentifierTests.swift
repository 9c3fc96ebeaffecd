import Foundation
import Testing

@testable import MetricKitAnalysis

/// A signpost is its (category, name) pair: the text form escapes the separator in the category, so no
/// two pairs share an identifier, and aggregation, snapshots and exports keep them apart.
@Suite("Signpost identifiers")
struct SignpostIdentifierTests {
  @Test func pairsThatJoinToTheSameTextStayTwoMetrics() {
    let a = MetricID.signpost(category: "a/b", name: "c")
    let b = MetricID.signpost(category: "a", name: "b/c")
    #expect(a != b)
    #expect(a.rawValue == "signpost:a%2Fb/c")
    #expect(b.rawValue == "signpost:a/b/c")
    #expect(a.signpost?.category == "a/b" && a.signpost?.name == "c")
    #expect(b.signpost?.category == "a" && b.signpost?.name == "b/c")
  }

  @Test(arguments: [
    ("Feed", "LoadFeed"), ("", "x"), ("100%", "y"), ("%2F", "/"), ("a%25/b", "c%2F"), ("é/🙂", "ü"), ("/", ""),
  ])
  func everyPairRoundTripsThroughItsIdentifier(category: String, name: String) throws {
    let id = MetricID.signpost(category: category, name: name)
    #expect(id.signpost?.category == category)
    #expect(id.signpost?.name == name)
    #expect(try MetricID(id.rawValue) == id)
  }

  @Test func ordinaryIdentifiersAreUnchanged() {
    #expect(MetricID.signpost(category: "Feed", name: "LoadFeed").rawValue == "signpost:Feed/LoadFeed")
    #expect(MetricID.peakMemoryUsage.signpost == nil)
  }

  @Test func twoSignpostsThatJoinAlikeAreAggregatedAndExportedApart() throws {
    let json = """
      {"appVersion": "1.0", "timeStampBegin": "2024-05-01 00:00:00", "timeStampEnd": "2024-05-01 23:00:00",
       "signpostMetrics": [
         {"signpostCategory": "a/b", "signpostName": "c", "signpostIntervalData": {"histogrammedSignpostDurations": \(Support.histogramJSON([(10, 20, 3)]))}},
         {"signpostCategory": "a", "signpostName": "b/c", "signpostIntervalData": {"histogrammedSignpostDurations": \(Support.histogramJSON([(10, 20, 5)]))}}]}
      """
    let payload = try Support.metricPayload(json)
    var aggregate = VersionAggregate(version: "1.0", options: AggregationOptions())
    aggregate.add(payload, options: AggregationOptions())
    #expect(aggregate.histogram(.signpost(category: "a/b", name: "c"))?.sampleCount == 3)
    #expect(aggregate.histogram(.signpost(category: "a", name: "b/c"))?.sampleCount == 5)
    let labels = MetricExport.signpostLabels(.signpost(category: "a/b", name: "c"))
    #expect(labels.map(\.value) == ["a/b", "c"])
  }
}
