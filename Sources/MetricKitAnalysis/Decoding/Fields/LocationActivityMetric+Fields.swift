import Foundation

extension LocationActivityMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    empty: LocationActivityMetric(),
    [
      .seconds("cumulativeBestAccuracyForNavigationTime") { $0.cumulativeBestAccuracyForNavigationTime = $1 },
      .seconds("cumulativeBestAccuracyTime") { $0.cumulativeBestAccuracyTime = $1 },
      .seconds("cumulativeNearestTenMetersAccuracyTime") { $0.cumulativeNearestTenMetersAccuracyTime = $1 },
      .seconds("cumulativeHundredMetersAccuracyTime") { $0.cumulativeHundredMetersAccuracyTime = $1 },
      .seconds("cumulativeKilometerAccuracyTime") { $0.cumulativeKilometerAccuracyTime = $1 },
      .seconds("cumulativeThreeKilometersAccuracyTime") { $0.cumulativeThreeKilometersAccuracyTime = $1 },
    ])
}
