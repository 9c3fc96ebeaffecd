import Foundation

extension AppRunTimeMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "applicationTimeMetrics", empty: AppRunTimeMetric(),
    [
      .seconds("cumulativeForegroundTime", at: \.cumulativeForegroundTime),
      .seconds("cumulativeBackgroundTime", at: \.cumulativeBackgroundTime),
      .seconds("cumulativeBackgroundAudioTime", at: \.cumulativeBackgroundAudioTime),
      .seconds("cumulativeBackgroundLocationTime", at: \.cumulativeBackgroundLocationTime),
    ])
}
