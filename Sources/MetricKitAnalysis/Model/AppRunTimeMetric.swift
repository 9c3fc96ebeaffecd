import Foundation

/// Time spent running (`applicationTimeMetrics`, `MXAppRunTimeMetric`), in seconds.
public struct AppRunTimeMetric: Sendable, Hashable {
  /// Time in the foreground.
  public var cumulativeForegroundTime: Measurement<UnitDuration>?
  /// Time in the background.
  public var cumulativeBackgroundTime: Measurement<UnitDuration>?
  /// Time playing audio in the background.
  public var cumulativeBackgroundAudioTime: Measurement<UnitDuration>?
  /// Time using location in the background.
  public var cumulativeBackgroundLocationTime: Measurement<UnitDuration>?

  /// Creates an empty section.
  public init() {}
}
