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

  /// Every value while the sample is exact; empty once it is a sketch. Two stored properties, not an
  /// enum with payloads: `append` then grows the array in place, where taking an enum's payload out
  /// and putting it back cost a retain and a release per value (40-odd values a payload).
  private(set) var exact: [Double]
  /// The sketch, once the sample holds more than `exactLimit` values.
  private(set) var folded: LogBucketSketch?
  /// Whether `exact` is known to be in ascending order, with neither NaN nor negative zero (then
  /// `sortedAscending()` would return it as it is): set when the values are sorted, cleared when one is
  /// added. Not part of the sample's value (equality and hashing leave it out).
  private var exactIsAscending = false
  /// The most values kept exactly; past it the sample is a sketch.
  public let exactLimit: Int

  /// Creates a sample of these values.
  public init(_ values: [Double] = [], exactLimit: Int = ScalarSample.defaultExactLimit) {
    self.exactLimit = max(0, exactLimit)
    exact = values
    folded = nil
    if values.count > self.exactLimit { fold() }
  }

  /// Creates a sample from a sketch (reading snapshots).
  public init(sketch: LogBucketSketch, exactLimit: Int = ScalarSample.defaultExactLimit) {
    self.exactLimit = max(0, exactLimit)
    exact = []
    folded = sketch
  }

  /// Every value, in any order, while the sample is exact; nil once it is a sketch.
  public var exactValues: [Double]? { folded == nil ? exact : nil }

  /// The sketch, once the sample holds more than ``exactLimit`` values; nil before.
  public var sketch: LogBucketSketch? { folded }

  /// Adds one value.
  public mutating func append(_ value: Double) {
    // Matched, not compared with nil: `folded == nil` copied the optional sketch out and destroyed
    // the copy, for every value.
    switch folded {
    case .some: folded?.add(value)  // in place
    case .none:
      exact.append(value)
      exactIsAscending = false
      if exact.count > exactLimit { fold() }
    }
  }

  /// Adds another sample's values. The result keeps the smaller of the two limits.
  public mutating func merge(_ other: ScalarSample) {
    let limit = min(exactLimit, other.exactLimit)
    switch (folded, other.folded) {
    case (nil, nil):
      // Into an empty sample the other's values are taken as they are, not copied (a kept merge holds
      // millions).
      let ascending = exact.isEmpty ? other.exactIsAscending : other.exact.isEmpty && exactIsAscending
      if exact.isEmpty { exact = other.exact } else { exact.append(contentsOf: other.exact) }
      self = ScalarSample(exact, exactLimit: limit)
      if folded == nil { exactIsAscending = ascending }
    case (var sketch?, _):
      folded = nil
      sketch.merge(other.binned)
      self = ScalarSample(sketch: sketch, exactLimit: limit)
    case (nil, var sketch?):
      sketch.merge(binned)
      self = ScalarSample(sketch: sketch, exactLimit: limit)
    }
  }

  /// The number of values.
  public var count: Int { folded?.count ?? exact.count }

  /// The sample as a sketch (itself, or its exact values counted into one), for a rank test between an
  /// exact and a sketched sample, and for merging into a sketch.
  public var binned: LogBucketSketch {
    if let folded { return folded }
    var sketch = LogBucketSketch()
    for v in exact { sketch.add(v) }
    return sketch
  }

  /// The sum of the values: exact once the sample is a sketch, summed in ascending order before.
  public var sum: Double {
    if let folded { folded.sum.value } else { ascendingExact.reduce(0, +) }
  }

  /// Σ value²: summed in ascending order while exact; past the limit, from the sketch's buckets (each
  /// value taken at its representative, so within 2% of the exact sum).
  public var sumOfSquares: Double { sums.squares }

  /// ``sum`` and ``sumOfSquares`` together, from one sort of the values while exact.
  public var sums: (values: Double, squares: Double) {
    if let folded {
      return (folded.sum.value, folded.bins.reduce(0) { $0 + Double($1.count) * $1.value * $1.value })
    }
    let sorted = ascendingExact
    let values = sorted.reduce(0, +)
    if let first = sorted.first, first < 0 { return (values, sorted.map { $0 * $0 }.sortedAscending().reduce(0, +)) }
    // The squares of non-negative values ascend with them: the values' order is the squares' own.
    return (values, sorted.reduce(0) { $0 + $1 * $1 })
  }

  /// The same values, with the exact ones in ascending order: the statistics that sort them (``sums``,
  /// the rank tests' tie groups, the percentiles) then find them in order, so that a sample evaluated
  /// several ways is sorted once. A sketch is returned as it is.
  func ascending() -> ScalarSample {
    var sample = self
    sample.sortExactValues()
    return sample
  }

  /// Puts the exact values in ascending order, in place (see ``ascending()``).
  mutating func sortExactValues() {
    guard folded == nil, !exactIsAscending else { return }
    (exact, exactIsAscending) = exact.sortedAscendingChecked()
  }

  /// The exact values in ascending order (`exact.sortedAscending()`): as they are when known to be.
  var ascendingExact: [Double] { exactIsAscending ? exact : exact.sortedAscending() }

  /// The exact values in ascending order, nil once the sample is a sketch.
  var ascendingExactValues: [Double]? { folded == nil ? ascendingExact : nil }

  /// Two samples are equal when they hold the same values in the same order, in the same form.
  public static func == (a: ScalarSample, b: ScalarSample) -> Bool {
    a.exact == b.exact && a.folded == b.folded && a.exactLimit == b.exactLimit
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(exact)
    hasher.combine(folded)
    hasher.combine(exactLimit)
  }

  /// The largest value (exact in both forms); nil when empty.
  public var maximum: Double? {
    if let folded { folded.count > 0 ? folded.maximum : nil } else { exact.max() }
  }

  /// Turns the exact values into a sketch.
  private mutating func fold() {
    folded = binned
    exact = []
    exactIsAscending = false
  }
}
