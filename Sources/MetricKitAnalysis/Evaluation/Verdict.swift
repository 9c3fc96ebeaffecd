/// The outcome of one rule.
public enum Verdict: String, Sendable, Hashable, CaseIterable {
  /// Significantly worse (q < α) and past every threshold in the bad direction.
  case regression
  /// Significantly better and past every threshold in the good direction.
  case improvement
  /// Neither, and the change's interval does not leave it open.
  case unchanged
  /// Neither, but the change's interval is wide: it holds changes both ways, one past the thresholds,
  /// and is wider than the band between the thresholds both ways. The data cannot tell.
  case inconclusive
  /// Fewer payloads than the rule's minimum on either side, or too little of either matched.
  case insufficientData = "insufficient-data"
}
