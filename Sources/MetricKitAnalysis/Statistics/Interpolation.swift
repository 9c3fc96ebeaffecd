/// How mass is spread inside a histogram's buckets for percentiles and means (`--interpolation`).
public enum Interpolation: String, Sendable, Hashable, CaseIterable {
  /// Uniformly inside each bucket: a piecewise-linear CDF.
  case uniform
  /// A monotone cubic (Steffen) CDF through the bucket edges, shaped by the neighbouring buckets:
  /// where the density falls steeply across wide buckets (hang times), mass sits toward the left of
  /// each bucket as it does in the data. Percentiles stay inside their guaranteed brackets.
  case monotone
}
