extension Array where Element == HistogramBucket {
  /// The mean of one histogram's buckets under `estimator`, through GSL, without merging.
  public func mean(estimator: MeanEstimator = .midpoint) throws(StatisticsError) -> Double {
    guard !isEmpty else { throw .empty }
    return try GSL.weightedMean(
      values: map { estimator.representative(start: $0.start, end: $0.end) }, weights: map { Double($0.count) })
  }

  /// Σ count × representative value: the total time a duration histogram accounts for.
  func total(estimator: MeanEstimator) -> Double {
    reduce(0.0) { $0 + Double($1.count) * estimator.representative(start: $1.start, end: $1.end) }
  }
}
