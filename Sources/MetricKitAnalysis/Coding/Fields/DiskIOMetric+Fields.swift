import Foundation

extension DiskIOMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "diskIOMetrics", empty: DiskIOMetric(), [.megabytes("cumulativeLogicalWrites", at: \.cumulativeLogicalWrites)])
}
