/// How a significant change becomes a verdict (`compare --decision`).
public enum Decision: String, Sendable, Hashable, CaseIterable {
  /// The change is significant (q < α) and its point estimate is past the rule's thresholds.
  case significant
  /// The change is significant and its whole confidence interval is past the thresholds: fewer flags
  /// on changes near a threshold, at the cost of power. A rule without an interval (a baseline of 0
  /// on a scale without logarithms) is decided as `significant`.
  case confident
}
