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

  /// Whether the change's interval cannot tell: it holds a change for the better and one for the
  /// worse, reaches past the rule's thresholds, and is wider than the band between the thresholds
  /// both ways (`+32.9% [−7.3, +90.5]` against `+10%`). A rule without thresholds is never
  /// inconclusive: significance alone decides it.
  var intervalIsInconclusive: Bool {
    guard let b = baseline, b != 0, let interval = changeInterval, interval.lowerBound < 0, interval.upperBound > 0
    else { return false }
    let relative = [rule.maxIncrease, rule.maxIncreaseAbsolute.map { $0 / abs(b) }].compactMap { $0 }.max()
    guard let relative, interval.upperBound - interval.lowerBound > 2 * relative else { return false }
    let ends = [b + interval.lowerBound * abs(b), b + interval.upperBound * abs(b)]
    return ends.contains { rule.worsened(from: b, to: $0) || rule.improved(from: b, to: $0) }
  }
}

extension RuleResult {
  /// Whether the change's interval shows the candidate no worse than the rule allows: neither end
  /// of it is past the thresholds in the bad direction. False without an interval: then only the
  /// test's failure to find a change speaks, which is not evidence of none.
  var intervalClearsThresholds: Bool {
    guard let b = baseline, let interval = changeInterval else { return false }
    return ![interval.lowerBound, interval.upperBound].contains { rule.worsened(from: b, to: b + $0 * abs(b)) }
  }
}
