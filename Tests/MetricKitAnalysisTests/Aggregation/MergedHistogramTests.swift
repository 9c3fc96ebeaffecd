import Foundation
import PayloadSynthesis
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

  @Test func pastTheRangeLimitAHistogramWithANewRangeIsLeftOutWhole() {
    var merge = Merge(unit: .milliseconds)
    let first = [HistogramBucket(start: 0, end: 1, count: 1), HistogramBucket(start: 1, end: 2, count: 1)]
    let firstAdded = merge.add(buckets: first, rangeLimit: 2)
    let knownAdded = merge.add(buckets: [HistogramBucket(start: 1, end: 2, count: 4)], rangeLimit: 2)
    #expect(firstAdded && knownAdded)
    let withNew = [HistogramBucket(start: 0, end: 1, count: 1), HistogramBucket(start: 5, end: 6, count: 1)]
    let newAdded = merge.add(buckets: withNew, rangeLimit: 2)
    #expect(!newAdded)
    #expect(Self.contents(merge).elementsEqual([(0, 1, 1), (1, 2, 5)]) { $0 == $1 })
    #expect(merge.histogramCount == 2)
    #expect(merge.sampleCount == 6)
  }

  @Test func histogramsLeftOutAreCountedReportedAndCarriedBySnapshots() throws {
    var options = AggregationOptions()
    options.rangeLimit = 4
    var aggregate = VersionAggregate(version: "1.0", options: options)
    for k in 0..<5 {
      let json = """
        {"appVersion": "1.0", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": \(Support.histogramJSON([(10 * k, 10 * k + 5, 1), (10 * k + 5, 10 * k + 10, 1)]))}}
        """
      aggregate.add(try Support.metricPayload(json), options: options)
    }
    // Two histograms fill the 4 ranges; the next three each bring new ones.
    #expect(aggregate.histogram(.histogrammedTimeToFirstDraw)?.histogramCount == 2)
    #expect(aggregate.histogramsNotMerged == [.histogrammedTimeToFirstDraw: 3])
    let snapshot = VersionSnapshot(
      aggregate: aggregate, estimator: .midpoint, payloadPercentiles: [], inputs: InputAccounting())
    let dir = try Support.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("s.json")
    try Data(snapshot.json.utf8).write(to: file)
    let loaded = try VersionSnapshot.load(path: file.path)
    #expect(loaded.aggregate.histogramsNotMerged == [.histogrammedTimeToFirstDraw: 3])
    let summary = SummaryReport(aggregate: DumpAggregate(snapshots: [loaded]))
    #expect(summary.omissions.contains { $0.contains("3 payload histograms left out") }, "\(summary.omissions)")
  }
}
