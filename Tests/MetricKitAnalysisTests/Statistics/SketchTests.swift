import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// Bounded samples: exact sums, the log-bucketed sketch, samples that turn into sketches past their
/// limit, and the rank test on buckets.
@Suite("Sketches")
struct SketchTests {
  static func logNormal(_ n: Int, median: Double, sigma: Double, seed: UInt64) -> [Double] {
    var rng = SplitMix64(seed: seed)
    return (0..<n).map { _ in rng.logNormal(median: median, sigma: sigma) }
  }

  // MARK: ExactSum

  @Test func exactSumMatchesPythonsFsum() {
    // Golden values from Python's math.fsum (a second, independent exact summation).
    func sum(_ values: [Double]) -> ExactSum {
      var s = ExactSum()
      for v in values { s.add(v) }
      return s
    }
    #expect(sum([1e100, 1.0, -1e100, 1e-100]).value == 1.0)
    #expect(sum(Array(repeating: 0.1, count: 10)).value == 1.0)  // naive summation: 0.9999999999999999
    let ramp = (0..<100_000).map { Double($0 % 97) * 0.001 - 0.03 }
    #expect(sum(ramp).value == 1799.6850000000002)  // naive: 1799.6850000000338
    #expect(sum([0.75]).hexadecimal == "0x3p-2")
    #expect(sum([-40]).hexadecimal == "-0xap+2")  // exponents on the 4-bit grid from 2⁻¹⁰⁷⁴
    #expect(sum([5e-324]).hexadecimal == "0x1p-1074")
    #expect(sum([]).hexadecimal == "0x0p+0" && sum([]).value == 0)
    #expect(sum([2, -2]).hexadecimal == "0x0p+0")
    // Across limbs, inner zero digits kept: 1 + 2⁻⁴⁰ = (2⁴² + 4) × 2⁻⁴², 1 + 2⁻¹⁰⁰ = (2¹⁰² + 4) × 2⁻¹⁰².
    #expect(sum([1, 0x1p-40]).hexadecimal == "0x40000000004p-42")
    #expect(sum([-1, -0x1p-100]).hexadecimal == "-0x4" + String(repeating: "0", count: 24) + "4p-102")
    #expect(sum([0x1p200, 0x1p200]).hexadecimal == "0x8p+198")
    #expect(sum([.greatestFiniteMagnitude, .greatestFiniteMagnitude]).value == .infinity)
    #expect(
      sum([.greatestFiniteMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]).value
        == .greatestFiniteMagnitude)
    #expect(sum([1, .nan]).value.isNaN && sum([1, .infinity]).hexadecimal == "inf")
  }

  @Test func exactSumIsOrderIndependentAndRoundTrips() throws {
    var rng = SplitMix64(seed: 5)
    var values: [Double] = []
    for _ in 0..<20_000 {
      let magnitude = Double(sign: .plus, exponent: Int(rng.next() % 2000) - 1050, significand: 1 + rng.unit())
      values.append(rng.unit() < 0.5 ? -magnitude : magnitude)
    }
    values += [5e-324, -5e-324, .leastNormalMagnitude, 1e300, -1e300]
    var forward = ExactSum()
    for v in values { forward.add(v) }
    var shuffled = values
    shuffled.shuffle(using: &rng)
    // In shards, merged in another order.
    var shards = [ExactSum](repeating: ExactSum(), count: 7)
    for (i, v) in shuffled.enumerated() { shards[i % 7].add(v) }
    var merged = ExactSum()
    for shard in shards.reversed() { merged.add(shard) }
    #expect(merged == forward)
    #expect(merged.hexadecimal == forward.hexadecimal && merged.value == forward.value)
    let read = try #require(ExactSum(hexadecimal: forward.hexadecimal))
    #expect(read == forward && read.value == forward.value)
    for bad in ["", "0x", "12", "0xgp+0", "0x1p", "0x1p-2000", "0x1p+2000", "--0x1p+0"] {
      #expect(ExactSum(hexadecimal: bad) == nil, "\(bad)")
    }
  }

  // MARK: LogBucketSketch

  @Test func sketchPercentilesAreWithinOnePercentOfExactTypeSeven() throws {
    for (median, sigma) in [(420.0, 0.35), (0.9, 1.2), (2.4e8, 0.2)] {
      let values = Self.logNormal(200_000, median: median, sigma: sigma, seed: 11)
      let exact = ScalarSample(values, exactLimit: .max)
      let sketched = ScalarSample(values, exactLimit: 1000)
      #expect(exact.sketch == nil && sketched.exactValues == nil && sketched.count == 200_000)
      let percentiles = [1.0, 10, 50, 90, 95, 99, 99.9].compactMap(Percentile.init)
      let e = try exact.summary(percentiles)
      let s = try sketched.summary(percentiles)
      for (a, b) in zip(e.percentiles, s.percentiles) {
        #expect(abs(b - a) <= 0.01 * abs(a), "\(median) \(sigma): \(a) vs \(b)")
      }
      // The mean is exact (an exact sum), whichever form.
      #expect(abs(s.mean - e.mean) <= 1e-12 * e.mean)
      let top = try sketched.percentiles([Percentile(100)!])
      #expect(sketched.maximum == values.max() && top == [values.max()!])
    }
  }

  @Test func sketchHandlesZerosNegativesAndSmallSamples() throws {
    var sketch = LogBucketSketch()
    for v in [-8.0, -1, 0, 0, 0, 2, 4] { sketch.add(v) }
    // Type 7 by hand: h = 6p; p50 is the 4th value (0), p25 between -1 and 0 at 0.5.
    #expect(sketch.quantile(0.5) == 0)
    let p25 = try #require(sketch.quantile(0.25))
    #expect(abs(p25 - (-0.5)) <= 0.01 * 0.5)
    #expect(sketch.quantile(0) == -8 && sketch.quantile(1) == 4)
    let p90 = try #require(sketch.quantile(0.9))  // h = 5.4: 2 + 0.4 × (4 − 2) = 2.8
    #expect(abs(p90 - 2.8) <= 0.01 * 2.8)
    #expect(sketch.mean == -3.0 / 7)
    #expect(sketch.bins.map(\.count) == [1, 1, 3, 1, 1])
  }

  @Test func mergedShardsEqualOnePassInAnyOrder() {
    var values = Self.logNormal(30_000, median: 1800, sigma: 0.8, seed: 3)
    values += (0..<200).map { -Double($0) } + [0, 0, 0]
    let whole = ScalarSample(values, exactLimit: 5000)
    for seed in [1, 2, 3] as [UInt64] {
      var rng = SplitMix64(seed: seed)
      var shuffled = values
      shuffled.shuffle(using: &rng)
      // Shards of uneven sizes, some below the limit (exact) and some above (sketches).
      var shards: [ScalarSample] = []
      var start = 0
      while start < shuffled.count {
        let size = 100 + Int(rng.next() % 9000)
        shards.append(ScalarSample(Array(shuffled[start..<min(start + size, shuffled.count)]), exactLimit: 5000))
        start += size
      }
      #expect(shards.contains { $0.sketch == nil } && shards.contains { $0.sketch != nil })
      var merged = ScalarSample(exactLimit: 5000)
      for shard in shards { merged.merge(shard) }
      #expect(merged.sketch == whole.sketch)
      #expect(VersionSnapshot.json(merged).rendered == VersionSnapshot.json(whole).rendered)
      // Appended one value at a time: exact up to the limit, then into the sketch it folded into.
      var appended = ScalarSample(exactLimit: 5000)
      for value in shuffled { appended.append(value) }
      #expect(appended.count == values.count)
      #expect(appended.sketch == whole.sketch)
    }
  }

  /// Σx and Σx² of an exact sample are its values' and its squares' sums in ascending order, whatever
  /// order the values came in; with negative values too (whose squares do not ascend with them).
  @Test func sumsAreTheAscendingSumsOfValuesAndSquares() {
    for negatives in [false, true] {
      var values = Self.logNormal(5000, median: 1800, sigma: 0.8, seed: 9) + [0, 0, 1e-300, 3e15]
      if negatives { values += (0..<300).map { -Double($0) * 7.25 } }
      let squares = values.map { $0 * $0 }.sorted()
      var rng = SplitMix64(seed: 4)
      for _ in 0..<3 {
        values.shuffle(using: &rng)
        let sample = ScalarSample(values, exactLimit: 10_000)
        let sums = sample.sums
        // Compared as bits: the sums must not depend on anything but the values.
        #expect(sums.values.bitPattern == values.sorted().reduce(0, +).bitPattern)
        #expect(sums.squares.bitPattern == squares.reduce(0, +).bitPattern)
        #expect(sample.sum.bitPattern == sums.values.bitPattern)
        #expect(sample.sumOfSquares.bitPattern == sums.squares.bitPattern)
      }
    }
  }

  @Test func theSpanIsBoundedWhateverTheOrder() {
    // 600 decades: far more than 4096 buckets of 1%.
    let values = (0..<6000).map { pow(10, Double($0) / 10 - 300) }
    var ascending = LogBucketSketch()
    for v in values { ascending.add(v) }
    var descending = LogBucketSketch()
    for v in values.reversed() { descending.add(v) }
    var halves = LogBucketSketch()
    var other = LogBucketSketch()
    for (i, v) in values.enumerated() {
      if i % 2 == 0 { halves.add(v) } else { other.add(v) }
    }
    halves.merge(other)
    #expect(ascending.positive.counts.count == LogBucketSketch.maximumBuckets)
    #expect(ascending == descending && ascending == halves)
    // The top 35 decades keep their accuracy.
    let p99 = ascending.quantile(0.99)!
    let exact = values[Int((Double(values.count - 1) * 0.99).rounded(.down))]
    #expect(abs(p99 - exact) <= 0.02 * exact)
  }

  // MARK: Samples past their limit

  @Test func rateSamplesKeepExactPooledRatesPastTheirLimit() {
    var rng = SplitMix64(seed: 9)
    var exact = RateSample(exactLimit: .max)
    var bounded = RateSample(exactLimit: 100)
    var pairs: [(Double, Double)] = []
    for _ in 0..<5000 {
      let hours = 0.05 + rng.unit() * 3
      let hang = rng.unit() < 0.3 ? 0 : rng.logNormal(median: 1.2, sigma: 1) * hours
      pairs.append((hang, rng.unit() < 0.02 ? 0 : hours))
    }
    for (n, d) in pairs {
      exact.append(numerator: n, denominator: d)
      bounded.append(numerator: n, denominator: d)
    }
    #expect(bounded.pairs == nil && exact.pairs?.count == 5000)
    // The same exact sums, so the same bits.
    #expect(bounded.pooledRate == exact.pooledRate)
    #expect(bounded.perPayloadRates.count == pairs.filter { $0.1 > 0 }.count)
    // Merged from halves in either order.
    var a = RateSample(exactLimit: 100)
    var b = RateSample(exactLimit: 100)
    for (i, (n, d)) in pairs.enumerated() {
      if i < 60 { a.append(numerator: n, denominator: d) } else { b.append(numerator: n, denominator: d) }
    }
    var ab = a
    ab.merge(b)
    var ba = b
    ba.merge(a)
    #expect(ab == ba && ab == bounded)
    #expect(VersionSnapshot.json(ab).rendered == VersionSnapshot.json(bounded).rendered)
  }

  /// A sample merged into an empty one is taken as it is, under the smaller of the two limits (folded
  /// when it holds more); merged into one that holds values, its values follow them.
  @Test func mergingIntoAnEmptySampleTakesTheOtherUnderTheSmallerLimit() {
    let values: [Double] = [3, 1.5, 8, 0, 2]
    let pairs: [(Double, Double)] = [(0.5, 2), (0, 1), (3, 0), (1, 4), (2.5, 0.5)]
    for limit in [2, 5, 100] {
      var scalar = ScalarSample(exactLimit: limit)
      scalar.merge(ScalarSample(values, exactLimit: 10))
      #expect(scalar == ScalarSample(values, exactLimit: min(limit, 10)))
      #expect(scalar.exactValues == (limit < values.count ? nil : values))
      var rate = RateSample(exactLimit: limit)
      var theirs = RateSample(exactLimit: 10)
      var appended = RateSample(exactLimit: min(limit, 10))
      for (n, d) in pairs {
        theirs.append(numerator: n, denominator: d)
        appended.append(numerator: n, denominator: d)
      }
      rate.merge(theirs)
      #expect(rate == appended)
      #expect(rate.exactLimit == min(limit, 10))
      #expect((rate.pairs == nil) == (limit < pairs.count))
    }
    var scalar = ScalarSample([7, 7.5], exactLimit: 10)
    scalar.merge(ScalarSample(values, exactLimit: 10))
    #expect(scalar.exactValues == [7, 7.5] + values)
    var rate = RateSample(exactLimit: 10)
    rate.append(numerator: 9, denominator: 3)
    var theirs = RateSample(exactLimit: 10)
    for (n, d) in pairs { theirs.append(numerator: n, denominator: d) }
    rate.merge(theirs)
    #expect(rate.pairs?.map(\.numerator) == [9] + pairs.map(\.0))
    #expect(rate.count == 6)
  }

  @Test func rankTestOnBucketsEqualsTheExactTestWhenValuesAreRepresentatives() throws {
    // Values that are bucket representatives lose nothing to binning: the two tests must agree.
    var rng = SplitMix64(seed: 21)
    let baseline = (0..<800).map { _ in LogBucketSketch.representative(600 + Int(rng.next() % 60)) }
    let candidate = (0..<700).map { _ in LogBucketSketch.representative(604 + Int(rng.next() % 60)) }
    let exact = try MannWhitneyTest(baseline: baseline, candidate: candidate)
    let binned = try MannWhitneyTest(
      baseline: ScalarSample(baseline, exactLimit: 10), candidate: ScalarSample(candidate, exactLimit: .max))
    #expect(abs(binned.u - exact.u) <= 1e-9 * exact.u)
    #expect(abs(binned.pValue - exact.pValue) <= 1e-9)
    #expect(exact.pValue < 0.01)
  }

  @Test func rankTestOnBucketsStaysCloseOnContinuousData() throws {
    // A 3% shift of log-normal launch times, 3,000 payloads a side.
    let b = Self.logNormal(3000, median: 420, sigma: 0.35, seed: 1)
    let c = Self.logNormal(3000, median: 420, sigma: 0.35, seed: 2).map { $0 * 1.03 }
    let exact = try MannWhitneyTest(baseline: b, candidate: c)
    let binned = try MannWhitneyTest(
      baseline: ScalarSample(b, exactLimit: 0), candidate: ScalarSample(c, exactLimit: 0))
    #expect(abs(binned.z - exact.z) <= 0.02 * abs(exact.z), "\(exact.z) vs \(binned.z)")
    let same = try MannWhitneyTest(
      baseline: ScalarSample(b, exactLimit: 0),
      candidate: ScalarSample(Self.logNormal(3000, median: 420, sigma: 0.35, seed: 3), exactLimit: 0))
    #expect(same.pValue > 0.01)
  }
}

extension JSONWriter.Value {
  /// The value's compact JSON text (tests compare snapshots' pieces byte for byte).
  var rendered: String { JSONWriter.compact(self) }
}
