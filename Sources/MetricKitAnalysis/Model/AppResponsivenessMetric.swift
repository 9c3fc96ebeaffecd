import Foundation

/// Hangs (`applicationResponsivenessMetrics`, `MXAppResponsivenessMetric`), in milliseconds.
public struct AppResponsivenessMetric: Sendable, Hashable {
  /// Hang durations (JSON key `histogrammedAppHangTime`). The last bucket collects everything above it.
  public var histogrammedApplicationHangTime: Histogram<UnitDuration>?

  /// Creates an empty section.
  public init() {}
}
