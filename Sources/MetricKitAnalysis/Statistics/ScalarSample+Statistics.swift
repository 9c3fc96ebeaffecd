extension ScalarSample {
  /// The arithmetic mean (through GSL while exact).
  public func mean() throws(StatisticsError) -> Double { try summary([]).mean }

  /// The mean and type-7 percentiles (from one sort while exact).
  public func summary(_ percentiles: [Percentile]) throws(StatisticsError) -> (mean: Double, percentiles: [Double]) {
    if let folded {
      guard let mean = folded.mean, mean.isFinite else { throw .invalidInput("non-finite mean") }
      return (mean, folded.quantiles(percentiles.map(\.probability)))
    }
    guard !exact.isEmpty else { throw .empty }
    let sorted = ascendingExact
    let mean = try GSL.weightedMean(values: sorted, weights: [Double](repeating: 1, count: sorted.count))
    var result: [Double] = []
    for p in percentiles { result.append(try GSL.sortedQuantile(sorted, probability: p.probability)) }
    return (mean, result)
  }

  /// Type-7 percentiles.
  public func percentiles(_ percentiles: [Percentile]) throws(StatisticsError) -> [Double] {
    try summary(percentiles).percentiles
  }
}
