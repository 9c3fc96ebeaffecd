extension ComparisonReport {
  /// How a gate ends, besides its report: the exit status CI reads and why.
  public enum Outcome: Sendable, Equatable {
    /// The gate passed.
    case passed
    /// A regression at `error` severity: the gate fails.
    case failed
    /// No error rule had data enough to decide: a pass would mean nothing.
    case notEvaluated(reason: String)
  }

  /// The gate's outcome; with `acceptingInsufficient`, a gate with nothing evaluated passes.
  public func outcome(acceptingInsufficient: Bool) -> Outcome {
    if gateFails { return .failed }
    guard nothingEvaluated && !acceptingInsufficient else { return .passed }
    return .notEvaluated(
      reason: "nothing to evaluate: every error rule had insufficient data "
        + "(\(baselinePayloads) baseline and \(candidatePayloads) candidate payloads)")
  }
}
