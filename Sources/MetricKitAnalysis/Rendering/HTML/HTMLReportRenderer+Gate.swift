/// The page's gate: the verdict on the first screen, and the table of every rule further down.
extension HTMLReportRenderer.Context {
  /// How a rule's row reads at a glance.
  enum RowOutcome: Int, Comparable {
    /// It fails the gate.
    case fail
    /// A warning's regression, a budget broken, or an interval that cannot tell.
    case warn
    /// Better, or shown no worse than the rule allows.
    case pass
    /// No change found, without an interval narrow enough to show there is none; or no data.
    case none

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    var className: String {
      switch self {
      case .fail: "fail"
      case .warn: "warn"
      case .pass: "pass"
      case .none: "none"
      }
    }
  }

  /// A result's outcome: an `unchanged` is a pass only when its interval clears the thresholds (a
  /// wide interval around no change is not good news).
  func outcome(_ r: RuleResult, _ report: ComparisonReport) -> RowOutcome {
    if ComparisonRenderer.fails(r, report) { return .fail }
    switch r.verdict {
    case .regression, .inconclusive: return .warn
    case _ where r.budgetExceeded == true: return .warn
    case .improvement: return .pass
    case .unchanged where r.rule.statistic == .newSignature: return .pass
    case .unchanged: return r.intervalClearsThresholds ? .pass : .none
    case .insufficientData: return .none
    }
  }

  /// A rule's name for people: the metric's title and statistic (`Launch time (first draw) p90`).
  func ruleTitle(_ rule: RegressionRule) -> String {
    let title = rule.metric.metric.title
    switch rule.statistic {
    case .value, .rate: return title
    case .newSignature: return "\(title): new signatures"
    default: return "\(title) \(rule.statistic)"
    }
  }

  /// The chart a rule's link goes to: its metric and statistic's trend chart, else the metric's,
  /// else its distribution, else the diagnostics.
  func target(_ rule: RegressionRule) -> String? {
    chartOfSpec[ReportChartSpec(metric: rule.metric, statistic: rule.statistic)]
      ?? chartOfMetric[rule.metric]
      ?? page.distributions.firstIndex { $0.metric == rule.metric }.map { "distribution-\($0)" }
      ?? (rule.metric.kind == .diagnostic && !page.diagnostics.isEmpty ? "diagnostics" : nil)
  }

  /// A link to `target` that, for a group's row, shows that group alone on the charts.
  func link(_ text: String, to target: String?, group: String?) -> String {
    guard let target else { return text }
    let solo = group.flatMap { groupRank[$0] }.map { " data-solo-group=\"\($0)\"" } ?? ""
    return "<a href=\"#\(target)\"\(solo)>\(text)</a>"
  }

  /// How far a result moved in its rule's bad direction (its relative change, negated for a
  /// higher-is-better metric); the least for a result without a change.
  private func worsening(_ r: RuleResult) -> Double {
    guard let change = r.change else { return -.infinity }
    return r.rule.polarity == .lowerIsBetter ? change : -change
  }

  /// The rules in the order a reader wants them: by their worst outcome (across groups), then as the
  /// rule file lists them; each rule's rows from worst to best (of one outcome, the one that moved
  /// furthest in the bad direction first).
  func orderedRules(_ report: ComparisonReport) -> [(rule: RegressionRule, rows: [RuleResult])] {
    var order: [RegressionRule] = []
    var rows: [RegressionRule: [RuleResult]] = [:]
    for r in report.results {
      if rows[r.rule] == nil { order.append(r.rule) }
      rows[r.rule, default: []].append(r)
    }
    let ranked = order.enumerated().map { n, rule in
      let sorted = rows[rule]!.enumerated().sorted {
        (outcome($0.element, report), -worsening($0.element), $0.offset)
          < (outcome($1.element, report), -worsening($1.element), $1.offset)
      }.map(\.element)
      return (n: n, rule: rule, rows: sorted, worst: outcome(sorted[0], report))
    }
    return ranked.sorted { ($0.worst, $0.n) < ($1.worst, $1.n) }.map { ($0.rule, $0.rows) }
  }

  /// The first screen: the gate's verdict, each failing rule with its change and interval, where it
  /// came from, new signatures, what matching did, and Apple's insights.
  func verdict(_ report: ComparisonReport) -> String {
    let candidate = TextEscaping.html(label(report.candidate))
    let baseline = TextEscaping.html(label(report.baseline))
    let ordered = orderedRules(report)
    let failing = ordered.filter { $0.rows.contains { outcome($0, report) == .fail } }
    let warning = ordered.filter { entry in
      !failing.contains { $0.rule == entry.rule } && entry.rows.contains { outcome($0, report) == .warn }
    }
    var out = "<section id=\"verdict\" class=\"verdict \(report.gate)\" aria-labelledby=\"verdict-title\">\n"
    out += "<h2 id=\"verdict-title\"><span class=\"badge\">\(report.gate.uppercased())</span> "
    out += "\(candidate) against \(baseline)</h2>\n<p class=\"summary\">"
    if report.gateFails {
      out += "\(failing.count) of \(ordered.count) rules fail the gate"
    } else if report.nothingEvaluated {
      out += "No error rule had data enough to decide"
    } else {
      out += "No rule fails the gate (\(ordered.count) rules)"
    }
    if !warning.isEmpty { out += "; \(warning.count) to watch" }
    out += ". \(report.candidatePayloads) candidate and \(report.baselinePayloads) baseline payloads.</p>\n"
    if !failing.isEmpty || !warning.isEmpty {
      out += "<ul class=\"findings\">\n"
      for entry in failing + warning { out += finding(entry.rule, entry.rows, report) }
      out += "</ul>\n"
    }
    let signatures = report.results.filter { outcome($0, report) != .pass }.flatMap(\.newSignatures)
    if !signatures.isEmpty {
      out += "<p class=\"new-signatures\"><b>New in \(candidate):</b> "
      out += signatures.prefix(5).map { g in
        var text = "\(TextEscaping.html(g.signature.text)) (×\(g.count))"
        if let culprit = g.culprit { text += ", culprit <code>\(TextEscaping.html(culprit.text))</code>" }
        return text
      }.joined(separator: "; ")
      if signatures.count > 5 { out += "; and \(signatures.count - 5) more" }
      out += "</p>\n"
    }
    for line in ComparisonRenderer.matchingLines(report) {
      out += "<p class=\"note\">\(TextEscaping.html(line))</p>\n"
    }
    if report.matching != nil {
      out += "<p class=\"note\">The values above are the matched comparison&apos;s; the per-version view below "
      out += "pools each version&apos;s payloads, whatever their mix.</p>\n"
    }
    if let apple = report.organizer, !apple.entries.isEmpty {
      let flagged = apple.entries.filter { $0.insight != nil }
      if !flagged.isEmpty {
        out += "<p class=\"apple-insights\"><b>Apple&apos;s insights:</b> "
        out += flagged.map { entry in
          TextEscaping.html(entry.appleMetric)
            + (entry.insight?.summaryString.map { " — \(TextEscaping.html($0))" } ?? "")
            + (entry.verdicts.isEmpty
              ? " (no rule of ours compares it)"
              : " (ours: \(TextEscaping.html(entry.verdicts.joined(separator: ", "))))")
        }.joined(separator: "; ")
        out += "</p>\n"
      }
    }
    out += "<p class=\"note\"><a href=\"#gate\">Every rule</a> · <a href=\"#versions\">Per version</a></p>\n"
    return out + "</section>\n"
  }

  /// One rule of the verdict: its title, the two values, the change and its interval, the threshold,
  /// and with groups the groups that carry it.
  private func finding(_ rule: RegressionRule, _ rows: [RuleResult], _ report: ComparisonReport) -> String {
    let worst = rows[0]
    let grouped = rows.count > 1 || worst.by != nil
    let name = TextEscaping.html(ruleTitle(rule))
    var out = "<li class=\"\(outcome(worst, report).className)\"><b>"
    out += link(name, to: target(rule), group: grouped ? worst.by?.value : nil) + "</b>"
    // With groups, the numbers are the worst group's: it is named.
    if grouped, let by = worst.by { out += " in \(TextEscaping.html(by.key)) <b>\(TextEscaping.html(by.value))</b>" }
    if rule.statistic == .newSignature {
      let count = rows.reduce(0) { $0 + $1.newSignatures.count }
      out += ": \(count) new signature\(count == 1 ? "" : "s")"
    } else {
      out += ": \(TextEscaping.html(ComparisonRenderer.value(worst.candidate, rule.unit))) against "
      out += "\(TextEscaping.html(ComparisonRenderer.value(worst.baseline, rule.unit))), "
      out += "<span class=\"change\">\(TextEscaping.html(ComparisonRenderer.changeText(worst)))</span>"
      out += " (threshold \(TextEscaping.html(ComparisonRenderer.thresholdCell(rule))); "
      out += "\(TextEscaping.html(ComparisonRenderer.verdictText(worst))))"
    }
    if grouped {
      // The groups that regressed or broke the budget (not those the data could not decide).
      let carried = rows.filter { $0.verdict == .regression || $0.budgetExceeded == true }.compactMap(\.by?.value)
      if let key = worst.by?.key, !carried.isEmpty {
        out += ". Regressed in \(TextEscaping.html(key)) "
        out += carried.prefix(4).map { "<b>\(TextEscaping.html($0))</b>" }.joined(separator: ", ")
        if carried.count > 4 { out += " and \(carried.count - 4) more" }
        out += " of \(rows.count)"
      }
    }
    if let contributions = VerdictReason.contributions(worst) {
      out += "; most from \(TextEscaping.html(contributions))"
    }
    if let evidence = worst.crashEvidence {
      out += "; \(TextEscaping.html(ComparisonRenderer.crashEvidenceText(evidence)))"
    }
    return out + ".</li>\n"
  }

  /// Every rule: one overall row per rule (with groups, the worst group's verdict and how many
  /// groups fail), then its groups, rules in the order of their worst outcome.
  func gate(_ report: ComparisonReport) -> String {
    var out = "<section id=\"gate\">\n<h2>Gate: \(TextEscaping.html(label(report.candidate))) against "
    out += "\(TextEscaping.html(label(report.baseline)))</h2>\n"
    out += "<p class=\"gate-verdict \(report.gate)\">Gate: <b>\(report.gate.uppercased())</b>"
    if report.nothingEvaluated { out += " — no error rule had data enough to decide" }
    if !report.hasErrorRules { out += " — the rules only warn: no error rule can fail it" }
    out += " (\(report.candidatePayloads) candidate and \(report.baselinePayloads) baseline payloads)</p>\n"
    out += "<table class=\"gate\"><caption>Each rule of the gate, the rules failing first</caption><thead><tr>"
    for column in GateColumn.allCases { out += "<th scope=\"col\">\(column.rawValue)</th>" }
    out += "</tr></thead>\n"
    for entry in orderedRules(report) {
      let grouped = entry.rows.count > 1 || entry.rows[0].by != nil
      out += "<tbody>"
      if grouped {
        let worst = entry.rows[0]
        let failing = entry.rows.filter { outcome($0, report) == .fail }.count
        out += "<tr class=\"\(outcome(worst, report).className) overall\"><th scope=\"row\">"
        out += link(TextEscaping.html(ruleTitle(entry.rule)), to: target(entry.rule), group: nil)
        out += "</th><td colspan=\"5\">\(entry.rows.count) groups of \(TextEscaping.html(worst.by?.key ?? "the key"))"
        out += failing > 0 ? ", \(failing) failing" : ""
        out += "</td>" + verdictCell(worst)
        // The worst group is named only where one is worse than the others' (a failure or a warning).
        let worstGroup = outcome(worst, report) <= .warn ? worst.by.map { "worst: " + $0.value } ?? "" : ""
        out += cell(.why, TextEscaping.html(worstGroup)) + cell(.severity, entry.rule.severity.rawValue) + "</tr>\n"
      }
      for r in entry.rows { out += row(r, report, grouped: grouped) }
      out += "</tbody>\n"
    }
    out += "</table>\n"
    let notes = ComparisonRenderer.matchingNotes(report)
    if !notes.isEmpty {
      out +=
        "<ul class=\"matching-notes\">\n" + notes.map { "<li>\(TextEscaping.html($0))</li>\n" }.joined() + "</ul>\n"
    }
    for line in ComparisonRenderer.matchingLines(report) {
      out += "<p class=\"note\">\(TextEscaping.html(line))</p>\n"
    }
    out += "<p class=\"note\">\(ComparisonRenderer.methods(report)).</p>\n"
    if let apple = report.organizer {
      let role = apple.severity.map { "\($0.rawValue)s" } ?? "for information"
      out += "<h3>Apple&apos;s regression insights for \(TextEscaping.html(label(apple.candidate))) (\(role))</h3>\n"
      if apple.entries.isEmpty {
        out += "<p class=\"note\">None, and none of ours on a metric Apple&apos;s responses cover.</p>\n"
      }
      out += "<ul class=\"organizer-insights\">\n"
      for entry in apple.entries {
        out +=
          "<li class=\"\(entry.agreement.rawValue)\"><b>\(entry.agreement.rawValue)</b> \(TextEscaping.html(entry.appleMetric))"
        if let summary = entry.insight?.summaryString { out += " — Apple: \(TextEscaping.html(summary))" }
        out +=
          entry.verdicts.isEmpty
          ? " — no rule compares it" : " — ours: \(TextEscaping.html(entry.verdicts.joined(separator: ", ")))"
        out += "</li>\n"
      }
      out += "</ul>\n"
    }
    return out + "</section>\n"
  }

  /// One result's row; `grouped`: a group's row under its rule's overall row.
  private func row(_ r: RuleResult, _ report: ComparisonReport, grouped: Bool) -> String {
    let name = grouped ? TextEscaping.html(r.by?.value ?? "") : TextEscaping.html(ruleTitle(r.rule))
    var out = "<tr class=\"\(outcome(r, report).className)\(grouped ? " group-row" : "")\" "
    out += "title=\"\(TextEscaping.html(ComparisonRenderer.ruleName(r)))\"><th scope=\"row\">"
    out += link(name, to: target(r.rule), group: grouped ? r.by?.value : nil)
    out += "</th>" + cell(.baseline, TextEscaping.html(ComparisonRenderer.value(r.baseline, r.rule.unit)))
    out += cell(.candidate, TextEscaping.html(ComparisonRenderer.value(r.candidate, r.rule.unit)))
    out += cell(.change, TextEscaping.html(ComparisonRenderer.changeText(r)))
    out += cell(.q, ComparisonRenderer.decisiveQ(r))
    out += cell(.threshold, TextEscaping.html(ComparisonRenderer.thresholdCell(r.rule)))
    out += verdictCell(r)
    var why = VerdictReason.text(r, alpha: report.alpha, decision: report.decision)
    if !r.newSignatures.isEmpty {
      why =
        "new: "
        + r.newSignatures.prefix(3).map { g in
          "\(g.signature.text) (×\(g.count))" + (g.culprit.map { ", culprit \($0.text)" } ?? "")
        }.joined(separator: "; ")
    }
    out += cell(.why, TextEscaping.html(why))
    return out + cell(.severity, r.rule.severity.rawValue) + "</tr>\n"
  }

  /// The gate table's columns, in order, each named by its heading.
  private enum GateColumn: String, CaseIterable {
    case rule = "Rule"
    case baseline = "Baseline"
    case candidate = "Candidate"
    case change = "Change"
    case q
    case threshold = "Threshold"
    case verdict = "Verdict"
    case why = "Why"
    case severity = "Severity"
  }

  /// The verdict's cell of `r`'s row.
  private func verdictCell(_ r: RuleResult) -> String {
    cell(.verdict, "<span class=\"verdict\">\(TextEscaping.html(ComparisonRenderer.verdictText(r)))</span>")
  }

  /// A cell of the gate table's `column` holding `html`, with its column's heading beside it (which a
  /// narrow screen, where a row is a block and the headings are not shown, prints before it).
  private func cell(_ column: GateColumn, _ html: String) -> String {
    let kind =
      switch column {
      case .baseline, .candidate, .change, .q: " class=\"num\""
      case .why: " class=\"why\""
      case .verdict: " class=\"verdict-cell\""
      case .rule, .threshold, .severity: ""
      }
    return "<td\(kind) data-label=\"\(column.rawValue)\">\(html)</td>"
  }
}
