import Foundation

/// Why a rule-file quantity could not be read.
struct QuantityError: Error {
  var message: String
}

/// Reads the quantities of rule files: relative changes (`"10%"`) and amounts in a metric's unit
/// (`"25 ms"`, `"1.5 s"`, `"200 MB"`, `"0.5 s/h"`, or a bare number in the metric's canonical unit).
enum RuleQuantity {
  /// A relative change: `"10%"` is 0.1; a bare number is a fraction and must be at most 1.
  static func relative(_ text: String) -> Result<Double, QuantityError> {
    let t = text.trimmingCharacters(in: .whitespaces)
    if t.hasSuffix("%") {
      guard let v = Double(decimal: t.dropLast().trimmingCharacters(in: .whitespaces)), v >= 0 else {
        return .failure(QuantityError(message: "'\(text)' is not a percentage such as \"10%\""))
      }
      return .success(v / 100)
    }
    guard let v = Double(decimal: t), v >= 0 else {
      return .failure(QuantityError(message: "'\(text)' is not a percentage such as \"10%\""))
    }
    guard v <= 1 else {
      return .failure(
        QuantityError(message: "'\(text)' is ambiguous: write \"\(t)%\" (a bare number is a fraction, 0.1 = 10%)"))
    }
    return .success(v)
  }

  /// An amount converted to `unit`, the metric's canonical unit; never negative.
  static func amount(_ text: String, unit: MetricUnit) -> Result<Double, QuantityError> {
    let t = text.trimmingCharacters(in: .whitespaces)
    if t.hasPrefix("-") { return .failure(QuantityError(message: "'\(text)' is negative: an amount is at least 0")) }
    if let v = Double(decimal: t) { return .success(v) }
    let symbol = unit.symbol
    if t.hasSuffix(symbol), let v = Double(decimal: t.dropLast(symbol.count).trimmingCharacters(in: .whitespaces)) {
      return .success(v)
    }
    guard let parsed = try? MeasurementParser.parse(t) else {
      return .failure(QuantityError(message: "'\(text)' is not an amount in \(symbol)"))
    }
    switch (parsed.kind, unit) {
    case ("duration", .milliseconds): return .success(parsed.value)
    case ("duration", .seconds): return .success(parsed.value / 1000)
    case ("storage", .megabytes): return .success(parsed.value / 1_000_000)
    case ("signalBars", .bars), ("pixelLuminance", .averagePixelLuminance), ("instructions", .instructions),
      ("hitchRatio", .millisecondsPerSecond), ("frequency", .framesPerSecond):
      return .success(parsed.value)
    default: return .failure(QuantityError(message: "'\(text)' is not in \(symbol)"))
    }
  }

  /// A relative change as rule files write it: 0.05 → `"5%"`.
  static func percentText(_ fraction: Double) -> String {
    let percent = fraction * 100
    if (percent - percent.rounded()).magnitude < 1e-9 { return "\(Int(saturating: percent.rounded()))%" }
    return "\(percent)%"
  }
}
