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

  /// The table's rows: the metrics but the stability rates (they lead, above the table) and, unless
  /// asked for, the exit counters; each metric by its identifier, or with `titles` in the catalog's
  /// words.
  private static func rows(_ version: VersionSummary, _ report: SummaryReport, titles: Bool = false) -> [Row] {
    version.metrics.filter { metric in
      if case .rate(let r) = metric, r.estimate != nil { return false }
      return report.options.exitCounters || metric.metric.kind != .counter
    }.map { metric in
      switch metric {
      case .histogram(let h):
        Row(
          metric: titles ? h.metric.metric.title : h.metric.rawValue, unit: h.unit.symbol, count: String(h.count),
          cells: [NumberFormatting.text(h.mean)] + h.percentiles.map { NumberFormatting.text($0.value) })
      case .scalar(let s):
        Row(
          metric: titles ? s.metric.metric.title : s.metric.rawValue, unit: s.unit.symbol, count: "\(s.count) payloads",
          cells: [NumberFormatting.text(s.mean)] + s.percentiles.map { NumberFormatting.text($0.1) })
      case .rate(let r):
        Row(
          metric: titles ? r.metric.metric.title : r.metric.rawValue, unit: r.unit.symbol,
          count: "\(r.payloads) payloads",
          cells: [NumberFormatting.text(r.value)] + report.options.percentiles.map { _ in "" })
      }
    }
  }

  /// Aligned text, as a pipe or a file gets it.
  public static func text(_ report: SummaryReport) -> String { text(report, fitting: nil) }

  /// The text for a terminal `columns` wide: the text a pipe gets when its tables fit; otherwise each
  /// metric in the catalog's words (`Launch time (first draw)`), a title cut with `…` where the
  /// table would still be wider than the window, and every other line wrapped at `columns`.
  public static func text(_ report: SummaryReport, columns: Int) -> String {
    let wide = text(report)
    let lines = wide.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.allSatisfy({ $0.count <= columns }) { return wide }
    return text(report, fitting: max(columns, 40))
  }

  /// The text, its tables fitted to `width` columns when there is one.
  private static func text(_ report: SummaryReport, fitting width: Int?) -> String {
    var out = ""
    let header = ["metric", "unit", "count"] + columns(report)
    let line = { (text: String) in width.map { TextWrapping.wrapped(text, columns: $0) } ?? text + "\n" }
    for version in report.versions {
      var title = "Version \(TextEscaping.terminalCell(displayVersion(version.version)))"
      if let by = version.by { title += " — \(by.key) \(TextEscaping.terminalCell(by.value))" }
      out += line(title + " — \(version.payloads) payloads")
      out += stability(version).map(line).joined()
      var body = rows(version, report, titles: width != nil).map {
        [TextEscaping.terminalCell($0.metric), $0.unit, $0.count] + $0.cells
      }
      if let width {
        // The title column takes what the others leave (at least 12 characters).
        let others =
          TextTable.render(header: header, rows: body.map { [""] + $0.dropFirst() }, leftAligned: [0, 1])
          .split(separator: "\n").map(\.count).max() ?? 0
        let room = max(12, width - others)
        body = body.map { row in
          var row = row
          if row[0].count > room { row[0] = String(row[0].prefix(room - 1)) + "…" }
          return row
        }
      }
      out += TextTable.render(header: header, rows: body, leftAligned: [0, 1])
      out += "\n"
    }
    if report.versions.isEmpty { out += "No payloads counted.\n\n" }
    if let organizer = report.organizer { out += OrganizerRenderer.text(organizer) + "\n" }
    let footer = footer(report)
    out +=
      width == nil
      ? footer
      : footer.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line(String($0)) }.joined()
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
      let lines = stability(version)
      if !lines.isEmpty { out += lines.map { "- " + TextEscaping.markdownCell($0) + "\n" }.joined() + "\n" }
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

  /// The stability lines that lead a version's table: crash-free device-days and the termination
  /// rates with their 95% intervals and what they count, then the kinds that terminated the app.
  ///
  ///     Crash-free device-days 98.75% [98.20, 99.14] (15 of 1200 device-days with a crash)
  ///     Terminations 31.0 per 1000 h [24.6, 38.5] (93 over 3000 h); background 2.10 per 1000 h …
  ///     By kind, per 1000 h: abnormal 20.1, memory limit 7.33, watchdog 3.67
  static func stability(_ version: VersionSummary) -> [String] {
    var estimates: [MetricID: RateEstimate] = [:]
    for case .rate(let r) in version.metrics { if let e = r.estimate { estimates[r.metric] = e } }
    var lines: [String] = []
    func interval(_ e: RateEstimate, _ format: (Double) -> String) -> String {
      "[\(format(e.interval.lowerBound)), \(format(e.interval.upperBound))]"
    }
    if let e = estimates[.crashFreeDeviceDays] {
      let percent = { (v: Double) in String(format: "%.2f", v) }
      lines.append(
        "Crash-free device-days \(percent(e.value))% \(interval(e, percent)) (\(Int(e.events.rounded())) of "
          + "\(Int(e.exposure.rounded())) device-days with a crash)")
    }
    func rate(_ e: RateEstimate) -> String {
      "\(NumberFormatting.text(e.value)) per 1000 h \(interval(e, NumberFormatting.text)) "
        + "(\(Int(e.events.rounded())) over \(NumberFormatting.text(e.exposure)) h)"
    }
    var terminations: [String] = []
    if let e = estimates[.terminationRate] { terminations.append("Terminations " + rate(e)) }
    if let e = estimates[.backgroundTerminationRate] { terminations.append("background " + rate(e)) }
    if !terminations.isEmpty { lines.append(terminations.joined(separator: "; ")) }
    func kinds(_ ids: [(TerminationKind, MetricID)]) -> [String] {
      ids.compactMap { kind, id in
        estimates[id].flatMap {
          $0.events > 0
            ? "\(kind.words) \(NumberFormatting.text($0.value))\(kind.isSystemReclaim ? " (the system's)" : "")" : nil
        }
      }
    }
    let foreground = kinds(TerminationKind.foreground.map { ($0, MetricID.terminationRate($0)) })
    let background = kinds(TerminationKind.background.map { ($0, MetricID.backgroundTerminationRate($0)) })
    if !foreground.isEmpty { lines.append("By kind, per 1000 h: " + foreground.joined(separator: ", ")) }
    if !background.isEmpty {
      lines.append("Background by kind, per 1000 h: " + background.joined(separator: ", "))
    }
    return lines
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
