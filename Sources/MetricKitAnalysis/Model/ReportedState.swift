import Foundation

/// A state the app reported while MetricKit measured it (MetricKit 27's `MetricManager.ReportedState`):
/// a tab, a feature flag, a configuration, named by a domain and a label.
public struct ReportedState: Sendable, Hashable {
  /// The state-reporting domain (`com.example.tabs`).
  public var domain: String
  /// The state within its domain (`checkout`).
  public var label: String
  /// How long the app was in the state during the period.
  public var duration: Measurement<UnitDuration>?
  /// The stable context values the app recorded with the state, as text.
  public var stableMetadata: [String: String]

  /// Creates a state.
  public init(
    domain: String = "", label: String = "", duration: Measurement<UnitDuration>? = nil,
    stableMetadata: [String: String] = [:]
  ) {
    self.domain = domain
    self.label = label
    self.duration = duration
    self.stableMetadata = stableMetadata
  }
}
