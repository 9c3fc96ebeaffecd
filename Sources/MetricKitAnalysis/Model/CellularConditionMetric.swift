import Foundation

/// Signal strength (`cellularConditionMetrics`, `MXCellularConditionMetric`).
public struct CellularConditionMetric: Sendable, Hashable {
  /// Time spent at each signal strength, in bars (JSON key `cellConditionTime`).
  public var histogrammedCellularConditionTime: Histogram<UnitSignalBars>?

  /// Creates an empty section.
  public init() {}
}
