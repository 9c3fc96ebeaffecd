import Foundation

/// Why a gate's verdict is what it is, and what a rule asks, in words a reader checks against the
/// numbers beside them: every report of a comparison (text, Markdown, JSON, JUnit, GitHub, the page)
/// says it the same way.
public enum VerdictReason {
  /// Why `result`'s verdict is what it is: the test's q-value against `alpha`, the change against the
  /// rule's thresholds (and with ``Decision/confident`` the interval), the payloads a side lacks, the
  /// budget.
  ///
  /// `significant (q = 0.0327 < α 0.05), but +8.1% is within +10%`.
  /// Why a diagnostic rate could not be compared when a version has no metric payloads (a dump of
  /// diagnostics alone): nil for other results.
  static func missingExposure(_ result: RuleResult) -> String? {
    guard result.verdict == .insufficientData, result.rule.metric.kind == .diagnostic,
      result.rule.statistic != .newSignature, result.baselinePayloads == 0 || result.candidatePayloads == 0
    else { return nil }
    let side = result.baselinePayloads == 0 ? "the baseline" : "the candidate"
    return "no metric payloads for \(side): a rate per 1,000 payloads needs them as its exposure"
  }

  public static func text(_ result: RuleResult, alpha: Double, decision: Decision) -> String {
    let rule = result.rule
    var text: String
    let alphaText = String(format: "α %.3g", alpha)
    let threshold = self.threshold(rule)
    switch result.verdict {
    case .insufficientData:
      if let missing = missingExposure(result) {
        text = missing
      } else if let matching = result.matching, matching.coverageTooLow {
        text = String(
          format: "matching kept %.0f%% of the baseline's and %.0f%% of the candidate's payloads; too few to compare",
          matching.baselineCoverage * 100, matching.candidateCoverage * 100)
      } else if rule.metric.kind == .diagnostic && result.baseline == nil {
        text = "no diagnostics for one of the versions, or fewer than \(rule.minPayloads) payloads"
      } else {
        text =
          "\(result.baselinePayloads) baseline and \(result.candidatePayloads) candidate payloads; "
          + "\(rule.minPayloads) needed a side"
      }
    case .regression where rule.statistic == .newSignature:
      let n = result.newSignatures.count
      text = "\(n) signature\(n == 1 ? "" : "s") new in the candidate"
    case .unchanged where rule.statistic == .newSignature:
      text = "no signature new in the candidate"
    case .regression, .improvement:
      let q = result.decidingQValue ?? .nan
      text = String(format: "significant (q = %@ < %@) and %@ is past %@", qText(q), alphaText, move(result), threshold)
      if decision == .confident, result.changeInterval != nil { text += ", the whole 95% interval too" }
      if let interval = result.changeInterval, interval.contains(0), let test = result.testName {
        // The test and the interval are different methods (ranks of per-payload values against a ratio
        // of means): say which one the verdict follows.
        text +=
          "; the verdict follows the \(test) test: the 95% interval, a ratio of per-payload means, holds no change"
      }
    case .inconclusive where result.matching?.leftOutTooMuch == true && !result.intervalIsInconclusive:
      let matching = result.matching!
      let (share, side) =
        matching.baselineCoverage <= matching.candidateCoverage
        ? (1 - matching.baselineCoverage, "baseline") : (1 - matching.candidateCoverage, "candidate")
      text = String(
        format:
          "not decided (q = %@): matching left out %.0f%% of the %@'s payloads, more than the %.0f%% an unchanged or improved verdict allows",
        qText(result.decidingQValue ?? 1), share * 100, side, matching.maximumLeftOut * 100)
    case .inconclusive:
      text = String(
        format:
          "not decided (q = %@): the 95%% interval holds changes both ways, past %@, and is wider than the band between the thresholds",
        qText(result.decidingQValue ?? 1), threshold)
    case .unchanged:
      guard let q = result.qValue, let qBetter = result.improvementQValue else {
        text = "no test could be run"
        break
      }
      let worse = q <= qBetter
      let decisive = min(q, qBetter)
      if decisive >= alpha {
        text = String(format: "not significant (q = %@ ≥ %@)", qText(decisive), alphaText)
      } else if !result.pastThresholds(worse: worse, decision: .significant) {
        text = String(
          format: "significant (q = %@ < %@), but %@ is within %@", qText(decisive), alphaText, move(result), threshold)
      } else {
        text = String(
          format: "significant (q = %@ < %@) and %@ is past %@, but the 95%% interval reaches within it",
          qText(decisive), alphaText, move(result), threshold)
      }
    }
    if result.budgetExceeded == true, let candidate = result.candidate, let budget = self.budget(rule) {
      text += "; \(NumberFormatting.text(candidate)) breaks the budget \(budget)"
    }
    return text
  }

  /// A q-value as every format writes it: three significant digits (`0.815`, `6.94e-05`).
  public static func qText(_ q: Double) -> String { String(format: "%.3g", q) }

  /// The thresholds a change must pass, in the bad direction: `+5%`, `+10% and +25 ms`, `−5%` for a
  /// higher-is-better metric; `any change` without one.
  public static func threshold(_ rule: RegressionRule) -> String {
    let sign = rule.polarity == .lowerIsBetter ? "+" : "−"
    var parts: [String] = []
    if let maxIncrease = rule.maxIncrease { parts.append(sign + NumberFormatting.percentText(maxIncrease)) }
    if let absolute = rule.maxIncreaseAbsolute { parts.append(sign + NumberFormatting.text(absolute) + unit(rule)) }
    return parts.isEmpty ? "any change" : parts.joined(separator: " and ")
  }

  /// The budget: `≤ 800 ms` (`≥` for a higher-is-better metric); nil without one.
  public static func budget(_ rule: RegressionRule) -> String? {
    guard let budget = rule.budget else { return nil }
    return (rule.polarity == .lowerIsBetter ? "≤ " : "≥ ") + NumberFormatting.text(budget) + unit(rule)
  }

  /// ` ms`, or nothing for plain numbers.
  private static func unit(_ rule: RegressionRule) -> String { rule.unit == "count" ? "" : " \(rule.unit)" }

  /// The change as the thresholds read it: `+8.1%`, `+8.1% (+12 ms)` when the rule has an absolute
  /// threshold too.
  static func move(_ result: RuleResult) -> String {
    var parts: [String] = []
    if let change = result.change { parts.append(String(format: "%+.1f%%", change * 100)) }
    if result.rule.maxIncreaseAbsolute != nil || result.change == nil, let absolute = result.changeAbsolute {
      parts.append((absolute >= 0 ? "+" : "") + NumberFormatting.text(absolute) + unit(result.rule))
    }
    if parts.isEmpty { return "the change" }
    return parts.count == 2 ? "\(parts[0]) (\(parts[1]))" : parts[0]
  }

  /// When the pooled and the matched comparison disagree on a rule (one is past a threshold the other
  /// is not), one plain sentence that says so and names the mix's largest move:
  /// `pooled, … p50 looks +22.9%; within the same devices and OS it is +0.4%: the candidate's payloads
  /// came more from iPhone9,1 · iPhone OS 15.8 (41% against 12%)`. Nil when they agree.
  public static func disagreement(_ result: RuleResult) -> String? {
    guard let matching = result.matching, let pooled = matching.pooledChange, let matched = result.change,
      let pb = matching.pooledBaseline, let pc = matching.pooledCandidate, let b = result.baseline,
      let c = result.candidate
    else { return nil }
    let rule = result.rule
    guard
      rule.worsened(from: pb, to: pc) != rule.worsened(from: b, to: c)
        || rule.improved(from: pb, to: pc) != rule.improved(from: b, to: c)
    else { return nil }
    var text = String(
      format: "pooled, %@ %@ looks %+.1f%%; within the same %@ it is %+.1f%%", rule.metric.description,
      rule.statistic.description, pooled * 100, matching.fieldsText, matched * 100)
    if let shift = matching.shifts.first {
      let direction = shift.candidateShare > shift.baselineShare ? "more" : "less"
      text += String(
        format: ": the candidate's payloads came %@ from %@ (%.0f%% against %.0f%%)", direction, shift.label,
        shift.candidateShare * 100, shift.baselineShare * 100)
    }
    return text
  }

  /// How the payloads matching left out differ, where much of a version was: `not compared: 75% of
  /// the candidate's payloads, CPU time mean 2.10 s there against 410 ms compared`; nil otherwise.
  public static func leftOut(_ result: RuleResult) -> String? {
    guard let matching = result.matching else { return nil }
    let suffix = unit(result.rule)
    let sides: [(String, Double?, Double, Double?)] = [
      ("baseline", matching.leftOutBaseline, matching.baselineCoverage, result.baseline),
      ("candidate", matching.leftOutCandidate, matching.candidateCoverage, result.candidate),
    ]
    let parts = sides.compactMap { side, leftOut, coverage, compared -> String? in
      guard let leftOut else { return nil }
      var text = String(
        format: "%.0f%% of the %@'s payloads, %@ %@ %@%@ there", (1 - coverage) * 100, side,
        result.rule.metric.description, result.rule.statistic.description, NumberFormatting.text(leftOut), suffix)
      if let compared { text += " against \(NumberFormatting.text(compared))\(suffix) compared" }
      return text
    }
    return parts.isEmpty ? nil : "not compared: " + parts.joined(separator: "; ")
  }

  /// Where a regressed or inconclusive rule's change came from: `iPhone12,1 · iPhone OS 16.7 +9.1%,
  /// iPhone13,2 +2.0%` (each stratum's part of the relative change); nil without matching.
  public static func contributions(_ result: RuleResult) -> String? {
    guard let found = result.matching?.contributions, !found.isEmpty else { return nil }
    return found.map { String(format: "%@ %+.1f%%", $0.label, $0.contribution * 100) }.joined(separator: ", ")
  }

  /// What matching kept: `matched on devices and OS: 14 strata; 96% of the baseline's and 88% of the
  /// candidate's payloads`; nil for a pooled comparison.
  public static func coverage(_ matching: RuleMatching?) -> String? {
    guard let matching else { return nil }
    return String(
      format: "matched on %@: %d strata; %.0f%% of the baseline's and %.0f%% of the candidate's payloads",
      matching.fieldsText, matching.strata, matching.baselineCoverage * 100, matching.candidateCoverage * 100)
  }
}
