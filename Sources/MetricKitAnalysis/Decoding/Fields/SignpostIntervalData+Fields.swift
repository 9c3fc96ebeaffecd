import Foundation

extension SignpostIntervalData {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    empty: SignpostIntervalData(),
    [
      .histogram(
        "histogrammedSignpostDurations", "histogrammedSignpostDuration", kind: .duration,
        unit: MetricUnit.millisecondsUnit
      ) {
        $0.histogrammedSignpostDuration = $1
      },
      .seconds("signpostCumulativeCPUTime") { $0.cumulativeCPUTime = $1 },
      .megabytes("signpostAverageMemory") { $0.averageMemory = $1 },
      .megabytes("signpostCumulativeLogicalWrites") { $0.cumulativeLogicalWrites = $1 },
      .measurement(
        "signpostCumulativeHitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond
      ) { $0.cumulativeHitchTimeRatio = $1 },
    ])
}
