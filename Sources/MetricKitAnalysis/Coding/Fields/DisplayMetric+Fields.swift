import Foundation

extension DisplayMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "displayMetrics", empty: DisplayMetric(),
    [
      .average(
        "averagePixelLuminance", kind: .pixelLuminance, unit: UnitAveragePixelLuminance.apl, divisor: 1,
        at: \.averagePixelLuminance)
    ])
}
