import Foundation
import MetricKitAnalysis

/// `MetricResult.timeToFirstDraw`: launch times, to the first frame.
public struct TimeToFirstDrawMetric: Sendable, Hashable {
  /// Histogram of time to first draw durations.
  public let histogram: Histogram<UnitDuration>
}

/// `MetricResult.optimizedTimeToFirstDraw`: launch times of prewarmed launches.
public struct OptimizedTimeToFirstDrawMetric: Sendable, Hashable {
  /// Histogram of optimized time to first draw durations.
  public let histogram: Histogram<UnitDuration>
}

/// `MetricResult.applicationResumeTime`: times to resume from the background.
public struct ApplicationResumeTimeMetric: Sendable, Hashable {
  /// Histogram of resume durations.
  public let histogram: Histogram<UnitDuration>
}

/// `MetricResult.extendedLaunch`: launch times including the tracked launch tasks.
public struct ExtendedLaunchMetric: Sendable, Hashable {
  /// Histogram of extended launch durations.
  public let histogram: Histogram<UnitDuration>
}

/// `MetricResult.hangTime`: hangs (those over 9 s land in the last bucket).
public struct HangTimeMetric: Sendable, Hashable {
  /// Histogram of hang durations.
  public let histogram: Histogram<UnitDuration>
}

/// `MetricResult.cellularConditionTime`: time spent at each signal strength.
public struct CellularConditionTimeMetric: Sendable, Hashable {
  /// Histogram of signal bars.
  public let histogram: Histogram<UnitSignalBars>
}
