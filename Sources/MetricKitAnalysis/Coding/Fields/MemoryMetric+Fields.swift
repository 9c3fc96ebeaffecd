import Foundation

extension MemoryMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "memoryMetrics", empty: MemoryMetric(),
    [
      .megabytes("peakMemoryUsage", at: \.peakMemoryUsage),
      .average(
        "averageSuspendedMemory", kind: .storage, unit: MetricUnit.megabytesUnit, divisor: 1_000_000,
        at: \.averageSuspendedMemory),
    ])
}
