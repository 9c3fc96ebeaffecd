import Foundation

extension GPUMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "gpuMetrics", empty: GPUMetric(), [.seconds("cumulativeGPUTime", at: \.cumulativeGPUTime)])
}
