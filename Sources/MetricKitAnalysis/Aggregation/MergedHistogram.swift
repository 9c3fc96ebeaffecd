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
  var counts: [Range: Int128]
  /// The total count over all buckets.
  public internal(set) var sampleCount: Int128
  /// How many histograms were merged in.
  public internal(set) var histogramCount: Int

  /// Creates an empty merge in `unit`.
  public init(unit: UnitType) {
    self.unit = unit
    counts = [:]
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

  /// Adds buckets already in this merge's unit.
  mutating func add(buckets: [HistogramBucket]) {
    for bucket in buckets where bucket.count > 0 {
      counts[Range(start: bucket.start, end: bucket.end), default: 0] += Int128(bucket.count)
      sampleCount += Int128(bucket.count)
    }
    histogramCount += 1
  }

  /// Adds every bucket of another merge.
  public mutating func merge(_ other: MergedHistogram<UnitType>) {
    let factor =
      other.unit.symbol == unit.symbol
      ? 1 : Measurement(value: 1, unit: other.unit as Dimension).converted(to: unit).value
    for (range, count) in other.counts {
      counts[Range(start: range.start * factor, end: range.end * factor), default: 0] += count
    }
    sampleCount += other.sampleCount
    histogramCount += other.histogramCount
  }

  /// The buckets, sorted by start then end.
  public var buckets: [Bucket] {
    counts.map { Bucket(range: $0.key, count: $0.value) }.sorted { $0.range < $1.range }
  }

  /// True when no observation was merged in.
  public var isEmpty: Bool { sampleCount == 0 }
}
