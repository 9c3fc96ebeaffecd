/// How a histogram's mean is estimated from its buckets.
public enum MeanEstimator: String, Sendable, Hashable, CaseIterable {
  /// Each bucket's count at its midpoint: the mean of the mixture of uniforms. The default; off by at
  /// most half the widest bucket.
  case midpoint
  /// Each bucket's count at its end: Σ count × bucketEnd ÷ Σ count, the usual blog recipe. Biased up.
  case bucketEnd = "bucket-end"
  /// Each bucket's count at its start: the recipe's lower twin. Biased down.
  case bucketStart = "bucket-start"

  /// The value standing for a bucket `[start, end)`.
  func representative(start: Double, end: Double) -> Double {
    switch self {
    case .midpoint: start + (end - start) / 2
    case .bucketEnd: end
    case .bucketStart: start
    }
  }
}
