import Foundation

extension Array where Element == HistogramBucket {
  /// The mean of one histogram's buckets under `estimator`, through GSL, without merging.
  public func mean(estimator: MeanEstimator = .midpoint) throws(StatisticsError) -> Double {
    guard !isEmpty else { throw .empty }
    return try GSL.weightedMean(
      values: map { estimator.representative(start: $0.start, end: $0.end) }, weights: map { Double($0.count) })
  }

  /// Percentiles of one histogram (the inverse of its piecewise-linear CDF, through GSL), without the
  /// brackets: the per-payload statistic of the regression tests. Buckets in ascending, disjoint
  /// order (as a payload's are) go straight to GSL; others are merged first.
  public func percentileValues(_ percentiles: [Percentile]) throws(StatisticsError) -> [Double] {
    guard let first = first(where: { $0.count > 0 }) else { throw .empty }
    var edges = [first.start]
    var masses: [Double] = []
    edges.reserveCapacity(count * 2 + 1)
    masses.reserveCapacity(count * 2)
    for bucket in self where bucket.count > 0 {
      let last = edges[edges.count - 1]
      guard bucket.start >= last else {
        // Out of order or overlapping: let the merge sort it out.
        var merged = MergedHistogram<Dimension>(unit: MetricUnit.millisecondsUnit)
        merged.add(buckets: self)
        return try merged.percentiles(percentiles, interpolation: .uniform).map(\.value)
      }
      if bucket.start > last {
        edges.append(bucket.start)  // a gap: an empty bin
        masses.append(0)
      }
      edges.append(bucket.end)
      masses.append(Double(bucket.count))
    }
    return try GSL.histogramQuantiles(edges: edges, masses: masses, probabilities: percentiles.map(\.probability))
  }

  /// Σ count × representative value: the total time a duration histogram accounts for.
  func total(estimator: MeanEstimator) -> Double {
    reduce(0.0) { $0 + Double($1.count) * estimator.representative(start: $1.start, end: $1.end) }
  }
}
