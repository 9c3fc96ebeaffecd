import Foundation

/// MetricKit 27's `AverageStatistics<D>` (the successor of `MXAverage`): an average, the number of
/// samples, and their standard deviation when known.
public struct AverageStatistics<D: Dimension>: Sendable, Hashable {
  /// The average.
  public let average: Measurement<D>
  /// The number of samples.
  public let count: Int
  /// The standard deviation, in the average's unit; nil when unknown.
  public let standardDeviation: Measurement<D>?

  /// Creates statistics.
  public init(average: Measurement<D>, count: Int, standardDeviation: Measurement<D>? = nil) {
    self.average = average
    self.count = count
    self.standardDeviation = standardDeviation
  }
}
