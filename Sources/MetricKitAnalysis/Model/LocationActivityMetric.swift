import Foundation

/// Location use by accuracy (`locationActivityMetrics`, `MXLocationActivityMetric`), in seconds.
public struct LocationActivityMetric: Sendable, Hashable {
  /// Time at the best accuracy for navigation.
  public var cumulativeBestAccuracyForNavigationTime: Measurement<UnitDuration>?
  /// Time at the best accuracy.
  public var cumulativeBestAccuracyTime: Measurement<UnitDuration>?
  /// Time at ten-metre accuracy.
  public var cumulativeNearestTenMetersAccuracyTime: Measurement<UnitDuration>?
  /// Time at hundred-metre accuracy.
  public var cumulativeHundredMetersAccuracyTime: Measurement<UnitDuration>?
  /// Time at kilometre accuracy.
  public var cumulativeKilometerAccuracyTime: Measurement<UnitDuration>?
  /// Time at three-kilometre accuracy.
  public var cumulativeThreeKilometersAccuracyTime: Measurement<UnitDuration>?

  /// Creates an empty section.
  public init() {}
}
