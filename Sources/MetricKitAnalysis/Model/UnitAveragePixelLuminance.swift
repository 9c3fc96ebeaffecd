import Foundation

/// Average pixel luminance (APL), as MetricKit's `MXUnitAveragePixelLuminance`.
public final class UnitAveragePixelLuminance: Dimension, @unchecked Sendable {
  /// Average pixel luminance, in percent of full white.
  public static let apl = UnitAveragePixelLuminance(
    symbol: "apl", converter: UnitConverterLinear(coefficient: 1))

  public override class func baseUnit() -> Self { unsafeDowncast(apl, to: self) }
}
