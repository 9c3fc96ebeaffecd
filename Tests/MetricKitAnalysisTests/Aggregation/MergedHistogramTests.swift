import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Exact merges in any order: the buckets of histograms whose ranges arrive ascending, descending or
/// shuffled, new or known, equal a dictionary's sums; merging two merges equals adding everything once.
@Suite("Merged histograms")
struct MergedHistogramTests {
  typealias Merge = MergedHistogram<UnitDuration>

  /// `n` histograms of up to `width` buckets drawn from `ranges` distinct ranges, each in a random order.
  static func histograms(_ n: Int, width: Int, ranges: Int, seed: UInt64) -> [[HistogramBucket]] {
    var rng = SplitMix64(seed: seed)
    return (0..<n).map { _ in
      let picked = Set((0..<width).map { _ in Int.random(in: 0..<ranges, using: &rng) })
      var buckets = picked.map { k in
        HistogramBucket(start: Double(k * 10), end: Double(k * 10 + 10), count: Int.random(in: 1...5, using: &rng))
      }
      switch Int.random(in: 0..<3, using: &rng) {
      case 0: buckets.sort { $0.start < $1.start }
      case 1: buckets.sort { $0.start > $1.start }
      default: buckets.shuffle(using: &rng)
      }
      return buckets
    }
  }

  static func reference(_ histograms: [[HistogramBucket]]) -> [(Double, Double, Int128)] {
    var sums: [Double: Int128] = [:]
    for h in histograms { for b in h { sums[b.start, default: 0] += Int128(b.count) } }
    return sums.keys.sorted().map { ($0, $0 + 10, sums[$0]!) }
  }

  static func contents(_ m: Merge) -> [(Double, Double, Int128)] {
    m.buckets.map { ($0.range.start, $0.range.end, $0.count) }
  }

  @Test(arguments: [(1, 2_000), (40, 50), (300, 400)])
  func bucketsInAnyOrderMergeToTheSums(histogramCount: Int, ranges: Int) {
    let input = Self.histograms(histogramCount, width: 60, ranges: ranges, seed: UInt64(ranges))
    var merge = Merge(unit: .milliseconds)
    for h in input { merge.add(buckets: h) }
    let expected = Self.reference(input)
    #expect(Self.contents(merge).elementsEqual(expected) { $0 == $1 })
    #expect(merge.sampleCount == expected.reduce(0) { $0 + $1.2 })
    #expect(merge.histogramCount == histogramCount)
  }

  /// Ranges that share a start and differ in their end, held ones a few places apart or far apart,
  /// the last held one among them: every found range adds to its own bucket, every other is new.
  @Test(arguments: [1, 2, 3, 7, 64])
  func rangesFoundAnyDistanceAheadAddToTheirOwnBucket(gap: Int) {
    var rng = SplitMix64(seed: UInt64(gap))
    var grid: [(start: Double, end: Double)] = []
    for k in 0..<200 {
      let start = Double(k)
      grid.append((start, start + 1))
      grid.append((start, start + 2))
    }
    var merge = Merge(unit: .milliseconds)
    var sums: [String: Int128] = [:]
    for round in 0..<30 {
      // Ascending, each `gap`-th range of the grid from a random first one (the grid's last included
      // every other round), plus a few at random to hold ranges between.
      var picked = Set(stride(from: Int.random(in: 0..<gap, using: &rng), to: grid.count, by: gap))
      if round % 2 == 0 { picked.insert(grid.count - 1) }
      for _ in 0..<5 { picked.insert(Int.random(in: 0..<grid.count, using: &rng)) }
      let buckets = picked.sorted().map { i in
        HistogramBucket(start: grid[i].start, end: grid[i].end, count: Int.random(in: 1...9, using: &rng))
      }
      merge.add(buckets: buckets)
      for b in buckets { sums["\(b.start)-\(b.end)", default: 0] += Int128(b.count) }
    }
    let expected = sums.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
    let merged = merge.buckets.map { ("\($0.range.start)-\($0.range.end)", $0.count) }.sorted { $0.0 < $1.0 }
    #expect(merged.elementsEqual(expected) { $0 == $1 })
    #expect(merge.buckets.map(\.range) == merge.buckets.map(\.range).sorted())
    #expect(merge.sampleCount == sums.values.reduce(0, +))
  }

  @Test func mergingMergesEqualsAddingEverythingOnce() {
    let input = Self.histograms(200, width: 40, ranges: 500, seed: 9)
    var whole = Merge(unit: .milliseconds)
    var halves = [Merge(unit: .milliseconds), Merge(unit: .milliseconds)]
    for (i, h) in input.enumerated() {
      whole.add(buckets: h)
      halves[i % 2].add(buckets: h)
    }
    halves[0].merge(halves[1])
    #expect(Self.contents(halves[0]).elementsEqual(Self.contents(whole)) { $0 == $1 })
    #expect(halves[0].sampleCount == whole.sampleCount)
    #expect(halves[0].histogramCount == whole.histogramCount)
  }

  @Test func aSnapshotsBucketsInAnyOrderAreSortedAndEqualRangesAdded() {
    let buckets: [Merge.Bucket] = [
      .init(range: .init(start: 30, end: 40), count: 2), .init(range: .init(start: 10, end: 20), count: 1),
      .init(range: .init(start: 30, end: 40), count: 5), .init(range: .init(start: 0, end: 10), count: 0),
    ]
    let merge = Merge(unit: .milliseconds, buckets: buckets, histogramCount: 3)
    #expect(Self.contents(merge).elementsEqual([(10, 20, 1), (30, 40, 7)]) { $0 == $1 })
    #expect(merge.sampleCount == 8)
    #expect(merge.histogramCount == 3)
  }

  /// Payloads whose first-draw histograms bring two ranges each (`k` numbers them), and one payload
  /// of the same ranges as payload 0.
  static func rangePayloads() throws -> [MetricPayload] {
    try (0..<5).map { k in
      try Support.metricPayload(
        """
        {"appVersion": "1.0", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": \(Support.histogramJSON([(10 * k, 10 * k + 5, 1), (10 * k + 5, 10 * k + 10, 1)]))},
         "applicationResponsivenessMetrics": {"histogrammedAppHangTime": \(Support.histogramJSON([(0, 1000, 1)]))}}
        """)
    }
  }

  @Test func aMetricPastTheRangeLimitIsNotComputedWhateverTheOrderOrSplit() throws {
    var options = AggregationOptions()
    options.rangeLimit = 9
    let payloads = try Self.rangePayloads()
    func aggregate(_ parts: [[MetricPayload]]) -> VersionAggregate {
      var whole = VersionAggregate(version: "1.0", options: options)
      for part in parts {
        var shard = VersionAggregate(version: "1.0", options: options)
        for payload in part { shard.add(payload, options: options) }
        whole.merge(shard)
      }
      return whole
    }
    // 10 distinct ranges: no order or split keeps part of them. Each shard below holds at most 6.
    let runs = [
      aggregate([payloads]), aggregate([payloads.reversed()]),
      aggregate([[payloads[4], payloads[0], payloads[2]], [payloads[1], payloads[3]]]),
      aggregate([Array(payloads[0..<3]), Array(payloads[3...])]),
    ]
    for run in runs {
      #expect(run.histogramsOverRangeLimit == [.histogrammedTimeToFirstDraw: 5])
      #expect(run.histogram(.histogrammedTimeToFirstDraw) == nil)
      #expect(run.payloadSample(.histogrammedTimeToFirstDraw, .mean) == nil)
      // The other metric is whole.
      #expect(run.histogram(.histogrammedApplicationHangTime)?.histogramCount == 5)
      #expect(run.payloadCount == 5)
    }
    // At the limit (10 ranges), the metric is computed.
    options.rangeLimit = 10
    let atLimit = aggregate([Array(payloads[0..<2]), Array(payloads[2...])])
    #expect(atLimit.histogramsOverRangeLimit.isEmpty)
    #expect(atLimit.histogram(.histogrammedTimeToFirstDraw)?.sampleCount == 10)
  }

  @Test func aMetricOverTheRangeLimitIsReportedAndCarriedBySnapshots() throws {
    var options = AggregationOptions()
    options.rangeLimit = 4
    var aggregate = VersionAggregate(version: "1.0", options: options)
    for payload in try Self.rangePayloads() { aggregate.add(payload, options: options) }
    #expect(aggregate.histogramsOverRangeLimit == [.histogrammedTimeToFirstDraw: 5])
    let snapshot = VersionSnapshot(
      aggregate: aggregate, estimator: .midpoint, payloadPercentiles: [], inputs: InputAccounting())
    #expect(
      snapshot.json.contains(
        "\"histogramsOverRangeLimit\": {\n    \"applicationLaunchMetrics.histogrammedTimeToFirstDraw\": 5"))
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("s.json")
      try Data(snapshot.json.utf8).write(to: file)
      let loaded = try VersionSnapshot.load(path: file.path)
      #expect(loaded.aggregate.histogramsOverRangeLimit == [.histogrammedTimeToFirstDraw: 5])
      #expect(loaded.json == snapshot.json)
      // A snapshot that is under the limit alone, merged with one that takes the union past it.
      var under = VersionAggregate(version: "1.0", options: options)
      for payload in try Self.rangePayloads().prefix(2) { under.add(payload, options: options) }
      #expect(under.histogramsOverRangeLimit.isEmpty)
      var other = VersionAggregate(version: "1.0", options: options)
      other.add(try Self.rangePayloads()[3], options: options)
      under.merge(other)
      #expect(under.histogramsOverRangeLimit == [.histogrammedTimeToFirstDraw: 3])
      let summary = SummaryReport(aggregate: DumpAggregate(snapshots: [loaded]))
      #expect(
        summary.omissions.contains {
          $0.contains("not computed: its 5 payload histograms hold more than") && $0.contains("distinct bucket ranges")
        }, "\(summary.omissions)")
    }
  }

  /// A format-2 snapshot's `histogramsNotMerged` (part of a metric's histograms kept) reads as a
  /// metric over the limit: its histogram is dropped and its payload histograms counted.
  @Test func aFormatTwoPartialHistogramReadsAsOverTheLimit() throws {
    var aggregate = VersionAggregate(version: "1.0")
    for payload in try Self.rangePayloads().prefix(2) { aggregate.add(payload, options: AggregationOptions()) }
    let text = VersionSnapshot(
      aggregate: aggregate, estimator: .midpoint, payloadPercentiles: [], inputs: InputAccounting()
    ).json
      .replacingOccurrences(of: "\"snapshotVersion\": 3", with: "\"snapshotVersion\": 2")
      .replacingOccurrences(
        of: "  \"payloadStatistics\"",
        with:
          "  \"histogramsNotMerged\": {\"applicationLaunchMetrics.histogrammedTimeToFirstDraw\": 3},\n  \"payloadStatistics\""
      )
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("two.json")
      try Data(text.utf8).write(to: file)
      let loaded = try VersionSnapshot.load(path: file.path)
      #expect(loaded.aggregate.histogramsOverRangeLimit == [.histogrammedTimeToFirstDraw: 5])
      #expect(loaded.aggregate.histogram(.histogrammedTimeToFirstDraw) == nil)
      #expect(loaded.aggregate.histogram(.histogrammedApplicationHangTime)?.histogramCount == 2)
    }
  }
}
