import Foundation

extension SignpostIntervalData {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "signpostMetrics[].signpostIntervalData", empty: SignpostIntervalData(),
    [
      .histogram(
        "histogrammedSignpostDurations", "histogrammedSignpostDuration", kind: .duration,
        unit: MetricUnit.millisecondsUnit, at: \.histogrammedSignpostDuration),
      .seconds("signpostCumulativeCPUTime", at: \.cumulativeCPUTime),
      .megabytes("signpostAverageMemory", at: \.averageMemory),
      .megabytes("signpostCumulativeLogicalWrites", at: \.cumulativeLogicalWrites),
      .measurement(
        "signpostCumulativeHitchTimeRatio", kind: .hitchRatio, unit: UnitHitchTimeRatio.millisecondsPerSecond,
        at: \.cumulativeHitchTimeRatio),
    ])
}
