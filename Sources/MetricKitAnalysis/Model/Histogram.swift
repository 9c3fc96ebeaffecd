import Foundation

/// A histogram as MetricKit reports it (`MXHistogram`): buckets `[start, end)` with counts.
///
/// Values are stored in `unit` (milliseconds for durations, bars for signal strength). Buckets are
/// in index order; MetricKit writes only non-empty buckets, so there may be gaps between them. A
/// bucket whose start equals its end is a point mass at that value.
public struct Histogram<UnitType: Dimension>: Sendable, Hashable {
  /// One bucket of this histogram.
  public typealias Bucket = HistogramBucket

  /// The unit of every edge.
  public let unit: UnitType
  /// The non-empty buckets, in index order.
  public let buckets: [Bucket]
  /// `histogramNumBuckets` as written, which may disagree with the entries present.
  public let declaredBucketCount: Int?
  /// The sum of all bucket counts (128-bit: counts up to 2⁶³ − 1 cannot overflow it).
  public let sampleCount: Int128

  /// Creates a histogram; nil when a count is negative, an edge is not finite, or a bucket's start
  /// is above its end.
  public init?(unit: UnitType, buckets: [Bucket], declaredBucketCount: Int? = nil) {
    var total: Int128 = 0
    for bucket in buckets {
      guard bucket.count >= 0, bucket.start.isFinite, bucket.end.isFinite, bucket.start <= bucket.end else {
        return nil
      }
      total += Int128(bucket.count)
    }
    self.unit = unit
    self.buckets = buckets
    self.declaredBucketCount = declaredBucketCount
    self.sampleCount = total
  }

  /// The number of buckets present (MetricKit's `totalBucketCount`).
  public var totalBucketCount: Int { buckets.count }

  /// True when `histogramNumBuckets` disagreed with the entries present.
  public var hasBucketCountMismatch: Bool {
    declaredBucketCount.map { $0 != buckets.count } ?? false
  }

  /// A bucket's start as a measurement.
  public func bucketStart(_ bucket: Bucket) -> Measurement<UnitType> {
    Measurement(value: bucket.start, unit: unit)
  }

  /// A bucket's end as a measurement.
  public func bucketEnd(_ bucket: Bucket) -> Measurement<UnitType> {
    Measurement(value: bucket.end, unit: unit)
  }
}

/// One histogram bucket: `count` observations somewhere in `[start, end)` (exactly at `start` when the
/// two are equal), in the histogram's unit.
public struct HistogramBucket: Sendable, Hashable {
  /// The lower edge.
  public var start: Double
  /// The upper edge.
  public var end: Double
  /// The number of observations.
  public var count: Int

  /// Creates a bucket.
  public init(start: Double, end: Double, count: Int) {
    self.start = start
    self.end = end
    self.count = count
  }
}
