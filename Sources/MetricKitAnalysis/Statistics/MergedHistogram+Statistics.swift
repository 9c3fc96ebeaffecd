import Foundation

extension MergedHistogram {
  /// The mean, with each bucket standing at the estimator's representative value, through GSL. With
  /// ``Interpolation/monotone`` the midpoint estimator (mass spread inside each bucket) becomes the
  /// mean of the monotone CDF; `bucket-end` and `bucket-start` are not spreads and stay as they are.
  public func mean(estimator: MeanEstimator = .midpoint, interpolation: Interpolation = .monotone)
    throws(StatisticsError) -> Double
  {
    try mean(estimator: estimator, interpolation: interpolation, partition: nil)
  }

  /// The mean, with the monotone model's partition of these buckets when the caller has it already.
  func mean(estimator: MeanEstimator, interpolation: Interpolation, partition known: ElementaryPartition?)
    throws(StatisticsError) -> Double
  {
    let buckets = self.buckets
    guard !buckets.isEmpty else { throw .empty }
    if interpolation == .monotone && estimator == .midpoint {
      let partition = known ?? ElementaryPartition(buckets: buckets, selfConsistent: true)
      return try GSL.histogramMonotoneMean(edges: partition.edges, masses: partition.masses)
    }
    return try GSL.weightedMean(
      values: buckets.map { estimator.representative(start: $0.range.start, end: $0.range.end) },
      weights: buckets.map { Double($0.count) })
  }

  /// The sample variance of the mixture of uniforms: the frequency-weighted variance of the bucket
  /// midpoints (through GSL) plus each bucket's own spread, Σ kᵢ wᵢ² / 12 ÷ (n − 1).
  public func variance() throws(StatisticsError) -> Double {
    let buckets = self.buckets
    guard !buckets.isEmpty else { throw .empty }
    let weights = buckets.map { Double($0.count) }
    let between = try GSL.frequencyWeightedVariance(
      values: buckets.map { $0.range.start + ($0.range.end - $0.range.start) / 2 }, weights: weights)
    let total = Double(sampleCount)
    let within = buckets.reduce(0.0) { sum, b in
      let w = b.range.end - b.range.start
      return sum + Double(b.count) * w * w / 12
    }
    return between + within / (total - 1)
  }

  /// Percentiles: the inverse of the mixture's piecewise-linear CDF (through GSL), or of the monotone
  /// CDF, each with the bracket that contains the true sample quantile whatever the values inside the
  /// buckets.
  public func percentiles(_ percentiles: [Percentile], interpolation: Interpolation = .monotone)
    throws(StatisticsError) -> [PercentileEstimate]
  {
    try self.percentiles(percentiles, interpolation: interpolation, partition: nil)
  }

  /// Percentiles, with the model's partition of these buckets when the caller has it already.
  func percentiles(_ percentiles: [Percentile], interpolation: Interpolation, partition known: ElementaryPartition?)
    throws(StatisticsError) -> [PercentileEstimate]
  {
    guard sampleCount > 0, !percentiles.isEmpty else {
      if percentiles.isEmpty { return [] }
      throw .empty
    }
    let buckets = self.buckets
    let partition = known ?? ElementaryPartition(buckets: buckets, selfConsistent: interpolation == .monotone)
    let values = try GSL.histogramQuantiles(
      edges: partition.edges, masses: partition.masses, probabilities: percentiles.map(\.probability),
      interpolation: interpolation)
    let byEnd = buckets.sorted { ($0.range.end, $0.range.start) < ($1.range.end, $1.range.start) }
    return zip(percentiles, values).map { percentile, value in
      let rank = percentile.rank(among: sampleCount)
      return PercentileEstimate(
        percentile: percentile, value: value,
        lowerBound: Self.rankedEdge(buckets, rank: rank, edge: \.range.start),
        upperBound: Self.rankedEdge(byEnd, rank: rank, edge: \.range.end))
    }
  }

  /// The fraction of observations at or below `x`, through GSL, under the same model as
  /// ``percentiles(_:interpolation:)``.
  public func cdf(at x: Double, interpolation: Interpolation = .monotone) throws(StatisticsError) -> Double {
    try cdf(at: [x], interpolation: interpolation)[0]
  }

  /// The CDF at several points in one pass.
  public func cdf(at points: [Double], interpolation: Interpolation = .monotone) throws(StatisticsError) -> [Double] {
    let partition = ElementaryPartition(buckets: buckets, selfConsistent: interpolation == .monotone)
    guard !partition.masses.isEmpty else { throw .empty }
    return try GSL.histogramCDF(
      edges: partition.edges, masses: partition.masses, points: points, interpolation: interpolation)
  }

  /// The `rank`-th smallest edge when each bucket contributes its count of copies of `edge`;
  /// `buckets` must be sorted by that edge.
  private static func rankedEdge(_ buckets: [Bucket], rank: Int128, edge: KeyPath<Bucket, Double>) -> Double {
    var cumulative: Int128 = 0
    for bucket in buckets {
      cumulative += bucket.count
      if cumulative >= rank { return bucket[keyPath: edge] }
    }
    return buckets.last?[keyPath: edge] ?? 0
  }
}

/// A mixture of uniforms (possibly overlapping buckets) rewritten as contiguous, non-overlapping
/// bins for `gsl_histogram`: every distinct edge is a breakpoint; a bucket spreads its count over the
/// elementary intervals it covers in proportion to their widths; a zero-width bucket becomes a
/// zero-width bin (a point mass). Gaps become empty bins.
///
/// `selfConsistent` (the monotone interpolation) spreads a wide bucket's count in proportion to the
/// mass the other buckets put on each interval instead: Turnbull's self-consistency (EM) iteration for
/// interval-censored counts, started from the width spread. Where payloads of two layouts meet (100 ms
/// hang buckets beside [1 s, 2 s)), the fine layout then shapes the coarse one's mass.
struct ElementaryPartition {
  var edges: [Double] = []
  var masses: [Double] = []

  init<U>(buckets: [MergedHistogram<U>.Bucket], selfConsistent: Bool = false) {
    let points = Array(Set(buckets.flatMap { [$0.range.start, $0.range.end] })).sorted()
    guard let first = points.first else { return }
    var continuous = [Double](repeating: 0, count: max(points.count - 1, 0))
    var wide: [(Range<Int>, Double)] = []
    var pointMass = [Double](repeating: 0, count: points.count)
    for bucket in buckets {
      let count = Double(bucket.count)
      let lower = Self.index(of: bucket.range.start, in: points)
      if bucket.range.start == bucket.range.end {
        pointMass[lower] += count
        continue
      }
      let upper = Self.index(of: bucket.range.end, in: points)
      if upper == lower + 1 {
        continuous[lower] += count  // the common case, kept exact
      } else {
        let width = bucket.range.end - bucket.range.start
        for j in lower..<upper {
          continuous[j] += count * (points[j + 1] - points[j]) / width
        }
        wide.append((lower..<upper, count))
      }
    }
    if selfConsistent && !wide.isEmpty {
      // The narrow buckets' mass stays where it is; each wide bucket's is spread again, each round, in
      // proportion to the current mass of the intervals it covers, until no interval moves by more
      // than a millionth of an observation: at most 100 rounds, and fewer where the wide buckets
      // cover so many intervals that 100 would cost more than `iterationBudget` visits (many
      // overlapping layouts: the time then grows with the input, not with its square).
      var fixed = continuous
      for (range, count) in wide {
        let width = points[range.upperBound] - points[range.lowerBound]
        for j in range { fixed[j] -= count * (points[j + 1] - points[j]) / width }
      }
      // What subtracting the width shares leaves of nothing is rounding: none.
      fixed = fixed.map { max(0, $0) }
      var next = fixed
      let spans = wide.reduce(0) { $0 + $1.0.count }
      let rounds = min(100, max(1, Self.iterationBudget / max(1, 2 * spans)))
      for _ in 0..<rounds {
        for j in next.indices { next[j] = fixed[j] }
        for (range, count) in wide {
          var current = 0.0
          for j in range { current += continuous[j] }
          guard current > 0 else { continue }
          for j in range { next[j] += count * continuous[j] / current }
        }
        var moved = 0.0
        for j in next.indices { moved = max(moved, abs(next[j] - continuous[j])) }
        swap(&continuous, &next)
        if moved <= 1e-6 { break }
      }
    }
    edges = [first]
    for j in points.indices {
      if pointMass[j] > 0 {
        edges.append(points[j])
        masses.append(pointMass[j])
      }
      if j + 1 < points.count {
        edges.append(points[j + 1])
        masses.append(continuous[j])
      }
    }
  }

  /// The most interval visits the self-consistency iteration makes (about half a second).
  static let iterationBudget = 250_000_000

  private static func index(of value: Double, in sorted: [Double]) -> Int {
    var lo = 0
    var hi = sorted.count - 1
    while lo < hi {
      let mid = (lo + hi) / 2
      if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}
