/// Renders a trend: one table per series (text, Markdown), one row per point (CSV), or the JSON
/// contract of `Docs/json.md`.
public enum TrendRenderer {
  /// Renders `report` in `format`; `minPayloads` names the sparse threshold in the legend. JSON's
  /// series are written on up to `threads` threads, to the same text.
  public static func render(
    _ report: TrendReport, as format: OutputFormat, minPayloads: Int, threads: Int = 1
  ) -> String {
    switch format {
    case .json: json(report, threads: threads)
    case .csv: csv(report)
    case .text: table(report, markdown: false, minPayloads: minPayloads)
    case .markdown: table(report, markdown: true, minPayloads: minPayloads)
    }
  }

  /// The statistics of a series' points, in order.
  private static func statistics(_ s: TrendSeries) -> [Statistic] {
    var statistics: [Statistic] = []
    for p in s.points {
      for (statistic, _) in p.values where !statistics.contains(statistic) { statistics.append(statistic) }
    }
    return statistics
  }

  private static func title(_ s: TrendSeries) -> String {
    var title = "\(s.subject) (\(s.subject.unit)) — \(s.version.isEmpty ? "(no version)" : s.version)"
    if let by = s.by { title += " — \(by.key) \(by.value)" }
    return title
  }

  /// A point's cells: its share for adoption, else its statistics, and a stability rate's interval.
  private static func cells(_ p: TrendPoint, _ s: TrendSeries, _ statistics: [Statistic], intervals: Bool)
    -> [String]
  {
    if s.subject == .adoption { return [p.share.map { String(format: "%.1f%%", $0 * 100) } ?? "–"] }
    let values = statistics.map { p.value($0).map(NumberFormatting.text) ?? "–" }
    guard intervals else { return values }
    let interval = p.estimate.map {
      "[\(NumberFormatting.text($0.interval.lowerBound)), \(NumberFormatting.text($0.interval.upperBound))]"
    }
    return values + [interval ?? "–"]
  }

  private static func table(_ report: TrendReport, markdown: Bool, minPayloads: Int) -> String {
    var out = markdown ? "# MetricKit trend (\(report.interval.rawValue))\n\n" : ""
    for s in report.series {
      let statistics = statistics(s)
      let intervals = s.points.contains { $0.estimate != nil }
      let header =
        ["start", "payloads", "count"] + (s.subject == .adoption ? ["share"] : statistics.map(\.description))
        + (intervals ? ["95% interval"] : [])
      let rows = s.points.map { p in
        [p.start.description, String(p.payloads), String(p.count)] + cells(p, s, statistics, intervals: intervals)
      }
      if markdown {
        out += "## \(TextEscaping.markdownCell(title(s)))\n\n| " + header.joined(separator: " | ") + " | sparse |\n|"
        out += header.indices.map { $0 == 0 ? " --- |" : " ---: |" }.joined() + " --- |\n"
        for (row, p) in zip(rows, s.points) {
          out += "| " + row.joined(separator: " | ") + " | \(p.sparse ? "yes" : "") |\n"
        }
      } else {
        out += TextEscaping.terminalCell(title(s)) + "\n"
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max() ?? 0 }
        for (n, row) in ([header] + rows).enumerated() {
          let cells = row.enumerated().map { i, cell in
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            return i == 0 ? cell + pad : pad + cell
          }
          let sparse = n > 0 && s.points[n - 1].sparse ? "  *" : ""
          out += "  " + cells.joined(separator: "  ") + sparse + "\n"
        }
      }
      out += "\n"
    }
    if report.series.isEmpty { out += "No data for the metrics asked.\n\n" }
    if let organizer = report.organizer {
      out += markdown ? OrganizerRenderer.markdown(organizer) : OrganizerRenderer.text(organizer) + "\n"
    }
    let mark = markdown ? "sparse" : "*"
    out += (markdown ? "> " : "") + "Points: one per \(report.interval.rawValue) with data; \(mark): fewer than "
    out += "\(minPayloads) payloads in the interval\n"
    for o in report.omissions { out += (markdown ? "> " : "") + "Not placed: \(o)\n" }
    return out
  }

  private static func csv(_ report: TrendReport) -> String {
    var statistics: [Statistic] = []
    var bounded: [Statistic] = []
    let intervals = report.series.contains { $0.points.contains { $0.estimate != nil } }
    for s in report.series {
      for statistic in Self.statistics(s) where !statistics.contains(statistic) { statistics.append(statistic) }
      for p in s.points { for b in p.bounds where !bounded.contains(b.statistic) { bounded.append(b.statistic) } }
    }
    let header =
      ["metric", "unit", "version", "by", "start", "payloads", "count", "sparse", "share"]
      + statistics.map(\.description) + bounded.flatMap { ["\($0)_lower", "\($0)_upper"] }
      + (intervals ? ["interval_lower", "interval_upper"] : [])
    var out = header.joined(separator: ",") + "\n"
    for s in report.series {
      let by = s.by.map { "\($0.key)=\($0.value)" } ?? ""
      for p in s.points {
        var fields = [
          TextEscaping.csvField(s.subject.description), s.subject.unit, TextEscaping.csvField(s.version),
          TextEscaping.csvField(by),
          p.start.description, String(p.payloads), String(p.count), p.sparse ? "true" : "false",
          p.share.map(JSONWriter.number) ?? "",
        ]
        fields += statistics.map { p.value($0).map(JSONWriter.number) ?? "" }
        for statistic in bounded {
          let b = p.bounds.first { $0.statistic == statistic }
          fields += [b.map { JSONWriter.number($0.lower) } ?? "", b.map { JSONWriter.number($0.upper) } ?? ""]
        }
        if intervals {
          fields += [
            p.estimate.map { JSONWriter.number($0.interval.lowerBound) } ?? "",
            p.estimate.map { JSONWriter.number($0.interval.upperBound) } ?? "",
          ]
        }
        out += fields.joined(separator: ",") + "\n"
      }
    }
    return out
  }

  private static func json(_ report: TrendReport, threads: Int) -> String {
    // Each interval's start written once, not once per series (a year of days over dozens of series).
    var days = Set<CalendarDay>()
    for s in report.series { for p in s.points { days.insert(p.start) } }
    let starts = Dictionary(uniqueKeysWithValues: days.map { ($0, $0.description) })
    // Each series written apart, at its depth in the document (in "series", an item of the top
    // object's array), and set in as text: a trend of every metric is megabytes.
    let series = ParallelSlots<String>.map(count: report.series.count, threads: threads) { i in
      JSONWriter.render(json(report.series[i], starts: starts), depth: 2)
    }
    var members: [(String, JSONWriter.Value)] = [
      ("schemaVersion", .integer(Int128(SummaryReport.schemaVersion))),
      ("interval", .string(report.interval.rawValue)),
      ("inputs", report.inputs.json),
      ("series", .items(count: series.count) { .raw(series[$0]) }),
      ("omissions", .array(report.omissions.map { .string($0) })),
    ]
    if let organizer = report.organizer { members.append(("organizer", OrganizerRenderer.json(organizer))) }
    return JSONWriter.render(.object(members))
  }

  /// A series' JSON object, its points' starts taken from `starts`.
  private static func json(_ s: TrendSeries, starts: [CalendarDay: String]) -> JSONWriter.Value {
    var members: [(String, JSONWriter.Value)] = [
      ("metric", .string(s.subject.description)), ("unit", .string(s.subject.unit)), ("version", .string(s.version)),
    ]
    if let by = s.by { members.append(("by", .object([(by.key, .string(by.value))]))) }
    // Made one at a time as they are written.
    members.append(("points", .items(count: s.points.count) { json(s.points[$0], starts: starts) }))
    return .object(members)
  }

  /// A point's JSON object.
  private static func json(_ p: TrendPoint, starts: [CalendarDay: String]) -> JSONWriter.Value {
    // Members appended in place: a trend writes a point for every metric of every interval.
    var point: [(String, JSONWriter.Value)] = []
    point.reserveCapacity(5 + p.values.count)
    point.append(("start", .string(starts[p.start] ?? p.start.description)))
    point.append(("payloads", .integer(Int128(p.payloads))))
    if let share = p.share {
      point.append(("share", .number(share)))
      return .object(point)
    }
    point.append(("count", .integer(Int128(p.count))))
    point.append(("sparse", .bool(p.sparse)))
    for value in p.values { point.append((value.statistic.description, .number(value.value))) }
    if !p.bounds.isEmpty {
      let bounds = p.bounds.map {
        ($0.statistic.description, JSONWriter.Value.array([.number($0.lower), .number($0.upper)]))
      }
      point.append(("bounds", .object(bounds)))
    }
    if let e = p.estimate {
      point.append(("interval", .array([.number(e.interval.lowerBound), .number(e.interval.upperBound)])))
      point.append(("events", .number(e.events)))
      point.append(("exposure", .number(e.exposure)))
      point.append(("dispersion", .number(e.dispersion)))
    }
    return .object(point)
  }
}
