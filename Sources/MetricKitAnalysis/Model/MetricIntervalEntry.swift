import Foundation

/// Metrics aggregated over part of the day (MetricKit 27's `MetricReport.IntervalEntry`, other than
/// the full-day entry, whose metrics are the payload's own). An entry has a duration and the states
/// active during it, but no start time: it cannot be placed at a time of day.
public struct MetricIntervalEntry: Sendable, Hashable {
  /// How long the interval lasted.
  public var duration: Measurement<UnitDuration>?
  /// The states active during the interval.
  public var states: [ReportedState]
  /// The metrics, in the sections a legacy payload has (only those the entry carried are set).
  public var values: MetricPayload

  /// Creates an entry.
  public init(
    duration: Measurement<UnitDuration>? = nil, states: [ReportedState] = [],
    values: MetricPayload = MetricPayload(latestApplicationVersion: "")
  ) {
    self.duration = duration
    self.states = states
    self.values = values
  }
}
