import Foundation

extension AppLaunchMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    empty: AppLaunchMetric(),
    [
      .histogram(
        "histogrammedTimeToFirstDrawKey", "histogrammedTimeToFirstDraw", kind: .duration,
        unit: CanonicalUnit.milliseconds
      ) {
        $0.histogrammedTimeToFirstDraw = $1
      },
      .histogram(
        "histogrammedResumeTime", "histogrammedApplicationResumeTime", kind: .duration, unit: CanonicalUnit.milliseconds
      ) {
        $0.histogrammedApplicationResumeTime = $1
      },
      .histogram(
        "histogrammedOptimizedTimeToFirstDrawKey", "histogrammedOptimizedTimeToFirstDraw", kind: .duration,
        unit: CanonicalUnit.milliseconds
      ) { $0.histogrammedOptimizedTimeToFirstDraw = $1 },
      .histogram("histogrammedExtendedLaunch", kind: .duration, unit: CanonicalUnit.milliseconds) {
        $0.histogrammedExtendedLaunch = $1
      },
    ])
}
