import Foundation

/// Renders a summary as aligned text tables (one per version), as Markdown tables, or as CSV rows.
public enum SummaryTableRenderer {
  /// One table row: the metric, its unit, count and statistics as text.
  private struct Row {
    var metric: String
    var unit: String
    var count: String
    var cells: [String]
  }

  private static func columns(_ report: SummaryReport) -> [String] {
    ["mean"] + report.options.percentiles.map(\.label)
  }

  private static func rows(_ version: VersionSummary, _ report: SummaryReport) -> [Row] {
    version.metrics.map { metric in
      switch metric {
      case .histogram(let h):
        Row(
          metric: h.metric.rawValue, unit: h.unit.symbol, count: String(h.count),
          cells: [NumberFormatting.text(h.mean)] + h.percentiles.map { NumberFormatting.text($0.value) })
      case .scalar(let s):
        Row(
          metric: s.metric.rawValue, unit: s.unit.symbol, count: "\(s.count) payloads",
          cells: [NumberFormatting.text(s.mean)] + s.percentiles.map { NumberFormatting.text($0.1) })
      case .rate(let r):
        Row(
          metric: r.metric.rawValue, unit: r.unit.symbol, count: "\(r.payloads) payloads",
          cells: [NumberFormatting.text(r.value)] + report.options.percentiles.map { _ in "" })
      }
    }
  }

  /// Aligned text for a terminal.
  public static func text(_ report: SummaryReport) -> String {
    var out = ""
    let header = ["metric", "unit", "count"] + columns(report)
    for version in report.versions {
      out += "Version \(TextEscaping.terminalCell(displayVersion(version.version)))"
      if let by = version.by { out += " — \(by.key) \(TextEscaping.terminalCell(by.value))" }
      out += " — \(version.payloads) payloads\n"
      let body = rows(version, report).map { [TextEscaping.terminalCell($0.metric), $0.unit, $0.count] + $0.cells }
      out += TextTable.render(header: header, rows: body, leftAligned: [0, 1])
      out += "\n"
    }
    if report.versions.isEmpty { out += "No payloads counted.\n\n" }
    if let organizer = report.organizer { out += OrganizerRenderer.text(organizer) + "\n" }
    out += footer(report)
    return out
  }

  /// Markdown tables.
  public static func markdown(_ report: SummaryReport) -> String {
    var out = "# MetricKit summary\n\n"
    let header = ["Metric", "Unit", "Count"] + columns(report)
    for version in report.versions {
      let group = version.by.map { " · \($0.key) \(TextEscaping.markdownCell($0.value))" } ?? ""
      out +=
        "## \(TextEscaping.markdownCell(displayVersion(version.version)))\(group) (\(version.payloads) payloads)\n\n"
      out += "| " + header.joined(separator: " | ") + " |\n"
      out += "|" + header.indices.map { $0 < 2 ? " --- |" : " ---: |" }.joined() + "\n"
      for row in rows(version, report) {
        let cells = [TextEscaping.markdownCell(row.metric), row.unit, row.count] + row.cells
        out += "| " + cells.joined(separator: " | ") + " |\n"
      }
      out += "\n"
    }
    if let organizer = report.organizer { out += OrganizerRenderer.markdown(organizer) }
    out += footer(report).split(separator: "\n").map { "> \(TextEscaping.markdownCell(String($0)))" }.joined(
      separator: "\n")
    return out + "\n"
  }

  /// CSV: a header, then one row per version and metric, numbers unrounded.
  public static func csv(_ report: SummaryReport) -> String {
    let percentileLabels = report.options.percentiles.map(\.label)
    // With --by, a column named after the key holds each row's group.
    let byColumn = report.versions.first?.by.map { [TextEscaping.csvField($0.key)] } ?? []
    var out =
      (["version"] + byColumn + ["metric", "unit", "count", "payloads", "mean"] + percentileLabels + ["value"])
      .joined(separator: ",") + "\n"
    for version in report.versions {
      for metric in version.metrics {
        var fields = [TextEscaping.csvField(version.version)]
        if let by = version.by { fields.append(TextEscaping.csvField(by.value)) }
        fields += [TextEscaping.csvField(metric.metric.rawValue), metric.unit.symbol]
        switch metric {
        case .histogram(let h):
          fields += [String(h.count), String(h.payloads), JSONWriter.number(h.mean)]
          fields += h.percentiles.map { JSONWriter.number($0.value) } + [""]
        case .scalar(let s):
          fields += [String(s.count), String(s.count), JSONWriter.number(s.mean)]
          fields += s.percentiles.map { JSONWriter.number($0.1) } + [""]
        case .rate(let r):
          fields += ["", String(r.payloads), ""] + percentileLabels.map { _ in "" } + [JSONWriter.number(r.value)]
        }
        out += fields.joined(separator: ",") + "\n"
      }
    }
    return out
  }

  private static func displayVersion(_ version: String) -> String { version.isEmpty ? "(no version)" : version }

  /// The accounting line(s) under every human-readable report.
  static func footer(_ report: SummaryReport) -> String {
    let i = report.inputs
    var parts = ["\(i.files) files", "\(i.payloads) payloads read", "\(i.counted) counted"]
    let excluded = ExclusionReason.allCases.compactMap { r in i.excluded[r].map { "\($0) \(r.rawValue)" } }
    if !excluded.isEmpty { parts.append("excluded: " + excluded.joined(separator: ", ")) }
    parts.append("\(i.rejectedCount) rejected")
    var out = "Inputs: " + parts.joined(separator: "; ") + "\n"
    out += "Accounting: \(i.balance)\n"
    let others = DocumentKind.allCases.compactMap { k in i.otherDocuments[k].map { "\($0) \(k.rawValue)" } }
    if !others.isEmpty { out += "Not metric payloads (passed over): " + others.joined(separator: ", ") + "\n" }
    if !i.ignoredFiles.isEmpty { out += "Ignored by file name: \(i.ignoredFiles.count) files\n" }
    if let note = i.unknownKeysNote { out += TextEscaping.terminal(note) + "\n" }
    if i.subIntervalEntries > 0 {
      out +=
        "Within the day: \(i.subIntervalEntries) shorter interval entries of MetricKit 27 reports, each counted as a "
        + "payload (an entry has a duration and its states, not a start time)\n"
    }
    if i.zoneAssumedPayloads > 0 {
      out +=
        "Timestamps without a zone in \(i.zoneAssumedPayloads) payloads were taken as UTC\(i.assumedUTCOffsetText)\n"
    }
    out +=
      "Histogram means: \(report.options.estimator.rawValue) estimator, \(report.options.pooling.rawValue) pooling; "
      + "percentiles invert the merged histogram's CDF (\(report.options.interpolation.rawValue) inside buckets); "
      + "scalar percentiles are type 7 across payloads\n"
    for omission in report.omissions { out += "Not computed: \(omission)\n" }
    return out
  }
}
