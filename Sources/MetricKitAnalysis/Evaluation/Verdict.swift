/// The outcome of one rule.
public enum Verdict: String, Sendable, Hashable, CaseIterable {
  /// Significantly worse (q < α) and past every threshold in the bad direction.
  case regression
  /// Significantly better and past every threshold in the good direction.
  case improvement
  /// Neither.
  case unchanged
  /// Fewer payloads than the rule's minimum on either side.
  case insufficientData = "insufficient-data"
}
