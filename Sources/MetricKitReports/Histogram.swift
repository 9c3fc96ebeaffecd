import Foundation

/// MetricKit 27's `Histogram<D>`: buckets with measured bounds and a count, in order.
public struct Histogram<D: Dimension>: Sendable, Hashable {
  /// One bucket: `count` observations between `lowerBound` and `upperBound`.
  public struct Bucket: Sendable, Hashable {
    /// The number of observations.
    public let count: Int
    /// The lower bound.
    public let lowerBound: Measurement<D>
    /// The upper bound.
    public let upperBound: Measurement<D>

    /// Creates a bucket.
    public init(count: Int, lowerBound: Measurement<D>, upperBound: Measurement<D>) {
      self.count = count
      self.lowerBound = lowerBound
      self.upperBound = upperBound
    }
  }

  /// The buckets, in order.
  public let buckets: [Bucket]

  /// Creates a histogram.
  public init(buckets: [Bucket]) { self.buckets = buckets }
}
