import Foundation

/// Renders a comparison for people and for CI systems: aligned text, the JSON contract of `Docs/json.md`, Markdown for a
/// pull-request comment, JUnit XML (one test case per rule), GitHub Actions annotations, and OpenMetrics
/// gauges for a dashboard.
public enum ComparisonRenderer {
  /// The formats `compare` writes.
  public enum Format: String, Sendable, CaseIterable {
    /// Aligned text with arrows and units.
    case text
    /// The JSON contract of `Docs/json.md`.
    case json
    /// Markdown for a pull-request comment.
    case markdown
    /// JUnit XML for Jenkins, GitLab and other CI systems.
    case junit
    /// GitHub Actions workflow commands (`::error title=…::…`).
    case github
    /// OpenMetrics gauges (for a Pushgateway): each rule's change, verdict as a label.
    case openmetrics
  }

  /// Renders `report` in `format`. With `sourceRoot` (the repository's folder), the GitHub format
  /// annotates each new signature whose culprit's file lies in it on that file and line.
  public static func render(_ report: ComparisonReport, as format: Format, sourceRoot: String? = nil) -> String {
    switch format {
    case .text: text(report)
    case .json: json(report)
    case .markdown: markdown(report)
    case .junit: junit(report)
    case .github: github(report, sourceRoot: sourceRoot)
    case .openmetrics: OpenMetricsWriter.write(report)
    }
  }

  // MARK: - Shared wording

  static func ruleName(_ r: RuleResult) -> String {
    "\(r.rule.metric) \(r.rule.statistic)" + (r.by.map { " [\($0.key) \($0.value)]" } ?? "")
  }

  static func value(_ v: Double?, _ unit: String) -> String {
    guard let v else { return "–" }
    return unit == "count" ? NumberFormatting.text(v) : "\(NumberFormatting.text(v)) \(unit)"
  }

  /// The change with its 95% interval: `↑ +8.6% [+4.1, +13.0]`.
  static func changeText(_ r: RuleResult) -> String {
    guard let absolute = r.changeAbsolute else { return "–" }
    let arrow = absolute > 0 ? "↑" : absolute < 0 ? "↓" : "→"
    guard let change = r.change else { return arrow }
    var text = String(format: "%@ %+.1f%%", arrow, change * 100)
    if let interval = r.changeInterval {
      text += String(format: " [%+.1f, %+.1f]", interval.lowerBound * 100, interval.upperBound * 100)
    }
    return text
  }

  /// The q-value that decided the verdict (``RuleResult/decidingQValue``), as every format writes it.
  static func decisiveQ(_ r: RuleResult) -> String {
    r.decidingQValue.map(VerdictReason.qText) ?? "–"
  }

  /// The rule's thresholds and budget in one cell: `+10%`, `+5% · ≤ 800 ms`.
  static func thresholdCell(_ rule: RegressionRule) -> String {
    if rule.statistic == .newSignature { return "new ≥ \(rule.minCount)×" }
    return VerdictReason.threshold(rule) + (VerdictReason.budget(rule).map { " · \($0)" } ?? "")
  }

  static func verdictText(_ r: RuleResult) -> String {
    var text = r.verdict.rawValue
    if r.budgetExceeded == true { text += " + over budget" }
    return text
  }

  static func explanation(_ r: RuleResult, _ report: ComparisonReport) -> String {
    let unit = r.rule.unit
    var parts = [
      "\(report.candidate) \(value(r.candidate, unit)) vs \(report.baseline) \(value(r.baseline, unit)) (\(changeText(r)))"
    ]
    switch r.verdict {
    case .insufficientData where r.rule.metric.kind == .diagnostic && r.baseline == nil:
      parts = [
        VerdictReason.missingExposure(r)
          ?? "the inputs hold no diagnostics for one of the versions, or fewer than \(r.rule.minPayloads) payloads"
      ]
    case .insufficientData:
      parts.append("\(r.baselinePayloads)/\(r.candidatePayloads) payloads, \(r.rule.minPayloads) needed per side")
    default: break
    }
    if r.budgetExceeded == true, let budget = r.rule.budget { parts.append("budget \(value(budget, unit))") }
    if r.verdict != .insufficientData {
      parts.append(VerdictReason.text(r, alpha: report.alpha, decision: report.decision))
    }
    parts += matchingParts(r)
    if let evidence = r.crashEvidence { parts.append(crashEvidenceText(evidence)) }
    if !r.newSignatures.isEmpty {
      parts = [
        "new in \(report.candidate): "
          + r.newSignatures.map { g in
            "\(g.signature.text) (×\(g.count))" + (g.culprit.map { "; culprit \($0.text)" } ?? "")
          }.joined(separator: "; ")
      ]
    }
    return parts.joined(separator: "; ")
  }

  /// What the crash diagnostics say of a stability rule's change: `crash reports 12.0 → 21.5 per 1000
  /// device-days, ↑ +79.2% [+22.0, +163.1], agreeing; behind it: EXC_BAD_ACCESS … (×30, new)`.
  static func crashEvidenceText(_ e: CrashEvidence) -> String {
    let perThousand = { (count: Int, days: Int) in NumberFormatting.text(1000 * Double(count) / Double(days)) }
    var text =
      "crash reports \(perThousand(e.baselineReports, e.exposure.baseline)) → "
      + "\(perThousand(e.candidateReports, e.exposure.candidate)) per 1000 device-days"
    if let change = e.change {
      text += String(format: ", %@ %+.1f%%", change > 0 ? "↑" : change < 0 ? "↓" : "→", change * 100)
      if let i = e.changeInterval {
        text += String(format: " [%+.1f, %+.1f]", i.lowerBound * 100, i.upperBound * 100)
      }
    }
    switch e.agrees {
    case true?: text += ", agreeing"
    case false?: text += ", not agreeing with the terminations"
    case nil: break
    }
    if !e.signatures.isEmpty {
      text +=
        "; behind it: "
        + e.signatures.map { s in
          "\(s.group.signature.text) (×\(s.group.count)" + (s.isNew ? ", new)" : " from \(s.baselineReports))")
        }.joined(separator: "; ")
    }
    return text
  }

  /// Whether `r` fails `report`'s gate.
  static func fails(_ r: RuleResult, _ report: ComparisonReport) -> Bool {
    r.failsGate(failingVerdicts: report.failingVerdicts)
  }

  /// What matching did, in plain lines: the strata and coverage, what only one version held, the
  /// mix's largest moves; or why the versions were compared pooled. Empty for `--stratify none`.
  static func matchingLines(_ report: ComparisonReport) -> [String] {
    if let reason = report.unmatchedReason { return ["Compared pooled: \(reason)."] }
    guard let m = report.matching else { return [] }
    var lines = [
      m.isPooled
        ? String(
          format:
            "Compared pooled: no stratum of the same %@ held %d payloads of each version; the sparse strata that share a device, its family or its OS with the other version's were compared as one sample, %.0f%% of the baseline's and %.0f%% of the candidate's payloads.",
          m.fieldsText, m.minimumPayloads, m.baselineCoverage * 100, m.candidateCoverage * 100)
        : String(
          format:
            "Matched within the same %@: %d %@ (coarsened below %d payloads a version), weighed by their share of both versions' matched payloads; %.0f%% of the baseline's and %.0f%% of the candidate's payloads compared.",
          m.fieldsText, m.strata.count, m.strata.count == 1 ? "stratum" : "strata", m.minimumPayloads,
          m.baselineCoverage * 100, m.candidateCoverage * 100)
    ]
    for (side, other, leftOut, total) in [
      ("baseline", "candidate", m.baselineLeftOut, m.baselinePayloads),
      ("candidate", "baseline", m.candidateLeftOut, m.candidatePayloads),
    ] where leftOut.payloads > 0 {
      var reasons: [String] = []
      if leftOut.unmatched > 0 {
        let largest = leftOut.largest.map { "\(MatchedStrata.label($0.values)) (\($0.payloads))" }
        reasons.append(
          "\(leftOut.unmatched) in strata the \(other) lacks or hardly holds"
            + (largest.isEmpty ? "" : ", the largest " + largest.joined(separator: ", ")))
      }
      if leftOut.beyondLimit > 0 { reasons.append("\(leftOut.beyondLimit) past the strata kept apart a version") }
      if leftOut.outsideStrata > 0 { reasons.append("\(leftOut.outsideStrata) outside the window") }
      lines.append(
        String(
          format: "Left out of the %@: %.0f%% of its payloads (%d of %d): %@.", side,
          Double(leftOut.payloads) / Double(max(1, total)) * 100, leftOut.payloads, total,
          reasons.joined(separator: "; ")))
    }
    if m.leftOutTooMuch {
      lines.append(
        String(
          format:
            "More than %.0f%% of a version was left out: a rule that would be unchanged or improved is inconclusive.",
          m.maximumLeftOut * 100))
    }
    if !m.shifts.isEmpty {
      lines.append(
        "Mix moved most: "
          + m.shifts.map {
            String(
              format: "%@ %.0f%% of the candidate's payloads against %.0f%% of the baseline's", $0.label,
              $0.candidateShare * 100, $0.baselineShare * 100)
          }.joined(separator: "; ") + ".")
    }
    return lines
  }

  /// Per rule, what matching found that the table cannot show: where a change came from, and where
  /// the pooled comparison disagrees.
  static func matchingNotes(_ report: ComparisonReport, naming name: (RuleResult) -> String = ruleName) -> [String] {
    report.results.compactMap { r in
      let parts = matchingParts(r)
      return parts.isEmpty ? nil : "\(name(r)): " + parts.joined(separator: "; ")
    }
  }

  /// A rule's matching findings: the strata its change came from, and the pooled comparison's
  /// disagreement.
  private static func matchingParts(_ r: RuleResult) -> [String] {
    [
      VerdictReason.contributions(r).map { "most from " + $0 }, VerdictReason.disagreement(r),
      VerdictReason.leftOut(r),
    ].compactMap { $0 }
  }

  // MARK: - Text

  /// What is compared with what: `Comparing 3.9.0 (56 payloads) against 3.8.0 (56 payloads)`.
  static func comparing(_ report: ComparisonReport) -> String {
    "Comparing \(TextEscaping.terminalCell(report.candidate)) (\(report.candidatePayloads) payloads) against "
      + "\(TextEscaping.terminalCell(report.baseline)) (\(report.baselinePayloads) payloads)"
  }

  static func text(_ report: ComparisonReport) -> String {
    var out = comparing(report) + "\n\n"
    let header = ["rule", "baseline", "candidate", "change", "q", "threshold", "verdict", "severity"]
    let rows = report.results.map { r in
      [
        TextEscaping.terminalCell(ruleName(r)), value(r.baseline, r.rule.unit), value(r.candidate, r.rule.unit),
        changeText(r), decisiveQ(r), thresholdCell(r.rule), verdictText(r), r.rule.severity.rawValue,
      ]
    }
    out += TextTable.render(header: header, rows: rows, leftAligned: [0, 5, 6, 7])
    let notes = matchingNotes(report)
    if !notes.isEmpty { out += "\n" + notes.map { TextEscaping.terminal($0) + "\n" }.joined() }
    let matching = matchingLines(report)
    if !matching.isEmpty { out += "\n" + matching.map { TextEscaping.terminal($0) + "\n" }.joined() }
    if let organizer = report.organizer { out += "\n" + OrganizerRenderer.text(organizer) }
    out += "\n" + gateLine(report, naming: ruleName) + "\n" + footer(report)
    return out
  }

  /// The gate's verdict and what decided it, the failing rules named by `name`: `Gate: FAIL — …`.
  static func gateLine(_ report: ComparisonReport, naming name: (RuleResult) -> String) -> String {
    var out = "Gate: \(report.gate.uppercased())"
    if report.nothingEvaluated { out += " — no error rule had data enough to decide" }
    if !report.hasErrorRules { out += " — the rules only warn: no error rule can fail it" }
    let failing = report.failingResults
    if !failing.isEmpty {
      out += " — " + failing.map { TextEscaping.terminalCell(name($0)) }.joined(separator: ", ")
    }
    if report.organizer?.failsGate == true { out += (failing.isEmpty ? " — " : ", ") + "Apple's regressions" }
    return out
  }

  static func footer(_ report: ComparisonReport) -> String {
    let i = report.inputs
    var out =
      "Inputs: \(i.files) files; \(i.payloads) payloads read; \(i.counted) counted; \(i.rejectedCount) rejected\n"
    out += "Accounting: \(i.balance)\n"
    if let note = i.unknownKeysNote { out += TextEscaping.terminal(note) + "\n" }
    if let snapshot = report.baselineSnapshot {
      out += "Baseline from snapshot \(snapshot.path) (\(snapshot.inputs.counted) payloads)\n"
    }
    out += methods(report) + "\n"
    return out
  }

  /// How the verdicts were reached, in one line.
  static func methods(_ report: ComparisonReport) -> String {
    let tests =
      report.matching != nil
      ? "Within strata: van Elteren's stratified Wilcoxon per payload (rates: Welch's t on the log ratio of standardized rates; diagnostic rates: Mantel–Haenszel; terminations: Mantel–Haenszel widened by their dispersion; crash-free device-days: Cochran–Mantel–Haenszel)"
      : "One-sided Mann–Whitney U per payload (pooled rates: Welch's t on log ratios; terminations and crash-free device-days: Mantel–Haenszel's tests on one stratum)"
    return String(
      format: "%@, Benjamini–Hochberg over %d tests, alpha %.3g; changes with 95%% intervals; decision: %@", tests,
      report.results.filter { $0.pValue != nil }.count, report.alpha, report.decision.rawValue)
  }

  // MARK: - JSON

  static func json(_ report: ComparisonReport) -> String {
    var top: [(String, JSONWriter.Value)] = [
      ("schemaVersion", .integer(Int128(ComparisonReport.schemaVersion))),
      ("baseline", .string(report.baseline)),
      ("candidate", .string(report.candidate)),
      ("inputs", report.inputs.json),
    ]
    if let snapshot = report.baselineSnapshot {
      top.append(
        (
          "baselineSnapshot",
          .object([("path", .string(snapshot.path)), ("inputs", snapshot.inputs.json)])
        ))
    }
    top.append(("matching", matchingJSON(report)))
    top.append(("alpha", .number(report.alpha)))
    top.append(("decision", .string(report.decision.rawValue)))
    top.append(("results", .array(report.results.map { result($0, report) })))
    if let organizer = report.organizer { top.append(("organizer", OrganizerRenderer.json(organizer))) }
    top.append(("gate", .string(report.gate)))
    top.append(("evaluatedErrorRules", .integer(Int128(report.evaluatedErrorRules))))
    return JSONWriter.render(.object(top))
  }

  private static func optional(_ v: Double?) -> JSONWriter.Value { v.map { .number($0) } ?? .null }

  /// The whole versions' matching: null for a pooled comparison (with `unmatchedReason` said).
  private static func matchingJSON(_ report: ComparisonReport) -> JSONWriter.Value {
    guard let m = report.matching else {
      return report.unmatchedReason.map { .object([("pooled", .string($0))]) } ?? .null
    }
    func share(_ s: MixShift) -> JSONWriter.Value {
      .object([
        ("stratum", .array(s.values.map { .string($0) })), ("label", .string(s.label)),
        ("baselineShare", .number(s.baselineShare)), ("candidateShare", .number(s.candidateShare)),
      ])
    }
    return .object([
      ("fields", .array(m.dimensions.map { .string($0.description) })),
      ("minStratumPayloads", .integer(Int128(m.minimumPayloads))),
      (
        "coverage",
        .object([("baseline", .number(m.baselineCoverage)), ("candidate", .number(m.candidateCoverage))])
      ),
      (
        "payloads",
        .object([
          ("baseline", .integer(Int128(m.baselinePayloads))), ("candidate", .integer(Int128(m.candidatePayloads))),
          ("matchedBaseline", .integer(Int128(m.matchedBaselinePayloads))),
          ("matchedCandidate", .integer(Int128(m.matchedCandidatePayloads))),
        ])
      ),
      (
        "leftOut",
        .object([
          ("baselineOnlyStrata", .integer(Int128(m.baselineOnlyStrata))),
          ("candidateOnlyStrata", .integer(Int128(m.candidateOnlyStrata))),
          ("baseline", leftOutJSON(m.baselineLeftOut)), ("candidate", leftOutJSON(m.candidateLeftOut)),
          ("tooMuch", .bool(m.leftOutTooMuch)), ("maximumShare", .number(m.maximumLeftOut)),
        ])
      ),
      ("pooled", .bool(m.isPooled)),
      (
        "strata",
        .array(
          m.strata.map {
            .object([
              ("stratum", .array($0.values.map { .string($0) })), ("label", .string(MatchedStrata.label($0.values))),
              ("weight", .number($0.weight)), ("baselinePayloads", .integer(Int128($0.baselinePayloads))),
              ("candidatePayloads", .integer(Int128($0.candidatePayloads))),
            ])
          })
      ),
      ("shifts", .array(m.shifts.map(share))),
    ])
  }

  /// What of one version matching left out, by reason, with its largest unmatched strata.
  private static func leftOutJSON(_ leftOut: LeftOutPayloads) -> JSONWriter.Value {
    .object([
      ("payloads", .integer(Int128(leftOut.payloads))), ("unmatched", .integer(Int128(leftOut.unmatched))),
      ("beyondLimit", .integer(Int128(leftOut.beyondLimit))),
      ("outsideStrata", .integer(Int128(leftOut.outsideStrata))),
      (
        "largest",
        .array(
          leftOut.largest.map {
            .object([
              ("stratum", .array($0.values.map { .string($0) })), ("label", .string(MatchedStrata.label($0.values))),
              ("payloads", .integer(Int128($0.payloads))),
            ])
          })
      ),
    ])
  }

  /// A rule's matching: the pooled statistics beside the standardized ones, coverage, where a change
  /// came from, and the sentence when pooled and matched disagree.
  private static func ruleMatchingJSON(_ r: RuleResult) -> JSONWriter.Value {
    guard let m = r.matching else { return .null }
    return .object([
      (
        "pooled",
        .object([
          ("baseline", optional(m.pooledBaseline)), ("candidate", optional(m.pooledCandidate)),
          ("change", optional(m.pooledChange)),
        ])
      ),
      ("strata", .integer(Int128(m.strata))),
      (
        "coverage",
        .object([("baseline", .number(m.baselineCoverage)), ("candidate", .number(m.candidateCoverage))])
      ),
      (
        "contributions",
        .array(
          m.contributions.map {
            .object([
              ("stratum", .array($0.values.map { .string($0) })), ("label", .string($0.label)),
              ("weight", .number($0.weight)), ("baseline", .number($0.baseline)), ("candidate", .number($0.candidate)),
              ("contribution", .number($0.contribution)),
            ])
          })
      ),
      ("disagreement", VerdictReason.disagreement(r).map { .string($0) } ?? .null),
      (
        "leftOut",
        .object([
          ("baseline", optional(m.leftOutBaseline)), ("candidate", optional(m.leftOutCandidate)),
          ("tooMuch", .bool(m.leftOutTooMuch)), ("text", VerdictReason.leftOut(r).map { .string($0) } ?? .null),
        ])
      ),
    ])
  }

  private static func result(_ r: RuleResult, _ report: ComparisonReport) -> JSONWriter.Value {
    var members: [(String, JSONWriter.Value)] = [
      ("metric", .string(r.rule.metric.rawValue)),
      ("statistic", .string(r.rule.statistic.description)),
    ]
    if let by = r.by { members.append(("by", .object([(by.key, .string(by.value))]))) }
    members += [
      ("unit", .string(r.rule.unit)),
      ("polarity", .string(r.rule.polarity.rawValue)),
      ("baseline", optional(r.baseline)),
      ("candidate", optional(r.candidate)),
      ("change", optional(r.change)),
      ("changeInterval", r.changeInterval.map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null),
      ("changeAbsolute", optional(r.changeAbsolute)),
      ("test", r.testName.map { .string($0) } ?? .null),
      ("pValue", optional(r.pValue)),
      ("qValue", optional(r.qValue)),
      ("qValueImprovement", optional(r.improvementQValue)),
      ("q", optional(r.decidingQValue)),
      ("u", optional(r.test?.u)),
      ("z", optional(r.test?.z ?? r.stratifiedTest?.z ?? r.stratifiedRateTest?.z ?? r.shareTest?.z)),
    ]
    if let dispersion = r.dispersion { members.append(("dispersion", .number(dispersion))) }
    members += [
      (
        "payloads",
        .object([
          ("baseline", .integer(Int128(r.baselinePayloads))), ("candidate", .integer(Int128(r.candidatePayloads))),
        ])
      )
    ]
    if r.baselineBounds != nil || r.candidateBounds != nil {
      func bounds(_ b: ClosedRange<Double>?) -> JSONWriter.Value {
        b.map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null
      }
      members.append(
        ("bounds", .object([("baseline", bounds(r.baselineBounds)), ("candidate", bounds(r.candidateBounds))])))
    }
    members.append(
      (
        "thresholds",
        .object([
          ("maxIncrease", optional(r.rule.maxIncrease)), ("maxIncreaseAbsolute", optional(r.rule.maxIncreaseAbsolute)),
          ("minPayloads", .integer(Int128(r.rule.minPayloads))),
        ])
      ))
    if let budget = r.rule.budget {
      members.append(
        ("budget", .object([("limit", .number(budget)), ("exceeded", r.budgetExceeded.map { .bool($0) } ?? .null)])))
    }
    if r.rule.statistic == .newSignature {
      members.append(("minCount", .integer(Int128(r.rule.minCount))))
      members.append(
        (
          "newSignatures",
          .array(
            r.newSignatures.map {
              .object([
                ("signature", .string($0.signature.identifier)), ("text", .string($0.signature.text)),
                ("count", .integer(Int128($0.count))), ("culprit", $0.culprit?.json ?? .null),
              ])
            })
        ))
    }
    if let e = r.crashEvidence {
      members.append(
        (
          "crashEvidence",
          .object([
            ("baselineReports", .integer(Int128(e.baselineReports))),
            ("candidateReports", .integer(Int128(e.candidateReports))),
            ("change", optional(e.change)),
            (
              "changeInterval",
              e.changeInterval.map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null
            ),
            ("agrees", e.agrees.map { .bool($0) } ?? .null),
            (
              "signatures",
              .array(
                e.signatures.map {
                  .object([
                    ("signature", .string($0.group.signature.identifier)), ("text", .string($0.group.signature.text)),
                    ("baseline", .integer(Int128($0.baselineReports))), ("candidate", .integer(Int128($0.group.count))),
                    ("culprit", $0.group.culprit?.json ?? .null),
                  ])
                })
            ),
          ])
        ))
    }
    members.append(("matching", ruleMatchingJSON(r)))
    members.append(("verdict", .string(r.verdict.rawValue)))
    members.append(("reason", .string(VerdictReason.text(r, alpha: report.alpha, decision: report.decision))))
    members.append(("severity", .string(r.rule.severity.rawValue)))
    return .object(members)
  }

  // MARK: - Markdown

  static func markdown(_ report: ComparisonReport) -> String {
    let icon = report.gateFails ? "❌" : report.nothingEvaluated ? "⚠️" : "✅"
    var out = "### \(icon) MetricKit gate: \(report.gate) — \(TextEscaping.markdownCell(report.candidate)) vs "
    out += "\(TextEscaping.markdownCell(report.baseline))\n\n"
    out += "\(report.candidatePayloads) candidate and \(report.baselinePayloads) baseline payloads (device-days).\n\n"
    for line in matchingLines(report) { out += TextEscaping.markdownCell(line) + "\n\n" }
    // With `--by`, each group's results are rows of their own: a column names the group.
    let groupKey = report.results.lazy.compactMap(\.by).first?.key
    out += "| | Metric | Statistic |" + (groupKey.map { " \(TextEscaping.markdownCell($0)) |" } ?? "")
    out += " Baseline | Candidate | Change | q | Threshold | Verdict |\n"
    out += "|---|---|---|" + (groupKey == nil ? "" : "---|") + "---:|---:|---:|---:|---|---|\n"
    for r in report.results {
      let mark: String
      switch (fails(r, report), r.verdict, r.budgetExceeded == true) {
      case (true, _, _): mark = "❌"
      case (false, .regression, _), (false, _, true): mark = "⚠️"
      case (_, .improvement, _): mark = "🎉"
      case (_, .insufficientData, _): mark = "➖"
      case (_, .inconclusive, _): mark = "❔"
      default: mark = "✅"
      }
      let group = groupKey == nil ? [] : [r.by.map { TextEscaping.markdownCell($0.value) } ?? "(all)"]
      let cells =
        [mark, TextEscaping.markdownCell(r.rule.metric.rawValue), r.rule.statistic.description] + group + [
          value(r.baseline, r.rule.unit), value(r.candidate, r.rule.unit), changeText(r),
          decisiveQ(r), TextEscaping.markdownCell(thresholdCell(r.rule)),
          verdictText(r) + (r.rule.severity == .warning ? " (warning)" : ""),
        ]
      out += "| " + cells.joined(separator: " | ") + " |\n"
    }
    let notes = matchingNotes(report)
    if !notes.isEmpty { out += "\n" + notes.map { "- " + TextEscaping.markdownCell($0) + "\n" }.joined() }
    out +=
      report.matching != nil
      ? "\n<sub>Within strata: van Elteren's stratified Wilcoxon over payloads (rates: Welch's t on standardized rates; diagnostic rates and terminations: Mantel–Haenszel; crash-free device-days: Cochran–Mantel–Haenszel), "
      : "\n<sub>One-sided Mann–Whitney U over payloads (pooled rates: Welch's t on log ratios; terminations and crash-free device-days: Mantel–Haenszel's tests on one stratum), "
    out += "Benjamini–Hochberg adjusted (α = \(report.alpha)); change [95% interval]; a regression also needs "
    out +=
      report.decision == .confident
      ? "the whole interval past the rule's threshold. metrics-report</sub>\n"
      : "the pooled statistic past the rule's threshold. metrics-report</sub>\n"
    if let organizer = report.organizer { out += "\n" + OrganizerRenderer.markdown(organizer) }
    return out
  }

  // MARK: - JUnit

  static func junit(_ report: ComparisonReport) -> String {
    let apple = report.organizer.map { [$0] } ?? []
    // Failures are exactly what fails the gate: a warning's regression is reported, not failed.
    let failures = report.failingResults.count + apple.filter(\.failsGate).count
    let skipped = report.results.filter { $0.verdict == .insufficientData }.count
    let tests = report.results.count + apple.count
    let suite = "metrics-report \(report.candidate) vs \(report.baseline)"
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out +=
      "<testsuites name=\"metrics-report\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
    out +=
      "  <testsuite name=\"\(TextEscaping.xml(suite))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
    let matching = matchingLines(report)
    if !matching.isEmpty {
      out += "    <properties>\n"
      out += "      <property name=\"matching\" value=\"\(TextEscaping.xml(matching.joined(separator: " ")))\"/>\n"
      out += "    </properties>\n"
    }
    for r in report.results {
      out +=
        "    <testcase classname=\"metrics-report.\(TextEscaping.xml(r.rule.metric.rawValue))\" name=\"\(TextEscaping.xml(ruleName(r)))\">\n"
      let message = TextEscaping.xml(explanation(r, report))
      if fails(r, report) {
        let type = r.verdict == .regression ? "regression" : r.budgetExceeded == true ? "budget" : r.verdict.rawValue
        out +=
          "      <failure type=\"\(type)\" message=\"\(message)\">\(TextEscaping.xml(r.rule.severity.rawValue)): \(message)</failure>\n"
      } else if r.verdict == .regression || r.budgetExceeded == true {
        out +=
          "      <system-out>\(TextEscaping.xml(verdictText(r))) (\(TextEscaping.xml(r.rule.severity.rawValue)): does not fail the gate): \(message)</system-out>\n"
      } else if r.verdict == .insufficientData {
        out += "      <skipped message=\"\(message)\"/>\n"
      } else {
        out += "      <system-out>\(TextEscaping.xml(r.verdict.rawValue)): \(message)</system-out>\n"
      }
      out += "    </testcase>\n"
    }
    for gate in apple {
      out += "    <testcase classname=\"metrics-report.organizer\" name=\"Apple's regression insights\">\n"
      let message = TextEscaping.xml(OrganizerRenderer.text(gate))
      if let severity = gate.severity, gate.failsGate {
        out += "      <failure type=\"organizer\" message=\"\(gate.appleRegressions.count) regressions\">"
        out += "\(severity.rawValue): \(message)</failure>\n"
      } else {
        out += "      <system-out>\(message)</system-out>\n"
      }
      out += "    </testcase>\n"
    }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  // MARK: - GitHub Actions

  /// `file` relative to `root` when it lies inside it (a build machine's absolute path, or one
  /// already relative); nil otherwise. The compiler's path is the build machine's: a file is found in
  /// the repository by the longest tail of its path that exists under `root`. A tail that climbs
  /// (`..`) or names itself (`.`) is never tried, and a file found through a link is taken only when
  /// it really lies under `root`: nothing outside the repository is annotated, or even looked at.
  static func repositoryPath(_ file: String, root: String) -> String? {
    let parts = file.split(separator: "/")
    guard let realRoot = realPath(root) else { return nil }
    // Tails from the longest; none may hold a `.` or `..` part.
    let firstPlain = (parts.lastIndex { $0 == "." || $0 == ".." }).map { $0 + 1 } ?? parts.startIndex
    for start in firstPlain..<parts.endIndex {
      let tail = parts[start...].joined(separator: "/")
      var isDirectory: ObjCBool = false
      let candidate = (root as NSString).appendingPathComponent(tail)
      if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
        let real = realPath(candidate), real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
      {
        return tail
      }
    }
    return nil
  }

  /// `path` with every link resolved (realpath(3)); nil when it does not exist.
  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  static func github(_ report: ComparisonReport, sourceRoot: String? = nil) -> String {
    var out = ""
    for r in report.results {
      let level: String
      if fails(r, report) {
        level = "error"
      } else if r.verdict == .regression || r.budgetExceeded == true {
        level = "warning"
      } else if [.insufficientData, .improvement, .inconclusive].contains(r.verdict)
        || VerdictReason.disagreement(r) != nil
      {
        level = "notice"
      } else {
        continue
      }
      let title = "\(verdictText(r)): \(ruleName(r))"
      out +=
        "::\(level) title=\(TextEscaping.githubProperty(title))::\(TextEscaping.githubMessage(explanation(r, report)))\n"
      // Each new signature on its culprit's line, when that file is the repository's.
      for g in r.newSignatures {
        guard let sourceRoot, let culprit = g.culprit, let symbol = culprit.symbol, let file = symbol.file,
          let path = repositoryPath(file, root: sourceRoot)
        else { continue }
        let place = "file=\(TextEscaping.githubProperty(path))" + (symbol.line.map { ",line=\($0)" } ?? "")
        let title = "New \(g.kind.rawValue) signature in \(report.candidate): \(symbol.shortFunction)"
        out += "::\(level) \(place),title=\(TextEscaping.githubProperty(title))::"
        out += TextEscaping.githubMessage("\(g.signature.text) (×\(g.count))") + "\n"
      }
    }
    if let organizer = report.organizer { out += OrganizerRenderer.github(organizer) }
    out += "::notice title=metrics-report gate \(report.gate)::"
    out +=
      TextEscaping.githubMessage(
        lines: ["\(report.candidate) vs \(report.baseline): \(report.failingResults.count) failing rules"]
          + matchingLines(report)) + "\n"
    return out
  }
}
