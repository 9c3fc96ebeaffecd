import Foundation

extension AppResponsivenessMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "applicationResponsivenessMetrics", empty: AppResponsivenessMetric(),
    [
      .histogram(
        "histogrammedAppHangTime", kind: .duration, unit: MetricUnit.millisecondsUnit,
        at: \.histogrammedApplicationHangTime)
    ])
}
