import Foundation

/// Disk writes (`diskIOMetrics`, `MXDiskIOMetric`).
public struct DiskIOMetric: Sendable, Hashable {
  /// Logical writes, in megabytes (10⁶ bytes).
  public var cumulativeLogicalWrites: Measurement<UnitInformationStorage>?

  /// Creates an empty section.
  public init() {}
}
