/// One value per payload (peak memory, CPU time, …): its mean and its percentiles across payloads by
/// linear interpolation between order statistics (type 7, numpy's default), through GSL.
public struct ScalarSample: Sendable, Hashable {
  /// The values, in any order.
  public private(set) var values: [Double]

  /// Creates a sample.
  public init(_ values: [Double] = []) { self.values = values }

  /// Adds one value.
  public mutating func append(_ value: Double) { values.append(value) }

  /// Adds another sample's values.
  public mutating func merge(_ other: ScalarSample) { values.append(contentsOf: other.values) }

  /// The number of values.
  public var count: Int { values.count }

  /// The arithmetic mean, through GSL.
  public func mean() throws(StatisticsError) -> Double { try summary([]).mean }

  /// The mean and type-7 percentiles from one sort.
  public func summary(_ percentiles: [Percentile]) throws(StatisticsError) -> (mean: Double, percentiles: [Double]) {
    guard !values.isEmpty else { throw .empty }
    let sorted = values.sorted()
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
