import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// Histogram statistics: hand-computed values, then properties on random data whose raw samples are
/// known.
@Suite("Histogram statistics")
struct HistogramStatisticsTests {
  @Test func meanEstimatorsByHand() throws {
    // NSHipster's time to first draw: 50 × [1000,1010), 60 × [2000,2010), 30 × [3000,3010).
    let h = Support.merged([(1000, 1010, 50), (2000, 2010, 60), (3000, 3010, 30)])
    #expect(abs(try h.mean(estimator: .midpoint, interpolation: .uniform) - 260_700.0 / 140) < 1e-9)
    #expect(abs(try h.mean(estimator: .bucketEnd) - 261_400.0 / 140) < 1e-9)
    #expect(abs(try h.mean(estimator: .bucketStart) - 260_000.0 / 140) < 1e-9)
  }

  @Test func percentilesAndBracketsByHand() throws {
    // The uniform model (a piecewise-linear CDF), by hand.
    let h = Support.merged([(0, 100, 50), (100, 400, 60), (400, 700, 30)])
    let p = try h.percentiles([Percentile(50)!, Percentile(90)!, Percentile(100)!], interpolation: .uniform)
    // p50: 70 of 140 → 20 into the 60 of [100,400) → 100 + 300 × 20/60 = 200.
    #expect(abs(p[0].value - 200) < 1e-9)
    #expect(p[0].lowerBound == 100 && p[0].upperBound == 400)
    // p90: 126 of 140 → 16 into the 30 of [400,700) → 400 + 300 × 16/30 = 560.
    #expect(abs(p[1].value - 560) < 1e-9)
    #expect(p[1].lowerBound == 400 && p[1].upperBound == 700)
    #expect(p[2].value == 700)
  }

  @Test func overlappingLayoutsMergeSideBySide() throws {
    // [0,10) ×10 and [0,20) ×10: density 1.5 on [0,10), 0.5 on [10,20).
    var h = Support.merged([(0, 10, 10)])
    h.merge(Support.merged([(0, 20, 10), (0, 10, 5)]))
    #expect(h.buckets.count == 2)
    #expect(h.buckets[0].count == 15)
    h = Support.merged([(0, 10, 10), (0, 20, 10)])
    let p50 = try #require(try h.percentiles([Percentile(50)!], interpolation: .uniform).first)
    #expect(abs(p50.value - 10.0 / 1.5) < 1e-9)
    #expect(p50.lowerBound == 0 && p50.upperBound == 10)
    #expect(abs(try h.cdf(at: 10, interpolation: .uniform) - 0.75) < 1e-12)
  }

  @Test func varianceOfTheMixture() throws {
    // One bucket [0, 12) of 2 observations: within-bucket variance 12²/12 × 2/(2−1) = 24.
    #expect(abs(try Support.merged([(0, 12, 2)]).variance() - 24) < 1e-9)
  }

  @Test func percentileRanksAreExact() {
    let p999 = Percentile(99.9)!
    #expect(p999.rank(among: 1000) == 999)
    #expect(Percentile(90)!.rank(among: 10) == 9)
    #expect(Percentile(50)!.rank(among: 1) == 1)
    #expect(Percentile(0) == nil && Percentile(100.5) == nil)
    #expect(Percentile(parsing: "p99.9")?.label == "p99.9")
    // Spaces and tabs around a label are trimmed; a line break is not a space.
    #expect(Percentile(parsing: " P90\t")?.label == "p90" && Percentile(parsing: "\u{00A0}50")?.label == "p50")
    #expect(Percentile(parsing: "90\n") == nil && Percentile(parsing: "p 90") == nil && Percentile(parsing: "") == nil)
  }

  @Test func hugeCountsDoNotOverflow() throws {
    let big = Int.max
    var h = Support.merged([(0, 10, big), (10, 20, big)])
    h.merge(Support.merged([(0, 10, big)]))
    #expect(h.sampleCount == Int128(big) * 3)
    let p = try h.percentiles([Percentile(50)!])
    #expect(p[0].value > 0 && p[0].value < 10)
    #expect(try h.mean().isFinite)
  }

  /// Random samples, bucketed under random layouts (merged across layouts), against the truth.
  @Test(arguments: 0..<40)
  func propertiesOnRandomData(seed: Int) throws {
    var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
    let layouts: [BucketLayout] = [
      .uniform(from: 0, to: 2000, width: 10), .uniform(from: 0, to: 2000, width: 25),
      BucketLayout(edges: [0, 100, 200, 300, 350, 400, 450, 500, 600, 800, 1000, 1500, 2000]),
    ]
    let singleLayout = seed % 2 == 0
    var all: [Double] = []
    var histograms: [[HistogramBucket]] = []
    var widest = 0.0
    for _ in 0..<(1 + Int(rng.next() % 6)) {
      let layout = singleLayout ? layouts[seed % 3] : layouts[Int(rng.next() % 3)]
      let samples = (0..<(1 + Int(rng.next() % 200))).map { _ in
        min(rng.logNormal(median: 400, sigma: 0.5), 1999)
      }
      all += samples
      let counts = layout.counts(samples)
      var buckets: [HistogramBucket] = []
      for (i, c) in counts.enumerated() where c > 0 {
        buckets.append(HistogramBucket(start: layout.edges[i], end: layout.edges[i + 1], count: c))
        widest = max(widest, layout.edges[i + 1] - layout.edges[i])
      }
      histograms.append(buckets)
    }
    var forward = MergedHistogram<Dimension>(unit: UnitDuration.milliseconds)
    for h in histograms { forward.add(buckets: h) }
    var backward = MergedHistogram<Dimension>(unit: UnitDuration.milliseconds)
    for h in histograms.shuffled(using: &rng) { backward.add(buckets: h) }
    // Merge order does not matter, down to the last bit.
    #expect(forward.buckets == backward.buckets)
    #expect(try forward.mean() == backward.mean())

    let sorted = all.sorted()
    let trueMean = all.reduce(0, +) / Double(all.count)
    #expect(abs(try forward.mean() - trueMean) <= widest / 2 + 1e-9)

    let percentiles = [1.0, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100].compactMap(Percentile.init)
    let estimates = try forward.percentiles(percentiles)
    for (a, b) in zip(estimates, estimates.dropFirst()) {
      #expect(a.value <= b.value, "monotone in p: \(a.percentile) \(a.value) > \(b.percentile) \(b.value)")
    }
    for estimate in estimates {
      let rank = Int(estimate.percentile.rank(among: Int128(sorted.count)))
      let truth = sorted[rank - 1]
      #expect(estimate.lowerBound <= truth && truth <= estimate.upperBound, "bracket holds the truth")
      #expect(estimate.lowerBound <= estimate.value && estimate.value <= estimate.upperBound)
      if singleLayout {
        let layout = layouts[seed % 3]
        let i = layout.index(of: truth)
        let width = layout.edges[i + 1] - layout.edges[i]
        #expect(estimate.upperBound - estimate.lowerBound <= width)
        #expect(abs(estimate.value - truth) <= width)
      }
    }
  }
}

extension HistogramStatisticsTests {
  /// The per-payload fast path agrees with the merged path on disjoint, gapped and point-mass layouts,
  /// and falls back on overlapping ones.
  @Test func singleHistogramPercentilesMatchTheMergedPath() throws {
    let cases: [[HistogramBucket]] = [
      [
        .init(start: 0, end: 100, count: 50), .init(start: 100, end: 400, count: 60),
        .init(start: 400, end: 700, count: 30),
      ],
      [.init(start: 0, end: 10, count: 1), .init(start: 50, end: 60, count: 1)],
      [.init(start: 1, end: 1, count: 20), .init(start: 2, end: 2, count: 30), .init(start: 3, end: 3, count: 50)],
      [.init(start: 0, end: 10, count: 3), .init(start: 10, end: 10, count: 4), .init(start: 20, end: 30, count: 0)],
      [.init(start: 0, end: 20, count: 10), .init(start: 0, end: 10, count: 10)],
    ]
    let ps = [1.0, 25, 50, 75, 90, 99, 100].compactMap(Percentile.init)
    for buckets in cases {
      var merged = MergedHistogram<Dimension>(unit: UnitDuration.milliseconds)
      merged.add(buckets: buckets)
      // Per-payload statistics are uniform, as the merged path's uniform model.
      let expected = try merged.percentiles(ps, interpolation: .uniform).map(\.value)
      let fast = try buckets.percentileValues(ps)
      for (a, b) in zip(fast, expected) { #expect(abs(a - b) < 1e-9, "\(buckets)") }
    }
    #expect(throws: StatisticsError.empty) { try [HistogramBucket(start: 0, end: 1, count: 0)].percentileValues(ps) }
  }
}
