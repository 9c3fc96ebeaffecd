import Foundation

/// Hitch time per unit of time, in milliseconds per second (`scrollHitchTimeRatio`).
public final class UnitHitchTimeRatio: Dimension, @unchecked Sendable {
  /// Milliseconds of hitch per second of activity.
  public static let millisecondsPerSecond = UnitHitchTimeRatio(
    symbol: "ms per s", converter: UnitConverterLinear(coefficient: 1))

  public override class func baseUnit() -> Self { unsafeDowncast(millisecondsPerSecond, to: self) }
}
