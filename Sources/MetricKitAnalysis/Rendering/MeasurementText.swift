import Foundation

/// Measurements as short text, value and unit symbol with digits chosen by magnitude — what the
/// reports print, for scripts on Linux, where swift-corelibs-foundation has no `MeasurementFormatter`.
///
/// ```swift
/// MeasurementText.string(Measurement(value: 412.34, unit: UnitDuration.milliseconds))  // "412 ms"
/// MeasurementText.string(Measurement(value: 1.5, unit: UnitDuration.seconds))          // "1.50 s"
/// ```
public enum MeasurementText {
  /// The value with its unit's symbol: 0 decimals from 100 up, 1 from 10, 2 from 1, else 4 (`0` for
  /// zero); `–` for a value that is not finite.
  public static func string<U: Unit>(_ measurement: Measurement<U>) -> String {
    let number = number(measurement.value)
    let symbol = measurement.unit.symbol
    return symbol.isEmpty ? number : "\(number) \(symbol)"
  }

  /// A number alone, with the same digits.
  public static func number(_ value: Double) -> String { NumberFormatting.text(value) }
}
