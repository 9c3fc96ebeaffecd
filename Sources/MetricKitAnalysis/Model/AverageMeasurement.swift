import Foundation

/// An average with its spread, as MetricKit's `MXAverage` (`averageSuspendedMemory`,
/// `averagePixelLuminance`).
public struct AverageMeasurement<UnitType: Dimension>: Sendable, Hashable {
  /// The mean value.
  public var averageMeasurement: Measurement<UnitType>
  /// The standard deviation, in the same unit; `nil` when MetricKit wrote −1 (no samples).
  public var standardDeviation: Double?
  /// The number of samples behind the mean; 0 means the mean carries no information.
  public var sampleCount: Int

  /// Creates an average.
  public init(averageMeasurement: Measurement<UnitType>, standardDeviation: Double?, sampleCount: Int) {
    self.averageMeasurement = averageMeasurement
    self.standardDeviation = standardDeviation
    self.sampleCount = sampleCount
  }
}
