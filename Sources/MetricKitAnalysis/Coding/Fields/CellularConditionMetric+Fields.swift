import Foundation

extension CellularConditionMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "cellularConditionMetrics", empty: CellularConditionMetric(),
    [
      .histogram(
        "cellConditionTime", kind: .signalBars, unit: UnitSignalBars.bars, at: \.histogrammedCellularConditionTime)
    ])
}
