import Foundation

extension LocationActivityMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "locationActivityMetrics", empty: LocationActivityMetric(),
    [
      .seconds("cumulativeBestAccuracyForNavigationTime", at: \.cumulativeBestAccuracyForNavigationTime),
      .seconds("cumulativeBestAccuracyTime", at: \.cumulativeBestAccuracyTime),
      .seconds("cumulativeNearestTenMetersAccuracyTime", at: \.cumulativeNearestTenMetersAccuracyTime),
      .seconds("cumulativeHundredMetersAccuracyTime", at: \.cumulativeHundredMetersAccuracyTime),
      .seconds("cumulativeKilometerAccuracyTime", at: \.cumulativeKilometerAccuracyTime),
      .seconds("cumulativeThreeKilometersAccuracyTime", at: \.cumulativeThreeKilometersAccuracyTime),
    ])
}
