import Foundation

/// The measurements of a signpost's intervals (`MXSignpostIntervalData`).
public struct SignpostIntervalData: Sendable, Hashable {
  /// Interval durations, in milliseconds (JSON key `histogrammedSignpostDurations`).
  public var histogrammedSignpostDuration: Histogram<UnitDuration>?
  /// CPU time inside intervals, in seconds (JSON key `signpostCumulativeCPUTime`).
  public var cumulativeCPUTime: Measurement<UnitDuration>?
  /// Average memory inside intervals, in megabytes (JSON key `signpostAverageMemory`).
  public var averageMemory: Measurement<UnitInformationStorage>?
  /// Logical writes inside intervals, in megabytes (JSON key `signpostCumulativeLogicalWrites`).
  public var cumulativeLogicalWrites: Measurement<UnitInformationStorage>?
  /// Hitch time ratio inside intervals (JSON key `signpostCumulativeHitchTimeRatio`).
  public var cumulativeHitchTimeRatio: Measurement<UnitHitchTimeRatio>?

  /// Creates empty interval data.
  public init() {}
}
