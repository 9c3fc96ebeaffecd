import Foundation

extension AnimationMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "animationMetrics", empty: AnimationMetric(),
    [
      .measurement(
        "scrollHitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond,
        at: \.scrollHitchTimeRatio),
      .measurement(
        "hitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond, at: \.hitchTimeRatio),
    ])
}
