import Foundation

/// Cellular signal strength in bars, as MetricKit's `MXUnitSignalBars`.
public final class UnitSignalBars: Dimension, @unchecked Sendable {
  /// One bar of signal.
  public static let bars = UnitSignalBars(symbol: "bars", converter: UnitConverterLinear(coefficient: 1))

  public override class func baseUnit() -> Self {
    // `bars` is an instance of this class; the cast cannot fail.
    unsafeDowncast(bars, to: self)
  }
}
