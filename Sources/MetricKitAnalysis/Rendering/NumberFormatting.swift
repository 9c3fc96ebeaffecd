import Foundation

/// How numbers read in text and Markdown output: decimals chosen by magnitude, so that a column of
/// milliseconds reads `1862`, `352.6`, `2.30`, `0.0123`.
enum NumberFormatting {
  /// The value with 0 decimals from 100 up, 1 from 10, 2 from 1, else 4.
  static func text(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    let magnitude = value.magnitude
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : value == 0 ? 0 : 4
    return String(format: "%.\(decimals)f", value)
  }

  /// A fraction as a percentage without trailing zeros: 0.05 → `5%`, 0.125 → `12.5%`.
  static func percentText(_ fraction: Double) -> String {
    let percent = fraction * 100
    let rounded = (percent * 1000).rounded() / 1000
    return (rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)) + "%"
  }
}
