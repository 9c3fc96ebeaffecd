import Foundation

/// Display use (`displayMetrics`, `MXDisplayMetric`).
public struct DisplayMetric: Sendable, Hashable {
  /// The average pixel luminance of the app's frames.
  public var averagePixelLuminance: AverageMeasurement<UnitAveragePixelLuminance>?

  /// Creates an empty section.
  public init() {}
}
