extension RuleResult {
  /// Whether the change is past the rule's thresholds in the bad (`worse`) or good direction: the
  /// point estimate, and with ``Decision/confident`` the end of the interval nearest no change too.
  func pastThresholds(worse: Bool, decision: Decision) -> Bool {
    guard let b = baseline, let c = candidate else { return false }
    let point = worse ? rule.worsened(from: b, to: c) : rule.improved(from: b, to: c)
    guard point, decision == .confident, let interval = changeInterval else { return point }
    let increaseIsWorse = rule.polarity == .lowerIsBetter
    let end = increaseIsWorse == worse ? interval.lowerBound : interval.upperBound
    let bound = b + end * abs(b)
    return worse ? rule.worsened(from: b, to: bound) : rule.improved(from: b, to: bound)
  }
}
