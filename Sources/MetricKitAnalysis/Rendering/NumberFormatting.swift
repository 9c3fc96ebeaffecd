import Foundation

/// How numbers read in text, Markdown and CSV output: fixed decimals chosen by magnitude.
enum NumberFormatting {
  /// A value with a few significant decimals: 1234 → "1234", 12.345 → "12.3", 0.01234 → "0.0123".
  static func text(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    let magnitude = value.magnitude
    let decimals: Int
    if magnitude >= 1000 || value == value.rounded() && magnitude < 1e15 {
      decimals = magnitude >= 1000 ? 0 : (value == value.rounded() ? 0 : 1)
    } else if magnitude >= 10 {
      decimals = 1
    } else if magnitude >= 1 {
      decimals = 2
    } else {
      decimals = 4
    }
    return String(format: "%.\(decimals)f", value)
  }
}
