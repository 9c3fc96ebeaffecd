import Foundation

extension AppRunTimeMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    empty: AppRunTimeMetric(),
    [
      .seconds("cumulativeForegroundTime") { $0.cumulativeForegroundTime = $1 },
      .seconds("cumulativeBackgroundTime") { $0.cumulativeBackgroundTime = $1 },
      .seconds("cumulativeBackgroundAudioTime") { $0.cumulativeBackgroundAudioTime = $1 },
      .seconds("cumulativeBackgroundLocationTime") { $0.cumulativeBackgroundLocationTime = $1 },
    ])
}
