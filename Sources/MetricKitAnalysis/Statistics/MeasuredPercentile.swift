import Foundation

/// A percentile of a histogrammed metric in its unit, with the bracket guaranteed to contain the true
/// sample quantile (the ⌈p·n⌉-th smallest observation) whatever the values inside the buckets.
///
/// ```swift
/// let p90 = payloads.percentile(90, for: \.applicationLaunchMetrics, applicationVersion: "3.9.0")
/// print(p90!.value.converted(to: .seconds), p90!.lowerBound, p90!.upperBound)
/// ```
public struct MeasuredPercentile<UnitType: Dimension>: Sendable, Hashable, CustomStringConvertible {
  /// Which percentile.
  public var percentile: Percentile
  /// The estimate: the inverse of the histogram's piecewise-linear CDF.
  public var value: Measurement<UnitType>
  /// The lowest the true sample quantile can be.
  public var lowerBound: Measurement<UnitType>
  /// The highest it can be.
  public var upperBound: Measurement<UnitType>

  /// Creates a percentile from an estimate in `unit`.
  public init(_ estimate: PercentileEstimate, unit: UnitType) {
    percentile = estimate.percentile
    value = Measurement(value: estimate.value, unit: unit)
    lowerBound = Measurement(value: estimate.lowerBound, unit: unit)
    upperBound = Measurement(value: estimate.upperBound, unit: unit)
  }

  /// The bracket as a range.
  public var bracket: ClosedRange<Measurement<UnitType>> { lowerBound...upperBound }

  /// `p90 718 ms [700–750 ms]`.
  public var description: String {
    "\(percentile.label) \(MeasurementText.string(value)) "
      + "[\(MeasurementText.number(lowerBound.value))–\(MeasurementText.string(upperBound))]"
  }
}
