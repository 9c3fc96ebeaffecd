import Foundation

/// Launch and resume times (`applicationLaunchMetrics`, `MXAppLaunchMetric`), in milliseconds.
public struct AppLaunchMetric: Sendable, Hashable {
  /// Time to first draw of cold launches (JSON key `histogrammedTimeToFirstDrawKey`).
  public var histogrammedTimeToFirstDraw: Histogram<UnitDuration>?
  /// Time to resume from the background (JSON key `histogrammedResumeTime`).
  public var histogrammedApplicationResumeTime: Histogram<UnitDuration>?
  /// Time to first draw of prewarmed launches (JSON key `histogrammedOptimizedTimeToFirstDrawKey`).
  public var histogrammedOptimizedTimeToFirstDraw: Histogram<UnitDuration>?
  /// Extended launch time (`histogrammedExtendedLaunch`).
  public var histogrammedExtendedLaunch: Histogram<UnitDuration>?

  /// Creates an empty section.
  public init() {}
}
