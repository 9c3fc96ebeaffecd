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

  /// Adds buckets already in this merge's unit, as one histogram. A bucket whose range is held
  /// already adds its count in place (found by a search forward from the last one found); the new
  /// ones are sorted and merged in in one pass, so no input order makes merging quadratic.
  mutating func add(buckets: [HistogramBucket]) {
    var new: [Bucket] = []
    var added: Int128 = 0
    storage.withUnsafeMutableBufferPointer { held in
      var from = 0
      for bucket in buckets where bucket.count > 0 {
        let range = Range(start: bucket.start, end: bucket.end)
        let count = Int128(bucket.count)
        if let i = Self.position(of: range, in: UnsafeBufferPointer(held), from: &from) {
          held[i].count += count
          added += count
        } else {
          new.append(Bucket(range: range, count: count))
        }
      }
    }
    sampleCount += added
    if !new.isEmpty { insert(new) }
    histogramCount += 1
  }

  /// Creates a merge of `buckets` in any order (reading snapshots): sorted once, equal ranges added.
  init(unit: UnitType, buckets: [Bucket], histogramCount: Int) {
    self.init(unit: unit)
    insert(buckets)
    self.histogramCount = histogramCount
  }

  /// The position of `range` in `held` (sorted) when it is there, else nil, searching from `from`
  /// and leaving `from` where the next search starts. Buckets usually come in ascending order and a
  /// histogram holds a subset of the edges merged so far, so the next range is a few places on: the
  /// search gallops forward from `from` (1, 2, 4… places) and then halves the last step, a handful of
  /// comparisons where a search of the whole rest would take its logarithm. A range below the last
  /// one found starts again from the beginning.
  private static func position(of range: Range, in held: UnsafeBufferPointer<Bucket>, from: inout Int) -> Int? {
    if from > 0 && range < held[from - 1].range { from = 0 }
    var lo = from
    var probe = from
    var step = 1
    while probe < held.count && held[probe].range < range {
      lo = probe + 1
      probe += step
      step &*= 2
    }
    var hi = min(probe, held.count)
    while lo < hi {
      let mid = (lo + hi) / 2
      if held[mid].range < range { lo = mid + 1 } else { hi = mid }
    }
    from = lo
    guard lo < held.count && held[lo].range == range else { return nil }
    from = lo + 1
    return lo
  }

  /// Adds buckets in any order: sorted (n log n), then merged with the held ones in one pass.
  private mutating func insert(_ buckets: [Bucket]) {
    let sorted = buckets.filter { $0.count > 0 }.sorted { $0.range < $1.range }
    var merged: [Bucket] = []
    merged.reserveCapacity(storage.count + sorted.count)
    var i = 0
    var j = 0
    while i < storage.count || j < sorted.count {
      let next: Bucket
      if j == sorted.count || (i < storage.count && storage[i].range <= sorted[j].range) {
        next = storage[i]
        i += 1
      } else {
        next = sorted[j]
        j += 1
        sampleCount += next.count
      }
      if let last = merged.last, last.range == next.range {
        merged[merged.count - 1].count += next.count
      } else {
        merged.append(next)
      }
    }
    storage = merged
  }

  /// Adds every bucket of another merge.
  public mutating func merge(_ other: MergedHistogram<UnitType>) {
    let factor =
      other.unit.symbol == unit.symbol
      ? 1 : Measurement(value: 1, unit: other.unit as Dimension).converted(to: unit).value
    insert(
      factor == 1
        ? other.storage
        : other.storage.map {
          Bucket(range: Range(start: $0.range.start * factor, end: $0.range.end * factor), count: $0.count)
        })
    histogramCount += other.histogramCount
  }

  /// The buckets, sorted by start then end.
  public var buckets: [Bucket] { storage }

  /// True when no observation was merged in.
  public var isEmpty: Bool { sampleCount == 0 }
}
