import Foundation

extension PooledStatistics {
  /// The statistics of a version standardized to a common mix: the strata's aggregates of the version,
  /// each with its weight in the mix. A mean or rate is Σ w · statistic ÷ Σ w over the strata holding
  /// the metric. A histogram percentile is the inverse of the mixture CDF Σ w F_s ÷ Σ w (each F_s its
  /// stratum's merged histogram's CDF, through GSL; the mixture is linear between the union of the
  /// strata's edges), with the bracket of the lowest and highest mixture CDF the buckets allow; a
  /// percentile of values is the smallest value whose weighted share reaches it.
  public init(
    standardized strata: [(weight: Double, aggregate: VersionAggregate)], requests: [MetricID: Set<Statistic>],
    estimator: MeanEstimator = .midpoint, interpolation: Interpolation = .monotone
  ) {
    self.init()
    for (metric, statistics) in requests {
      let computed = Self.standardized(metric, statistics, strata, estimator: estimator, interpolation: interpolation)
      if !computed.isEmpty { values[metric] = computed }
    }
  }

  private static func standardized(
    _ metric: MetricID, _ statistics: Set<Statistic>, _ strata: [(weight: Double, aggregate: VersionAggregate)],
    estimator: MeanEstimator, interpolation: Interpolation
  ) -> [Statistic: Value] {
    let percentiles = statistics.compactMap(\.percentile).sorted()
    let others = statistics.filter { $0.percentile == nil }
    var out: [Statistic: Value] = [:]
    func weighted(_ parts: [(Double, Double)]) -> Double? {
      let total = parts.reduce(0) { $0 + $1.0 }
      guard total > 0 else { return nil }
      let value = parts.reduce(0) { $0 + $1.0 * $1.1 } / total
      return value.isFinite ? value : nil
    }
    switch metric.kind {
    case .histogram:
      let parts = strata.compactMap { w, a in
        a.histogram(metric).flatMap { $0.sampleCount > 0 && w > 0 ? (w, $0) : nil }
      }
      guard !parts.isEmpty else { return [:] }
      if let values = try? mixturePercentiles(parts, percentiles, interpolation: interpolation) {
        for (p, value) in zip(percentiles, values) { out[.percentile(p)] = value }
      }
      if !others.isEmpty,
        let mean = weighted(
          parts.compactMap { w, h in (try? h.mean(estimator: estimator, interpolation: interpolation)).map { (w, $0) } }
        )
      {
        for statistic in others { out[statistic] = Value(value: mean) }
      }
    case .scalar, .counter:
      let parts = strata.compactMap { w, a in a.scalar(metric).flatMap { $0.count > 0 && w > 0 ? (w, $0) : nil } }
      guard !parts.isEmpty else { return [:] }
      for (p, value) in zip(percentiles, weightedPercentiles(parts, percentiles)) {
        if let value { out[.percentile(p)] = Value(value: value) }
      }
      if !others.isEmpty, let mean = weighted(parts.compactMap { w, s in (try? s.mean()).map { (w, $0) } }) {
        for statistic in others { out[statistic] = Value(value: mean) }
      }
    case .rate:
      let parts = strata.compactMap { w, a in a.rate(metric)?.pooledRate.map { (w, $0) } }
      guard let rate = weighted(parts) else { return [:] }
      for statistic in statistics { out[statistic] = Value(value: rate) }
    case .diagnostic:
      return [:]
    }
    return out
  }

  /// Percentiles of the mixture of the strata's merged histograms, each with its guaranteed bracket:
  /// the mixture's CDF and the buckets' edges are computed once for all of them.
  static func mixturePercentiles(
    _ parts: [(Double, MergedHistogram<Dimension>)], _ percentiles: [Percentile], interpolation: Interpolation
  ) throws(StatisticsError) -> [Value] {
    let total = parts.reduce(0) { $0 + $1.0 }
    var points = Set<Double>()
    for (_, h) in parts { for b in h.buckets { points.formUnion([b.range.start, b.range.end]) } }
    let x = points.sorted()
    var mixture = [Double](repeating: 0, count: x.count)
    for (w, h) in parts {
      let cdf = try h.cdf(at: x, interpolation: interpolation)
      for j in x.indices { mixture[j] += w / total * cdf[j] }
    }
    // The bracket: all of a bucket's mass at its start gives the highest CDF, so the lowest quantile;
    // all of it at its end, the highest.
    func masses(_ at: (MergedHistogram<Dimension>.Bucket) -> Double) -> [(edge: Double, mass: Double)] {
      var masses: [(edge: Double, mass: Double)] = []
      for (w, h) in parts {
        let n = Double(h.sampleCount)
        for b in h.buckets { masses.append((at(b), w / total * Double(b.count) / n)) }
      }
      return masses.sorted { $0.edge < $1.edge }
    }
    let (starts, ends) = (masses { $0.range.start }, masses { $0.range.end })
    return try percentiles.map { percentile throws(StatisticsError) in
      let q = percentile.probability
      // A share reached up to rounding counts as reached.
      let reach = q * (1 - 1e-12)
      guard let j = mixture.firstIndex(where: { $0 >= reach }) else { throw .empty }
      var value = x[j]
      if j > 0, mixture[j] > mixture[j - 1] {
        value = x[j - 1] + (q - mixture[j - 1]) / (mixture[j] - mixture[j - 1]) * (x[j] - x[j - 1])
        value = min(max(value, x[j - 1]), x[j])
      }
      func edge(_ masses: [(edge: Double, mass: Double)]) -> Double {
        var cumulative = 0.0
        for (edge, mass) in masses {
          cumulative += mass
          if cumulative >= reach { return edge }
        }
        return masses.last?.edge ?? value
      }
      let (lower, upper) = (edge(starts), edge(ends))
      return Value(value: min(max(value, lower), upper), bounds: lower...upper)
    }
  }

  /// Per percentile, the smallest value whose weighted share of the strata's values reaches it: each
  /// stratum's values share its weight. Each stratum's values are taken in ascending order (as a
  /// reading keeps them) and merged, once for all percentiles; equal values keep the strata's order.
  static func weightedPercentiles(_ parts: [(Double, ScalarSample)], _ percentiles: [Percentile]) -> [Double?] {
    let total = parts.reduce(0) { $0 + $1.0 }
    let runs = parts.map { (w, sample) -> [(Double, Double)] in
      let n = Double(sample.count)
      if let exact = sample.ascendingExactValues {
        let mass = w / total / n
        return exact.map { ($0, mass) }
      }
      return sample.binned.bins.map { ($0.value, w / total * Double($0.count) / n) }
    }
    let masses = mergedInOrder(runs)
    return percentiles.map { percentile in
      let reach = percentile.probability * (1 - 1e-12)
      var cumulative = 0.0
      for (value, mass) in masses {
        cumulative += mass
        if cumulative >= reach { return value }
      }
      return masses.last?.0
    }
  }

  /// Runs of (value, mass), each in ascending order of value, merged into one in that order, adjacent
  /// runs two at a time; of equal values, an earlier run's come first.
  private static func mergedInOrder(_ runs: [[(Double, Double)]]) -> [(Double, Double)] {
    var runs = runs
    while runs.count > 1 {
      runs = stride(from: 0, to: runs.count, by: 2).map { i in
        guard i + 1 < runs.count else { return runs[i] }
        let (a, b) = (runs[i], runs[i + 1])
        var merged: [(Double, Double)] = []
        merged.reserveCapacity(a.count + b.count)
        var (x, y) = (0, 0)
        while x < a.count && y < b.count {
          if b[y].0 < a[x].0 {
            merged.append(b[y])
            y += 1
          } else {
            merged.append(a[x])
            x += 1
          }
        }
        merged += a[x...]
        merged += b[y...]
        return merged
      }
    }
    return runs.first ?? []
  }
}
