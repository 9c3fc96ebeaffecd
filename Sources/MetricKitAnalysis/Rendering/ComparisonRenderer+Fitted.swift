// The text of a comparison for a terminal narrower than its table: a block of two lines per rule
// (the metric's title and verdict, then its numbers), and every other line wrapped at the width.
extension ComparisonRenderer {
  /// The text layout for a terminal `columns` wide: the text a pipe gets, its other lines wrapped at
  /// `columns`, when its table fits; otherwise each rule as a block of two lines (the metric's title
  /// with its verdict, then the values, the change with its 95% interval, q, the threshold and the
  /// severity), the rule names of the notes and the gate's line in the catalog's titles, and every
  /// line wrapped at `columns`.
  public static func text(_ report: ComparisonReport, columns: Int) -> String {
    // The wide text's lines (it ends with a newline); the table's are those indented two spaces
    // (the rows, the header and its rule).
    let lines = text(report).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    if lines.allSatisfy({ !$0.hasPrefix("  ") || $0.count <= columns }) {
      return lines.map {
        $0.hasPrefix("  ") || $0.isEmpty ? $0 + "\n" : TextWrapping.wrapped(String($0), columns: columns)
      }
      .joined()
    }
    let columns = max(columns, 40)
    var out = TextWrapping.wrapped(comparing(report), columns: columns) + "\n"
    for r in report.results {
      let title = TextEscaping.terminalCell(ruleTitle(r))
      let verdict = verdictText(r)
      let room = columns - 2 - verdict.count - 2
      let head = title.count <= room ? title : String(title.prefix(max(room - 1, 1))) + "…"
      out +=
        "  " + head + String(repeating: " ", count: max(2, columns - 2 - head.count - verdict.count)) + verdict + "\n"
      var numbers = "\(value(r.baseline, r.rule.unit)) → \(value(r.candidate, r.rule.unit))  \(changeText(r))"
      if r.decidingQValue != nil { numbers += "  q \(decisiveQ(r))" }
      numbers += "  limit \(thresholdCell(r.rule)) · \(r.rule.severity.rawValue)"
      out += TextWrapping.wrapped(numbers, columns: columns, indent: "    ")
    }
    for paragraph in [matchingNotes(report, naming: ruleTitle), matchingLines(report)] where !paragraph.isEmpty {
      out += "\n" + paragraph.map { TextWrapping.wrapped(TextEscaping.terminal($0), columns: columns) }.joined()
    }
    if let organizer = report.organizer { out += "\n" + OrganizerRenderer.text(organizer) }
    let gate = gateLine(report, naming: ruleTitle)
    out += "\n" + TextWrapping.wrapped(gate, columns: columns)
    out += footer(report).split(separator: "\n").map { TextWrapping.wrapped(String($0), columns: columns) }.joined()
    return out
  }

  /// A rule's name in the catalog's words: `Launch time (first draw) p50`, `Hang rate` (a rate's
  /// statistic is its title), with its group.
  static func ruleTitle(_ r: RuleResult) -> String {
    let statistic = r.rule.statistic == .rate ? "" : " \(r.rule.statistic)"
    return r.rule.metric.metric.title + statistic + (r.by.map { " [\($0.key) \($0.value)]" } ?? "")
  }
}
