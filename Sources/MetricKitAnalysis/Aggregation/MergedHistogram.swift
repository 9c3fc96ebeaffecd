import Foundation

/// Histograms of one metric merged exactly: counts of identical buckets are added, other buckets are
/// kept side by side, whatever the layouts. Merging is associative and order-independent.
public struct MergedHistogram<UnitType: Dimension>: Sendable {
  /// A bucket's edges, the identity under which counts are added.
  public struct Range: Sendable, Hashable, Comparable {
    /// The lower edge.
    public var start: Double
    /// The upper edge.
    public var end: Double

    public static func < (a: Range, b: Range) -> Bool { (a.start, a.end) < (b.start, b.end) }
  }

  /// A merged bucket.
  public struct Bucket: Sendable, Hashable {
    /// The edges.
    public var range: Range
    /// The total count.
    public var count: Int128
  }

  /// The unit of every edge.
  public let unit: UnitType
  /// The buckets, sorted by range: a sorted array merges faster than a hash table (layouts repeat, so
  /// most additions find their bucket by binary search and add a count).
  private var storage: [Bucket]
  /// The total count over all buckets.
  public internal(set) var sampleCount: Int128
  /// How many histograms were merged in.
  public internal(set) var histogramCount: Int

  /// Creates an empty merge in `unit`.
  public init(unit: UnitType) {
    self.unit = unit
    storage = []
    sampleCount = 0
    histogramCount = 0
  }

  /// Creates a merge holding one histogram.
  public init(_ histogram: Histogram<UnitType>) {
    self.init(unit: histogram.unit)
    add(histogram)
  }

  /// Adds one histogram's buckets. Edges in another unit of the same dimension are converted.
  public mutating func add<V: Dimension>(_ histogram: Histogram<V>) {
    if histogram.unit.symbol == unit.symbol {
      add(buckets: histogram.buckets)
    } else {
      let factor = Measurement(value: 1, unit: histogram.unit as Dimension).converted(to: unit).value
      add(
        buckets: histogram.buckets.map {
          HistogramBucket(start: $0.start * factor, end: $0.end * factor, count: $0.count)
        })
    }
  }

  /// Adds buckets already in this merge's unit, as one histogram.
  mutating func add(buckets: [HistogramBucket]) {
    // Buckets usually come in ascending order: each search starts where the last one ended.
    var from = 0
    for bucket in buckets where bucket.count > 0 {
      let range = Range(start: bucket.start, end: bucket.end)
      if from > 0 && range < storage[from - 1].range { from = 0 }
      from = add(range: range, count: Int128(bucket.count), searchingFrom: from) + 1
    }
    histogramCount += 1
  }

  /// Adds `count` observations to one bucket.
  mutating func add(range: Range, count: Int128) {
    _ = add(range: range, count: count, searchingFrom: 0)
  }

  /// Adds `count` observations to one bucket, searching at or after `from`; returns its position.
  @discardableResult
  private mutating func add(range: Range, count: Int128, searchingFrom from: Int) -> Int {
    guard count > 0 else { return from }
    if from < storage.count && storage[from].range == range {
      storage[from].count += count
      sampleCount += count
      return from
    }
    var lo = from
    var hi = storage.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if storage[mid].range < range { lo = mid + 1 } else { hi = mid }
    }
    if lo < storage.count && storage[lo].range == range {
      storage[lo].count += count
    } else {
      storage.insert(Bucket(range: range, count: count), at: lo)
    }
    sampleCount += count
    return lo
  }

  /// Adds every bucket of another merge.
  public mutating func merge(_ other: MergedHistogram<UnitType>) {
    let factor =
      other.unit.symbol == unit.symbol
      ? 1 : Measurement(value: 1, unit: other.unit as Dimension).converted(to: unit).value
    for bucket in other.storage {
      add(range: Range(start: bucket.range.start * factor, end: bucket.range.end * factor), count: bucket.count)
    }
    histogramCount += other.histogramCount
  }

  /// The buckets, sorted by start then end.
  public var buckets: [Bucket] { storage }

  /// True when no observation was merged in.
  public var isEmpty: Bool { sampleCount == 0 }
}
