import Foundation

/// Renders Apple's Organizer numbers beside ours (``OrganizerComparison``) and Apple's insights in
/// the gate (``OrganizerGate``): text, Markdown, and JSON members that reports add under `organizer`.
public enum OrganizerRenderer {
  // MARK: - Side by side

  private static let header = [
    "version", "metric", "stat", "unit", "Apple", "ours", "bracket", "difference", "inside", "Apple goal",
  ]

  /// `+12.3 (+1.9%)`: ours minus Apple's, and relative to Apple's; nil without our value.
  static func differenceText(_ row: OrganizerComparison.Row) -> String? {
    row.difference.map { d in
      (d >= 0 ? "+" : "") + NumberFormatting.text(d)
        + (row.relativeDifference.map { String(format: " (%+.1f%%)", $0 * 100) } ?? "")
    }
  }

  /// `[lo, hi]`, our guaranteed bracket; nil without one.
  static func bracketText(_ row: OrganizerComparison.Row) -> String? {
    row.oursBracket.map { "[\(NumberFormatting.text($0.lowerBound)), \(NumberFormatting.text($0.upperBound))]" }
  }

  private static func cells(_ row: OrganizerComparison.Row) -> [String] {
    [
      row.version, row.metric.rawValue + (row.comparability == .approximate ? " ≈" : ""), row.statistic.description,
      row.metric.metric.unit.symbol, NumberFormatting.text(row.apple), row.ours.map(NumberFormatting.text) ?? "no data",
      bracketText(row) ?? "–", differenceText(row) ?? "–", row.appleInsideBracket.map { $0 ? "yes" : "no" } ?? "–",
      row.appleGoal ?? "",
    ]
  }

  /// Aligned text for a terminal.
  public static func text(_ comparison: OrganizerComparison) -> String {
    var out = "Apple's Organizer numbers (\(TextEscaping.terminalCell(comparison.device))) beside the dump's\n"
    if comparison.rows.isEmpty {
      out += "  no version and metric in common\n"
    } else {
      let rows = comparison.rows.map { cells($0).map { TextEscaping.terminalCell($0) } }
      out += TextTable.render(header: header, rows: rows, leftAligned: [0, 1, 2, 3, 9])
      out += "  ≈ a related quantity, not the same one (Docs/organizer.md); inside: Apple's value lies in our "
      out += "guaranteed bracket\n"
    }
    for line in comparison.notCompared { out += "  not compared: \(TextEscaping.terminal(line))\n" }
    for line in comparison.notes { out += "  note: \(TextEscaping.terminal(line))\n" }
    return out
  }

  /// A Markdown section.
  public static func markdown(_ comparison: OrganizerComparison) -> String {
    var out = "## Apple's Organizer beside the dump (\(TextEscaping.markdownCell(comparison.device)))\n\n"
    if comparison.rows.isEmpty {
      out += "No version and metric in common.\n\n"
    } else {
      out += "| " + header.joined(separator: " | ") + " |\n"
      out += "|" + header.indices.map { [0, 1, 2, 3, 9].contains($0) ? " --- |" : " ---: |" }.joined() + "\n"
      for row in comparison.rows {
        out += "| " + cells(row).map(TextEscaping.markdownCell).joined(separator: " | ") + " |\n"
      }
      out += "\n≈ a related quantity, not the same one; inside: Apple's value lies in our guaranteed bracket.\n\n"
    }
    for line in comparison.notCompared { out += "- not compared: \(TextEscaping.markdownCell(line))\n" }
    for line in comparison.notes { out += "- note: \(TextEscaping.markdownCell(line))\n" }
    return out + "\n"
  }

  /// The JSON member `organizer` of a summary, trend or report.
  static func json(_ comparison: OrganizerComparison) -> JSONWriter.Value {
    func number(_ v: Double?) -> JSONWriter.Value { v.map { .number($0) } ?? .null }
    let rows: [JSONWriter.Value] = comparison.rows.map { row in
      .object([
        ("version", .string(row.version)),
        ("metric", .string(row.metric.rawValue)),
        ("appleMetric", .string(row.appleMetric)),
        ("statistic", .string(row.statistic.description)),
        ("unit", .string(row.metric.metric.unit.symbol)),
        ("apple", .number(row.apple)),
        ("appleErrorMargin", number(row.appleErrorMargin)),
        ("appleGoal", row.appleGoal.map { .string($0) } ?? .null),
        ("ours", number(row.ours)),
        ("bounds", row.oursBracket.map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null),
        ("difference", number(row.difference)),
        ("relativeDifference", number(row.relativeDifference)),
        ("appleInsideBounds", row.appleInsideBracket.map { .bool($0) } ?? .null),
        ("payloads", .integer(Int128(row.payloads))),
        ("comparability", .string(row.comparability.rawValue)),
      ])
    }
    let goals: [(String, JSONWriter.Value)] = comparison.goals.sorted { $0.key.rawValue < $1.key.rawValue }.map {
      (
        $0.key.rawValue,
        .array(
          $0.value.map { band in
            .object([("goal", .string(band.name)), ("lower", number(band.lower)), ("upper", number(band.upper))])
          })
      )
    }
    return .object([
      ("device", .string(comparison.device)),
      ("rows", .array(rows)),
      ("goals", .object(goals)),
      ("notCompared", .array(comparison.notCompared.map { .string($0) })),
      ("notes", .array(comparison.notes.map { .string($0) })),
    ])
  }

  // MARK: - The gate

  private static func gateLine(_ entry: OrganizerGate.Entry) -> String {
    var line = "\(entry.agreement.rawValue): \(entry.appleMetric)"
    if let metric = entry.metric { line += " (\(metric.rawValue))" }
    if let summary = entry.insight?.summaryString { line += " — Apple: \(summary)" }
    line += entry.verdicts.isEmpty ? " — no rule compares it" : " — ours: \(entry.verdicts.joined(separator: ", "))"
    return line
  }

  /// The gate's Apple section, for a terminal.
  static func text(_ gate: OrganizerGate) -> String {
    let role = gate.severity.map { "\($0.rawValue)s" } ?? "for information"
    var out = "Apple's regression insights for \(TextEscaping.terminalCell(gate.candidate)) (\(role)):\n"
    if gate.entries.isEmpty { out += "  none, and none of ours on a metric Apple's responses cover\n" }
    for entry in gate.entries { out += "  \(TextEscaping.terminal(gateLine(entry)))\n" }
    return out
  }

  /// The gate's Apple section, in Markdown.
  static func markdown(_ gate: OrganizerGate) -> String {
    let role = gate.severity.map { "\($0.rawValue)s" } ?? "for information"
    var out = "## Apple's regression insights for \(TextEscaping.markdownCell(gate.candidate)) (\(role))\n\n"
    if gate.entries.isEmpty { out += "None, and none of ours on a metric Apple's responses cover.\n" }
    for entry in gate.entries { out += "- \(TextEscaping.markdownCell(gateLine(entry)))\n" }
    return out + "\n"
  }

  /// GitHub workflow commands: Apple's regressions as errors when they fail the gate, else warnings.
  static func github(_ gate: OrganizerGate) -> String {
    let level = gate.failsGate ? "error" : "warning"
    return gate.appleRegressions.map { entry in
      "::\(level) title=Apple's Organizer::\(TextEscaping.githubMessage(gateLine(entry)))\n"
    }.joined()
  }

  /// The JSON member `organizer` of a comparison.
  static func json(_ gate: OrganizerGate) -> JSONWriter.Value {
    .object([
      ("candidate", .string(gate.candidate)),
      ("severity", gate.severity.map { .string($0.rawValue) } ?? .string("info")),
      ("failsGate", .bool(gate.failsGate)),
      (
        "insights",
        .array(
          gate.entries.map { entry in
            .object([
              ("agreement", .string(entry.agreement.rawValue)),
              ("appleMetric", .string(entry.appleMetric)),
              ("metric", entry.metric.map { .string($0.rawValue) } ?? .null),
              ("summary", entry.insight?.summaryString.map { .string($0) } ?? .null),
              (
                "populations",
                .array(
                  (entry.insight?.populations ?? []).map { p in
                    .object([
                      ("device", p.device.map { .string($0) } ?? .null),
                      (
                        "percentile",
                        p.percentile.map { .string($0.label) } ?? p.percentileText.map { .string($0) } ?? .null
                      ),
                      ("deltaPercentage", p.deltaPercentage.map { .number($0) } ?? .null),
                      ("latestVersionValue", p.latestVersionValue.map { .number($0) } ?? .null),
                      ("referenceAverageValue", p.referenceAverageValue.map { .number($0) } ?? .null),
                    ])
                  })
              ),
              ("verdicts", .array(entry.verdicts.map { .string($0) })),
            ])
          })
      ),
    ])
  }
}

// MARK: - A saved response

extension OrganizerRenderer {
  /// What a saved response holds, for a terminal (`metrics-report organizer show`).
  public static func text(_ file: OrganizerFile) -> String {
    var out = ""
    func line(_ indent: Int, _ text: String) {
      out += String(repeating: "  ", count: indent) + TextEscaping.terminal(text) + "\n"
    }
    switch file.document {
    case .metrics(let metrics):
      line(0, "\(file.path): power and performance metrics" + (metrics.version.map { " (format \($0))" } ?? ""))
      for metric in metrics.metrics {
        let unit = metric.unit.map { $0.displayName ?? $0.identifier ?? "" } ?? "no unit"
        var title = "\(metric.category) \(metric.identifier) (\(unit))"
        if let counterpart = OrganizerCounterpart.of(identifier: metric.identifier, category: metric.category) {
          title += " ↔ \(counterpart.metric.rawValue)"
        }
        line(1, title)
        for goal in metric.goalKeys {
          line(
            2,
            "goal \(goal.goalKey ?? "?"): \(goal.lowerBound.map(NumberFormatting.text) ?? "−∞") to "
              + "\(goal.upperBound.map(NumberFormatting.text) ?? "∞")")
        }
        for dataset in metric.datasets {
          let which = [dataset.filter.device, dataset.filter.percentile?.label ?? dataset.filter.percentileText]
            .compactMap { $0 }.joined(separator: " ")
          let points = dataset.points.map { p in
            "\(p.version) \(NumberFormatting.text(p.value))"
              + (p.errorMargin.map { " ±\(NumberFormatting.text($0))" } ?? "") + (p.goal.map { " [\($0)]" } ?? "")
          }
          line(2, "\(which.isEmpty ? "all" : which): \(points.joined(separator: ", "))")
        }
      }
      for (title, insights) in [("regressions", metrics.regressions), ("trending up", metrics.trendingUp)] {
        line(1, "Apple's \(title):" + (insights.isEmpty ? " none" : ""))
        for insight in insights {
          let against =
            insight.referenceVersions.isEmpty ? "" : " against \(insight.referenceVersions.joined(separator: ", "))"
          line(
            2,
            "\(insight.metricCategory ?? "") \(insight.metric) in \(insight.latestVersion ?? "the latest version")\(against)"
          )
          for p in insight.populations {
            let delta = p.deltaPercentage.map { String(format: "%+.0f%%", $0) } ?? "?"
            let values =
              "\(p.latestVersionValue.map(NumberFormatting.text) ?? "?") vs \(p.referenceAverageValue.map(NumberFormatting.text) ?? "?")"
            line(3, "\(p.device ?? "") \(p.percentile?.label ?? p.percentileText ?? ""): \(delta) (\(values))")
          }
          if let summary = insight.summaryString { line(3, summary) }
        }
      }
    case .signatures(let page):
      let total = page.total.map { " of \($0)" } ?? ""
      line(
        0,
        "\(file.path): \(page.signatures.count)\(total) diagnostic signatures"
          + (page.nextPage != nil ? "; more on the next page" : ""))
      for s in page.signatures {
        let weight = s.weight.map { String(format: "%5.1f%%", $0 * 100) } ?? "    ?"
        line(1, "\(s.diagnosticType ?? "?") \(weight)  \(s.signature ?? "(no signature)")  [\(s.id)]")
        if let insight = s.insight { line(2, insight) }
      }
    case .logs(let logs):
      line(0, "\(file.path): logs of \(logs.signatures.count) diagnostic signatures")
      for entry in logs.signatures {
        line(1, "signature \(entry.signatureID ?? "?"): \(entry.logs.count) logs")
        for insight in entry.insights {
          line(2, "\(insight.category ?? "insight"): \(insight.text ?? "")" + (insight.url.map { " (\($0))" } ?? ""))
        }
        for (i, log) in entry.logs.enumerated() {
          let meta = ["event", "appVersion", "deviceType", "osVersion"].compactMap { log.metaData[$0] }
          line(
            2, "log \(i + 1): \(meta.joined(separator: ", "))" + (log.metaData["eventDetail"].map { ": \($0)" } ?? ""))
          if let blame = log.blameFrame {
            let shown = blame.shownFrames.first.map(\.text) ?? blame.label
            line(3, "blamed: \(shown)")
          }
        }
      }
    }
    if !file.unknownKeys.isEmpty {
      let keys = file.unknownKeys.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
      line(1, "keys not known, not read: \(keys.joined(separator: ", "))")
    }
    return out
  }
}
