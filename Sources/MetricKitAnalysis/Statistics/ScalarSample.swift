/// One value per payload (peak memory, CPU time, a payload's own launch p90…): its mean and its
/// percentiles across payloads by linear interpolation between order statistics (type 7, numpy's
/// default).
///
/// Up to ``exactLimit`` values the sample keeps every value, and its statistics are exact, through
/// GSL. Past it, the values are folded into a ``LogBucketSketch``: memory and snapshots stop growing,
/// the mean stays exact, percentiles are within 1% (the sketch's stated error), and the rank test
/// runs on the sketch's buckets. Which form a sample has depends only on how many values it holds,
/// so merging shards gives the sample of the whole in any order.
public struct ScalarSample: Sendable, Hashable {
  /// The default ``exactLimit``: a version's first 100,000 payloads keep exact values.
  public static let defaultExactLimit = 100_000

  private enum Storage: Sendable, Hashable {
    case exact([Double])
    case sketch(LogBucketSketch)
  }

  private var storage: Storage
  /// The most values kept exactly; past it the sample is a sketch.
  public let exactLimit: Int

  /// Creates a sample of these values.
  public init(_ values: [Double] = [], exactLimit: Int = ScalarSample.defaultExactLimit) {
    self.exactLimit = max(0, exactLimit)
    storage = .exact(values)
    if values.count > self.exactLimit { fold() }
  }

  /// Creates a sample from a sketch (reading snapshots).
  public init(sketch: LogBucketSketch, exactLimit: Int = ScalarSample.defaultExactLimit) {
    self.exactLimit = max(0, exactLimit)
    storage = .sketch(sketch)
  }

  /// Every value, in any order, while the sample is exact; nil once it is a sketch.
  public var exactValues: [Double]? {
    if case .exact(let values) = storage { return values }
    return nil
  }

  /// The sketch, once the sample holds more than ``exactLimit`` values; nil before.
  public var sketch: LogBucketSketch? {
    if case .sketch(let sketch) = storage { return sketch }
    return nil
  }

  /// Adds one value.
  public mutating func append(_ value: Double) {
    switch storage {
    case .exact(var values):
      storage = .exact([])  // keeps `values` uniquely referenced
      values.append(value)
      storage = .exact(values)
      if values.count > exactLimit { fold() }
    case .sketch(var sketch):
      storage = .exact([])
      sketch.add(value)
      storage = .sketch(sketch)
    }
  }

  /// Adds another sample's values. The result keeps the smaller of the two limits.
  public mutating func merge(_ other: ScalarSample) {
    let limit = min(exactLimit, other.exactLimit)
    switch (storage, other.storage) {
    case (.exact(var values), .exact(let more)):
      storage = .exact([])
      values.append(contentsOf: more)
      self = ScalarSample(values, exactLimit: limit)
    case (.sketch(var sketch), _):
      storage = .exact([])
      sketch.merge(other.binned)
      self = ScalarSample(sketch: sketch, exactLimit: limit)
    case (.exact, .sketch(var sketch)):
      sketch.merge(binned)
      self = ScalarSample(sketch: sketch, exactLimit: limit)
    }
  }

  /// The number of values.
  public var count: Int {
    switch storage {
    case .exact(let values): values.count
    case .sketch(let sketch): sketch.count
    }
  }

  /// The sample as a sketch (itself, or its exact values counted into one), for a rank test between an
  /// exact and a sketched sample, and for merging into a sketch.
  public var binned: LogBucketSketch {
    switch storage {
    case .sketch(let sketch): return sketch
    case .exact(let values):
      var sketch = LogBucketSketch()
      for v in values { sketch.add(v) }
      return sketch
    }
  }

  /// The sum of the values: exact once the sample is a sketch, summed in ascending order before.
  public var sum: Double {
    switch storage {
    case .exact(let values): values.sorted().reduce(0, +)
    case .sketch(let sketch): sketch.sum.value
    }
  }

  /// Σ value²: summed in ascending order while exact; past the limit, from the sketch's buckets (each
  /// value taken at its representative, so within 2% of the exact sum).
  public var sumOfSquares: Double {
    switch storage {
    case .exact(let values): values.map { $0 * $0 }.sorted().reduce(0, +)
    case .sketch(let sketch): sketch.bins.reduce(0) { $0 + Double($1.count) * $1.value * $1.value }
    }
  }

  /// The largest value (exact in both forms); nil when empty.
  public var maximum: Double? {
    switch storage {
    case .exact(let values): values.max()
    case .sketch(let sketch): sketch.count > 0 ? sketch.maximum : nil
    }
  }

  /// The arithmetic mean (through GSL while exact).
  public func mean() throws(StatisticsError) -> Double { try summary([]).mean }

  /// The mean and type-7 percentiles (from one sort while exact).
  public func summary(_ percentiles: [Percentile]) throws(StatisticsError) -> (mean: Double, percentiles: [Double]) {
    switch storage {
    case .exact(let values):
      guard !values.isEmpty else { throw .empty }
      let sorted = values.sorted()
      let mean = try GSL.weightedMean(values: sorted, weights: [Double](repeating: 1, count: sorted.count))
      var result: [Double] = []
      for p in percentiles { result.append(try GSL.sortedQuantile(sorted, probability: p.probability)) }
      return (mean, result)
    case .sketch(let sketch):
      guard let mean = sketch.mean, mean.isFinite else { throw .invalidInput("non-finite mean") }
      return (mean, sketch.quantiles(percentiles.map(\.probability)))
    }
  }

  /// Type-7 percentiles.
  public func percentiles(_ percentiles: [Percentile]) throws(StatisticsError) -> [Double] {
    try summary(percentiles).percentiles
  }

  /// Turns the exact values into a sketch.
  private mutating func fold() {
    storage = .sketch(binned)
  }
}
