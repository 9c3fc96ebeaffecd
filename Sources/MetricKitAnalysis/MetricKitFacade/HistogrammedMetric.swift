import Foundation

/// A metric reported as a histogram, generic over its unit, as in the well-known MetricKit recipe:
///
/// ```swift
/// extension AppLaunchMetric: HistogrammedMetric {
///   public var histogram: Histogram<UnitDuration>? { histogrammedTimeToFirstDraw }
/// }
/// ```
///
/// Conformances ship for `AppLaunchMetric` (time to first draw), `AppResponsivenessMetric` (hang
/// time), `CellularConditionMetric` (signal bars), `SignpostMetric` (interval durations), and
/// `Histogram` itself, so every histogram property (resume time, optimized and extended launch)
/// answers `average` and `percentile(_:)` too.
public protocol HistogrammedMetric: Sendable {
  /// The unit of the histogram's edges.
  associatedtype UnitType: Dimension
  /// The histogram, when the payload carried one.
  var histogram: Histogram<UnitType>? { get }
}

extension HistogrammedMetric {
  /// The mean by bucket midpoints (the mixture of uniforms' mean); nil without observations.
  public var average: Measurement<UnitType>? { average(estimator: .midpoint) }

  /// The mean under the given estimator; nil without observations. One payload's histogram is read
  /// with uniform buckets, as the per-payload statistics of the regression tests are.
  public func average(estimator: MeanEstimator) -> Measurement<UnitType>? {
    guard let histogram,
      let mean = try? MergedHistogram(histogram).mean(estimator: estimator, interpolation: .uniform)
    else { return nil }
    return Measurement(value: mean, unit: histogram.unit)
  }

  /// The `p`-th percentile (0 < p ≤ 100): the inverse of the histogram's piecewise-linear CDF.
  public func percentile(_ p: Double) -> Measurement<UnitType>? { measuredPercentile(p)?.value }

  /// The `p`-th percentile with its guaranteed bracket, as measurements.
  public func measuredPercentile(_ p: Double) -> MeasuredPercentile<UnitType>? {
    guard let histogram, let percentile = Percentile(p),
      let estimate = try? MergedHistogram(histogram).percentiles([percentile], interpolation: .uniform).first
    else { return nil }
    return MeasuredPercentile(estimate, unit: histogram.unit)
  }
}

extension Histogram: HistogrammedMetric {
  /// The histogram itself.
  public var histogram: Histogram<UnitType>? { self }
}

extension AppLaunchMetric: HistogrammedMetric {
  /// Time to first draw, the launch time of the classic recipe.
  public var histogram: Histogram<UnitDuration>? { histogrammedTimeToFirstDraw }
}

extension AppResponsivenessMetric: HistogrammedMetric {
  /// Hang time.
  public var histogram: Histogram<UnitDuration>? { histogrammedApplicationHangTime }
}

extension CellularConditionMetric: HistogrammedMetric {
  /// Time at each signal strength.
  public var histogram: Histogram<UnitSignalBars>? { histogrammedCellularConditionTime }
}

extension SignpostMetric: HistogrammedMetric {
  /// Interval durations.
  public var histogram: Histogram<UnitDuration>? { signpostIntervalData?.histogrammedSignpostDuration }
}
