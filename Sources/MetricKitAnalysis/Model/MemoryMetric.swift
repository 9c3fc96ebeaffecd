import Foundation

/// Memory use (`memoryMetrics`, `MXMemoryMetric`), in megabytes (10⁶ bytes).
public struct MemoryMetric: Sendable, Hashable {
  /// The peak memory footprint.
  public var peakMemoryUsage: Measurement<UnitInformationStorage>?
  /// The average memory while suspended.
  public var averageSuspendedMemory: AverageMeasurement<UnitInformationStorage>?

  /// Creates an empty section.
  public init() {}
}
