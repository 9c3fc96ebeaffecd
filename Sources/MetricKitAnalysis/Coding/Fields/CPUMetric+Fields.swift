import Foundation

extension CPUMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "cpuMetrics", empty: CPUMetric(),
    [
      .seconds("cumulativeCPUTime", at: \.cumulativeCPUTime),
      .measurement(
        "cumulativeCPUInstructions", kind: .instructions, unit: UnitInstructionCount.instructions,
        at: \.cumulativeCPUInstructions),
    ])
}
