import Foundation

/// Metrics aggregated while the app was in one reported state (MetricKit 27's
/// `MetricReport.StateEntry`). Only some metrics appear in state entries: hang time, hitch time,
/// terminations, signpost intervals, location and run time.
public struct MetricStateEntry: Sendable, Hashable {
  /// The state.
  public var state: ReportedState
  /// The metrics, in the sections a legacy payload has (only those the entry carried are set).
  public var values: MetricPayload

  /// Creates an entry.
  public init(state: ReportedState, values: MetricPayload) {
    self.state = state
    self.values = values
  }
}
