import CMetricsShims

/// The library's only door to GNU GSL: typed wrappers over the `mr_` functions of `CMetricsShims`.
/// The shim installs its own GSL error handler when it is loaded, so GSL never calls `abort()`;
/// every status code becomes a `StatisticsError`.
enum GSL {
  private static func check(_ status: Int32, _ what: String) throws(StatisticsError) {
    switch status {
    case Int32(MR_OK): return
    case Int32(MR_EMPTY): throw .empty
    case Int32(MR_INVALID): throw .invalidInput(what)
    default: throw .gsl(status: status)
    }
  }

  /// Σ wᵢxᵢ ÷ Σ wᵢ through `gsl_stats_wmean`.
  static func weightedMean(values: [Double], weights: [Double]) throws(StatisticsError) -> Double {
    precondition(values.count == weights.count, "internal: mismatched lengths")
    var mean = 0.0
    try check(mr_weighted_mean(values, weights, values.count, &mean), "values or weights")
    return mean
  }

  /// The frequency-weighted sample variance Σ wᵢ(xᵢ − x̄)² ÷ (Σ wᵢ − 1), through `gsl_stats_wvariance`.
  static func frequencyWeightedVariance(values: [Double], weights: [Double]) throws(StatisticsError) -> Double {
    precondition(values.count == weights.count, "internal: mismatched lengths")
    var variance = 0.0
    try check(mr_frequency_weighted_variance(values, weights, values.count, &variance), "values or weights")
    return variance
  }

  /// Lower quantiles inf{x : F(x) ≥ p} of the piecewise-linear distribution with bins
  /// `[edges[i], edges[i+1]]` of mass `masses[i]` (zero-width bins are point masses).
  static func histogramQuantiles(
    edges: [Double], masses: [Double], probabilities: [Double], interpolation: Interpolation = .uniform
  ) throws(StatisticsError) -> [Double] {
    precondition(edges.count == masses.count + 1, "internal: edges and masses")
    var out = [Double](repeating: 0, count: probabilities.count)
    let status =
      interpolation == .uniform
      ? mr_histogram_quantiles(edges, masses, masses.count, probabilities, probabilities.count, &out)
      : mr_histogram_quantiles_monotone(edges, masses, masses.count, probabilities, probabilities.count, &out)
    try check(status, "histogram edges, masses or probabilities")
    return out
  }

  /// The mean of a histogram under the monotone (Steffen) CDF.
  static func histogramMonotoneMean(edges: [Double], masses: [Double]) throws(StatisticsError) -> Double {
    precondition(edges.count == masses.count + 1, "internal: edges and masses")
    var mean = 0.0
    try check(mr_histogram_mean_monotone(edges, masses, masses.count, &mean), "histogram edges or masses")
    return mean
  }

  /// The CDF of the same distribution at `points`.
  static func histogramCDF(
    edges: [Double], masses: [Double], points: [Double], interpolation: Interpolation = .uniform
  ) throws(StatisticsError) -> [Double] {
    precondition(edges.count == masses.count + 1, "internal: edges and masses")
    var out = [Double](repeating: 0, count: points.count)
    let status =
      interpolation == .uniform
      ? mr_histogram_cdf(edges, masses, masses.count, points, points.count, &out)
      : mr_histogram_cdf_monotone(edges, masses, masses.count, points, points.count, &out)
    try check(status, "histogram or points")
    return out
  }

  /// The type-7 quantile (linear interpolation between order statistics) of sorted data.
  static func sortedQuantile(_ sorted: [Double], probability: Double) throws(StatisticsError) -> Double {
    var q = 0.0
    try check(mr_sorted_quantile(sorted, sorted.count, probability, &q), "sorted data or probability")
    return q
  }

  /// P(X ≥ k) for X ~ Binomial(n, p).
  static func binomialUpperTail(_ k: Int, p: Double, n: Int) throws(StatisticsError) -> Double {
    guard k >= 0, n >= 0, n <= Int(UInt32.max) else { throw .invalidInput("binomial arguments") }
    var q = 0.0
    try check(mr_binomial_upper_tail(UInt32(k), p, UInt32(n), &q), "binomial arguments")
    return q
  }

  /// P(X ≤ k) for X ~ Binomial(n, p).
  static func binomialLowerTail(_ k: Int, p: Double, n: Int) throws(StatisticsError) -> Double {
    guard k >= 0, n >= 0, n <= Int(UInt32.max) else { throw .invalidInput("binomial arguments") }
    var q = 0.0
    try check(mr_binomial_lower_tail(UInt32(k), p, UInt32(n), &q), "binomial arguments")
    return q
  }

  /// The upper tail of the standard normal distribution, P(Z > x).
  static func standardNormalUpperTail(_ x: Double) throws(StatisticsError) -> Double {
    var q = 0.0
    try check(mr_ugaussian_upper_tail(x, &q), "argument")
    return q
  }

  /// The standard normal quantile at p in (0, 1).
  static func standardNormalQuantile(_ p: Double) throws(StatisticsError) -> Double {
    var q = 0.0
    try check(mr_ugaussian_quantile(p, &q), "probability")
    return q
  }

  /// Student's t upper tail P(T > t), nu degrees of freedom.
  static func studentUpperTail(_ t: Double, degreesOfFreedom nu: Double) throws(StatisticsError) -> Double {
    var q = 0.0
    try check(mr_t_upper_tail(t, nu, &q), "argument")
    return q
  }

  /// Student's t quantile at p in (0, 1), nu degrees of freedom.
  static func studentQuantile(_ p: Double, degreesOfFreedom nu: Double) throws(StatisticsError) -> Double {
    var q = 0.0
    try check(mr_t_quantile(p, nu, &q), "argument")
    return q
  }

  /// The beta(a, b) quantile at p in [0, 1].
  static func betaQuantile(_ p: Double, a: Double, b: Double) throws(StatisticsError) -> Double {
    var q = 0.0
    try check(mr_beta_quantile(p, a, b, &q), "argument")
    return q
  }

  /// The chi-square quantile at p in [0, 1], nu degrees of freedom.
  static func chiSquareQuantile(_ p: Double, degreesOfFreedom nu: Double) throws(StatisticsError) -> Double {
    var q = 0.0
    try check(mr_chisq_quantile(p, nu, &q), "argument")
    return q
  }
}
