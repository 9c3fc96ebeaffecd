import Foundation

extension AppLaunchMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    empty: AppLaunchMetric(),
    [
      .histogram(
        "histogrammedTimeToFirstDrawKey", "histogrammedTimeToFirstDraw", kind: .duration,
        unit: MetricUnit.millisecondsUnit
      ) {
        $0.histogrammedTimeToFirstDraw = $1
      },
      .histogram(
        "histogrammedResumeTime", "histogrammedApplicationResumeTime", kind: .duration,
        unit: MetricUnit.millisecondsUnit
      ) {
        $0.histogrammedApplicationResumeTime = $1
      },
      .histogram(
        "histogrammedOptimizedTimeToFirstDrawKey", "histogrammedOptimizedTimeToFirstDraw", kind: .duration,
        unit: MetricUnit.millisecondsUnit
      ) { $0.histogrammedOptimizedTimeToFirstDraw = $1 },
      .histogram("histogrammedExtendedLaunch", kind: .duration, unit: MetricUnit.millisecondsUnit) {
        $0.histogrammedExtendedLaunch = $1
      },
    ])
}
