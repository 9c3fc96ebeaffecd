import Foundation

extension AnimationMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    empty: AnimationMetric(),
    [
      .measurement("scrollHitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond) {
        $0.scrollHitchTimeRatio = $1
      },
      .measurement("hitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond) {
        $0.hitchTimeRatio = $1
      },
    ])
}
