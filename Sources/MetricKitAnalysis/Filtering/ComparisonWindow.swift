/// Which days of the two versions a matched comparison reads (`compare --window`).
public enum ComparisonWindow: String, Sendable, Hashable, CaseIterable {
  /// Every day of both versions: the OS version strata absorb an OS update during the rollout.
  case all
  /// Only the days from the later version's first day to the earlier version's last day: both
  /// versions measured over the same period, at the cost of the payloads outside it.
  case overlap
}
