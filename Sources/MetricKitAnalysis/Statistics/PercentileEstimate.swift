/// A percentile estimated from a histogram, with a guaranteed bracket.
public struct PercentileEstimate: Sendable, Hashable {
  /// Which percentile.
  public var percentile: Percentile
  /// The inverse of the mixture-of-uniforms CDF at p.
  public var value: Double
  /// The lowest the true sample quantile (the ⌈p·n⌉-th smallest observation) can be, whatever the
  /// values inside the buckets.
  public var lowerBound: Double
  /// The highest it can be.
  public var upperBound: Double
}
