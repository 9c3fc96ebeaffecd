/// Exit counts (`applicationExitMetrics`, `MXAppExitMetric`). MetricKit leaves zero counters out,
/// so a counter absent from a present section reads 0.
public struct AppExitMetric: Sendable, Hashable {
  /// Exits while in the foreground.
  public var foregroundExitData: ExitCounts
  /// Exits while in the background.
  public var backgroundExitData: ExitCounts

  /// Creates a section with empty counts.
  public init(foregroundExitData: ExitCounts = ExitCounts(), backgroundExitData: ExitCounts = ExitCounts()) {
    self.foregroundExitData = foregroundExitData
    self.backgroundExitData = backgroundExitData
  }
}
