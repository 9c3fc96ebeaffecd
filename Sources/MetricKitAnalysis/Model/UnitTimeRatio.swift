import Foundation

/// Time per time: the hang rate (seconds of hang per hour of foreground time, as Xcode Organizer shows
/// it) and hitch ratios (milliseconds of hitch per second, MetricKit's `ms per s`). The base unit is
/// seconds per second, so either converts to the other.
public final class UnitTimeRatio: Dimension, @unchecked Sendable {
  /// Seconds per second: the base unit, a plain fraction of time.
  public static let secondsPerSecond = UnitTimeRatio(symbol: "s/s", converter: UnitConverterLinear(coefficient: 1))
  /// Milliseconds per second (`scrollHitchTimeRatio`, the scroll hitch rate).
  public static let millisecondsPerSecond = UnitTimeRatio(
    symbol: "ms per s", converter: UnitConverterLinear(coefficient: 0.001))
  /// Seconds per hour (the hang rate).
  public static let secondsPerHour = UnitTimeRatio(
    symbol: "s/h", converter: UnitConverterLinear(coefficient: 1.0 / 3600))

  public override class func baseUnit() -> Self { unsafeDowncast(secondsPerSecond, to: self) }
}

/// MetricKit's hitch-time ratio: a ``UnitTimeRatio`` (this name is kept for code written against it).
public typealias UnitHitchTimeRatio = UnitTimeRatio
