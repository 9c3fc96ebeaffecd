import Foundation

/// A mergeable summary of a large sample with a relative-error guarantee (DDSketch, Masson, Rim &
/// Lee, VLDB 2019): each value is counted in the bucket (γⁱ⁻¹, γⁱ] of its magnitude, γ = (1 + α) ÷
/// (1 − α), and stands for the bucket's representative 2γⁱ ÷ (γ + 1), within α = 1% of it.
///
/// - Percentiles are type 7 (as ``ScalarSample``'s exact ones) over the representatives, clamped to the
///   exact minimum and maximum: within 1% of the exact type-7 percentile when the values have one sign.
/// - The mean is exact: the sum is an ``ExactSum``.
/// - The Mann–Whitney test runs on the buckets as tied values (``MannWhitneyTest``).
/// - Merging adds counts: associative and order-independent, so merged shards equal one pass.
///
/// At most ``maximumBuckets`` buckets are kept per sign: beyond that span (about 35 decades) the
/// smallest magnitudes are counted in the lowest kept bucket, whatever the order values came in.
public struct LogBucketSketch: Sendable, Hashable {
  /// α, the relative error of a representative.
  public static let relativeAccuracy = 0.01
  /// The most buckets kept per sign.
  public static let maximumBuckets = 4096
  static let gamma = (1 + relativeAccuracy) / (1 - relativeAccuracy)
  private static let logGamma = log(gamma)

  /// Bucket counts of one sign: `counts[k]` is bucket `first + k`.
  struct Store: Sendable, Hashable {
    var first = 0
    var counts: [Int] = []

    /// The highest index counted, nil when empty.
    var last: Int? { counts.isEmpty ? nil : first + counts.count - 1 }

    mutating func add(_ index: Int, count: Int) {
      guard count > 0 else { return }
      if let last, index >= first, index <= last {
        counts[index - first] += count
      } else {
        cover(index, index)
        counts[Swift.max(index, first) - first] += count
      }
    }

    /// Adds another store's counts.
    mutating func add(_ other: Store) {
      guard let otherLast = other.last else { return }
      cover(other.first, otherLast)
      for (k, n) in other.counts.enumerated() where n > 0 { counts[Swift.max(other.first + k, first) - first] += n }
    }

    /// Widens the range to hold indices `low…high`, keeping at most `maximumBuckets`: counts below
    /// the kept range go to its lowest bucket. Where values land depends only on the highest index
    /// ever seen, so the store does not depend on the order of additions.
    private mutating func cover(_ low: Int, _ high: Int) {
      let top = Swift.max(last ?? high, high)
      let bottom = Swift.max(Swift.min(counts.isEmpty ? low : first, low), top - LogBucketSketch.maximumBuckets + 1)
      guard bottom != first || top != last else { return }
      var rebuilt = [Int](repeating: 0, count: top - bottom + 1)
      for (k, n) in counts.enumerated() where n > 0 { rebuilt[Swift.max(first + k, bottom) - bottom] += n }
      first = bottom
      counts = rebuilt
    }

    /// The non-empty buckets, ascending by index.
    var buckets: [(index: Int, count: Int)] {
      counts.enumerated().compactMap { $0.element > 0 ? (first + $0.offset, $0.element) : nil }
    }
  }

  /// The number of values.
  public private(set) var count = 0
  /// Their exact sum.
  public private(set) var sum = ExactSum()
  /// The smallest value (exact); +∞ when empty.
  public private(set) var minimum = Double.infinity
  /// The largest value (exact); −∞ when empty.
  public private(set) var maximum = -Double.infinity
  private(set) var zeroCount = 0
  private(set) var positive = Store()
  private(set) var negative = Store()

  /// Creates an empty sketch.
  public init() {}

  /// The bucket index of a positive magnitude.
  static func index(_ magnitude: Double) -> Int {
    Int((log(magnitude) / logGamma).rounded(.up))
  }

  /// The representative of a bucket: within α of every magnitude in it.
  static func representative(_ index: Int) -> Double {
    2 * pow(gamma, Double(index)) / (gamma + 1)
  }

  /// Adds one finite value (others are not counted; ``ScalarSample`` never passes them).
  public mutating func add(_ x: Double) {
    guard x.isFinite else { return }
    count += 1
    sum.add(x)
    minimum = Swift.min(minimum, x)
    maximum = Swift.max(maximum, x)
    if x > 0 {
      positive.add(Self.index(x), count: 1)
    } else if x < 0 {
      negative.add(Self.index(-x), count: 1)
    } else {
      zeroCount += 1
    }
  }

  /// Adds another sketch's values.
  public mutating func merge(_ other: LogBucketSketch) {
    count += other.count
    sum.add(other.sum)
    minimum = Swift.min(minimum, other.minimum)
    maximum = Swift.max(maximum, other.maximum)
    zeroCount += other.zeroCount
    positive.add(other.positive)
    negative.add(other.negative)
  }

  /// The exact mean; nil when empty.
  public var mean: Double? { count > 0 ? sum.value / Double(count) : nil }

  /// The buckets in ascending order of value, each as its (unclamped) representative and count:
  /// equal buckets of two sketches have equal representatives, so they tie in a rank test.
  public var bins: [(value: Double, count: Int)] {
    negative.buckets.reversed().map { (-Self.representative($0.index), $0.count) }
      + (zeroCount > 0 ? [(0, zeroCount)] : [])
      + positive.buckets.map { (Self.representative($0.index), $0.count) }
  }

  /// The type-7 percentile at probability `p` in [0, 1]: linear interpolation between the
  /// representatives of order statistics ⌊h⌋ and ⌊h⌋ + 1, h = (n − 1)p; nil when empty.
  public func quantile(_ p: Double) -> Double? {
    guard count > 0, p >= 0, p <= 1 else { return nil }
    return quantile(p, bins: bins)
  }

  /// Type-7 percentiles at several probabilities in [0, 1], from one list of buckets; those out of
  /// range are left out, all when empty.
  public func quantiles(_ probabilities: [Double]) -> [Double] {
    guard count > 0 else { return [] }
    let bins = self.bins
    return probabilities.compactMap { p in p >= 0 && p <= 1 ? quantile(p, bins: bins) : nil }
  }

  private func quantile(_ p: Double, bins: [(value: Double, count: Int)]) -> Double {
    let h = Double(count - 1) * p
    let lower = Int(h.rounded(.down))
    let fraction = h - Double(lower)
    func orderStatistic(_ k: Int) -> Double {
      if k <= 0 { return minimum }
      if k >= count - 1 { return maximum }
      var seen = 0
      for bin in bins {
        seen += bin.count
        if k < seen { return Swift.min(Swift.max(bin.value, minimum), maximum) }
      }
      return maximum
    }
    let a = orderStatistic(lower)
    guard fraction > 0 else { return a }
    return a + fraction * (orderStatistic(lower + 1) - a)
  }

  /// Rebuilds a sketch from its parts (reading snapshots); nil when they disagree.
  init?(
    count: Int, sum: ExactSum, minimum: Double, maximum: Double, zeroCount: Int,
    positive: [(index: Int, count: Int)], negative: [(index: Int, count: Int)]
  ) {
    self.count = count
    self.sum = sum
    self.minimum = minimum
    self.maximum = maximum
    self.zeroCount = zeroCount
    for (i, n) in positive {
      guard n > 0 else { return nil }
      self.positive.add(i, count: n)
    }
    for (i, n) in negative {
      guard n > 0 else { return nil }
      self.negative.add(i, count: n)
    }
    let counted = zeroCount + self.positive.counts.reduce(0, +) + self.negative.counts.reduce(0, +)
    guard count > 0, counted == count, minimum <= maximum, zeroCount >= 0 else { return nil }
  }
}
