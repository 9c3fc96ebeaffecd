import Foundation

extension AppLaunchMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "applicationLaunchMetrics", empty: AppLaunchMetric(),
    [
      .histogram(
        "histogrammedTimeToFirstDrawKey", "histogrammedTimeToFirstDraw", kind: .duration,
        unit: MetricUnit.millisecondsUnit, at: \.histogrammedTimeToFirstDraw),
      .histogram(
        "histogrammedResumeTime", "histogrammedApplicationResumeTime", kind: .duration,
        unit: MetricUnit.millisecondsUnit, at: \.histogrammedApplicationResumeTime),
      .histogram(
        "histogrammedOptimizedTimeToFirstDrawKey", "histogrammedOptimizedTimeToFirstDraw", kind: .duration,
        unit: MetricUnit.millisecondsUnit, at: \.histogrammedOptimizedTimeToFirstDraw),
      .histogram(
        "histogrammedExtendedLaunch", kind: .duration, unit: MetricUnit.millisecondsUnit,
        at: \.histogrammedExtendedLaunch),
    ])
}
