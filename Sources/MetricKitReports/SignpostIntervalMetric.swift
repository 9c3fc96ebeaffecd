import Foundation
import MetricKitAnalysis

/// `MetricResult.signpostInterval`: a custom signpost's intervals.
public struct SignpostIntervalMetric: Sendable, Hashable {
  /// The signpost's name.
  public let signpostName: String
  /// The signpost's category.
  public let signpostCategory: String
  /// The number of intervals.
  public let totalCount: Int
  /// Histogram of the intervals' durations.
  public let signpostDuration: Histogram<UnitDuration>
  /// CPU time used during the intervals.
  public let cpuTime: Measurement<UnitDuration>?
  /// The average memory during the intervals (the library reads the average alone: `count` is 0).
  public let averageMemory: AverageStatistics<UnitInformationStorage>?
  /// Data written during the intervals.
  public let logicalWrites: Measurement<UnitInformationStorage>?
  /// Hitch time over animation time during the intervals.
  public let hitchTimeRatio: Measurement<HitchTimeRatio>?
}
