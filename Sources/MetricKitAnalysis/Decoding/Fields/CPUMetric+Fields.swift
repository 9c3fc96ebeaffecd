import Foundation

extension CPUMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    empty: CPUMetric(),
    [
      .seconds("cumulativeCPUTime") { $0.cumulativeCPUTime = $1 },
      .measurement("cumulativeCPUInstructions", kind: .instructions, unit: UnitInstructionCount.instructions) {
        $0.cumulativeCPUInstructions = $1
      },
    ])
}
