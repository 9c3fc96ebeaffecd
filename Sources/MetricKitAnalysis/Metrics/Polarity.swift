/// Which direction is better for a metric.
public enum Polarity: String, Sendable, Hashable, CaseIterable {
  /// Smaller is better (times, memory, hangs): an increase is a regression. The default.
  case lowerIsBetter = "lower-is-better"
  /// Larger is better: a decrease is a regression.
  case higherIsBetter = "higher-is-better"
}
