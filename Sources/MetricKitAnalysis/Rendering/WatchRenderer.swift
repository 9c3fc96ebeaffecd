/// Renders the changes `watch` found: a table (text, Markdown), a row per change (CSV), or the JSON
/// contract of `Docs/json.md`.
public enum WatchRenderer {
  /// Renders `report` in `format`.
  public static func render(_ report: WatchReport, as format: OutputFormat) -> String {
    switch format {
    case .json: JSONWriter.render(json(report))
    case .csv: csv(report)
    case .text: text(report, markdown: false)
    case .markdown: text(report, markdown: true)
    }
  }

  /// A level in the metric's unit (a share in percent): `352.6 ms`, `99.52%`.
  public static func amount(_ value: Double, _ metric: MetricID) -> String {
    let unit = metric.metric.unit
    let shown = unit == .percent ? value * 100 : value
    return NumberFormatting.text(shown) + (unit == .percent ? "%" : " \(unit.symbol)")
  }

  /// A relative change, signed: `+12.3%`.
  public static func signedPercent(_ fraction: Double) -> String {
    (fraction >= 0 ? "+" : "−") + NumberFormatting.percentText((abs(fraction) * 1000).rounded() / 1000)
  }

  /// The change in one line's cells.
  static func cells(_ c: DetectedChange) -> [String] {
    let interval =
      "[\(signedPercent(c.changeInterval.lowerBound)), \(signedPercent(c.changeInterval.upperBound))]"
    var status = c.direction
    if c.rampDays > 0 { status += " over \(c.rampDays) days" }
    if let day = c.revertedOn { status += ", reverted \(day)" }
    if let day = c.reverts { status = "reverts \(day)" }
    if let day = c.partOf { status += ", part of \(day)" }
    return [
      c.date.description, c.metric.metric.title, c.statistic.description, c.scope.description, status,
      amount(c.before.value, c.metric), amount(c.after.value, c.metric), "\(signedPercent(c.change)) \(interval)",
      qText(c.q), c.cause.description,
    ]
  }

  /// A q-value in words short enough for a column.
  static func qText(_ q: Double) -> String {
    q < 0.0001 ? "<0.0001" : NumberFormatting.text(q)
  }

  static let header = [
    "date", "metric", "statistic", "scope", "direction", "before", "after", "change [95%]", "q", "likely cause",
  ]

  /// The text for a terminal `columns` wide: the text a pipe gets when its table fits; otherwise each
  /// change as a block of two lines (its day, metric, statistic and scope, with its direction at the
  /// right; then before → after, the change with its 95% interval, q and the likely cause), and every
  /// line wrapped at `columns`.
  public static func text(_ report: WatchReport, columns: Int) -> String {
    let wide = text(report, markdown: false)
    if wide.split(separator: "\n").allSatisfy({ $0.count <= columns }) { return wide }
    let columns = max(columns, 40)
    var out = TextWrapping.wrapped(summary(report), columns: columns)
    if !report.changes.isEmpty { out += "\n" }
    for change in report.changes {
      let c = cells(change)
      let direction = c[4]
      let room = columns - 2 - direction.count - 2
      var head = "\(c[0])  \(c[1]) \(c[2]) · \(c[3])"
      if head.count > room { head = String(head.prefix(max(room - 1, 1))) + "…" }
      out += "  " + head + String(repeating: " ", count: max(2, columns - 2 - head.count - direction.count)) + direction
      out +=
        "\n" + TextWrapping.wrapped("\(c[5]) → \(c[6])  \(c[7])  q \(c[8])  \(c[9])", columns: columns, indent: "    ")
    }
    out += "\n" + TextWrapping.wrapped(method(report.options), columns: columns)
    for note in report.omissions { out += TextWrapping.wrapped("note: " + note, columns: columns) }
    return out
  }

  private static func text(_ report: WatchReport, markdown: Bool) -> String {
    var out = ""
    let line = summary(report)
    out += markdown ? "### \(line)\n\n" : line + "\n"
    if !report.changes.isEmpty {
      let rows = report.changes.map(cells)
      if markdown {
        out += "| " + header.joined(separator: " | ") + " |\n"
        out += "|" + header.map { _ in " --- |" }.joined() + "\n"
        for row in rows {
          out += "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
      } else {
        out += "\n" + TextTable.render(header: header, rows: rows, leftAligned: [1, 2, 3, 4, 9])
      }
    }
    out += "\n" + method(report.options) + "\n"
    for note in report.omissions { out += (markdown ? "- " : "note: ") + note + "\n" }
    return out
  }

  /// How the changes were found, in one sentence.
  static func method(_ o: WatchOptions) -> String {
    "Change points: binary segmentation, Student's t corrected for the days searched, segments of at least \(o.detector.minimumSegment) days, changes of at least \(NumberFormatting.percentText(o.detector.minimumChange))\(o.detector.weeklyCycle ? ", weekday pattern removed" : ""); Benjamini–Hochberg q ≤ \(NumberFormatting.text(o.falseDiscoveryRate)) over every series; device-days confirmed within device × OS strata, by Van Elteren's rank test or, for rates, the pooled rates' test (p ≤ \(NumberFormatting.text(o.distributionPValue)))."
  }

  /// The summary line: how many changes, in how many series, over which days, and the regressions
  /// still in place.
  static func summary(_ report: WatchReport) -> String {
    let span = report.days.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "no dated payloads"
    let regressions = report.changes.filter {
      $0.isRegression && $0.reverts == nil && $0.revertedOn == nil && $0.partOf == nil
    }
    return
      "Watch: \(report.changes.count) change\(report.changes.count == 1 ? "" : "s") in \(report.seriesCount) daily series (\(span)); \(regressions.count) regression\(regressions.count == 1 ? "" : "s") still in place."
  }

  package static func json(_ change: DetectedChange) -> JSONWriter.Value {
    func level(_ l: ChangePointDetector.Level, _ span: ClosedRange<CalendarDay>) -> JSONWriter.Value {
      .object([
        ("value", .number(l.value)),
        ("interval", .array([.number(l.interval.lowerBound), .number(l.interval.upperBound)])),
        ("days", .integer(Int128(l.points))), ("from", .string(span.lowerBound.description)),
        ("to", .string(span.upperBound.description)),
      ])
    }
    let by: JSONWriter.Value
    let version: JSONWriter.Value
    switch change.scope {
    case .app: (by, version) = (.null, .null)
    case .version(let v): (by, version) = (.null, .string(v))
    case .group(let key, let value): (by, version) = (.object([(key.description, .string(value))]), .null)
    }
    return .object([
      ("metric", .string(change.metric.rawValue)),
      ("statistic", .string(change.statistic.description)),
      ("date", .string(change.date.description)),
      ("rampDays", .integer(Int128(change.rampDays))),
      ("direction", .string(change.direction)),
      ("scope", .string(change.scope.kind)),
      ("by", by),
      ("version", version),
      ("before", level(change.before, change.beforeDays)),
      ("after", level(change.after, change.afterDays)),
      ("change", .number(change.change)),
      (
        "changeInterval",
        .array([.number(change.changeInterval.lowerBound), .number(change.changeInterval.upperBound)])
      ),
      ("pValue", .number(change.pValue)),
      ("q", .number(change.q)),
      ("distributionPValue", change.distributionPValue.map { .number($0) } ?? .null),
      ("cause", cause(change.cause)),
      ("partOf", change.partOf.map { .string($0.description) } ?? .null),
      ("revertedOn", change.revertedOn.map { .string($0.description) } ?? .null),
      ("reverts", change.reverts.map { .string($0.description) } ?? .null),
      ("key", .string(change.key)),
    ])
  }

  static func cause(_ cause: ChangeCause) -> JSONWriter.Value {
    var members: [(String, JSONWriter.Value)] = [("kind", .string(cause.kind))]
    switch cause {
    case .adoption(let version, let before, let after):
      members += [("version", .string(version)), ("shareBefore", .number(before)), ("shareAfter", .number(after))]
    case .device(let model, let change, let elsewhere):
      members += [
        (GroupingKey.deviceType.description, .string(model)), ("change", .number(change)),
        ("elsewhere", .number(elsewhere)),
      ]
    case .os(let version, let change, let elsewhere):
      members += [
        (GroupingKey.osVersionMajor.description, .string(version)), ("change", .number(change)),
        ("elsewhere", .number(elsewhere)),
      ]
    case .population(let versions):
      members.append(("versions", .array(versions.map { .string($0) })))
    case .undetermined: break
    }
    return .object(members)
  }

  /// A row per change, the JSON's fields flattened.
  static func csv(_ report: WatchReport) -> String {
    var out =
      "date,metric,statistic,scope,version,by,group,direction,ramp_days,before,before_lower,before_upper,after,"
      + "after_lower,after_upper,change,change_lower,change_upper,p_value,q,distribution_p_value,cause,part_of,"
      + "reverted_on,reverts,key\n"
    for c in report.changes {
      var scope = ["", "", ""]
      switch c.scope {
      case .app: break
      case .version(let v): scope[0] = v
      case .group(let key, let value): scope = ["", key.description, value]
      }
      let numbers = [
        c.before.value, c.before.interval.lowerBound, c.before.interval.upperBound, c.after.value,
        c.after.interval.lowerBound, c.after.interval.upperBound, c.change, c.changeInterval.lowerBound,
        c.changeInterval.upperBound, c.pValue, c.q,
      ].map(JSONWriter.number)
      let fields =
        [c.date.description, c.metric.rawValue, c.statistic.description, c.scope.kind] + scope
        + [c.direction, String(c.rampDays)] + numbers
        + [
          c.distributionPValue.map(JSONWriter.number) ?? "", c.cause.description, c.partOf?.description ?? "",
          c.revertedOn?.description ?? "", c.reverts?.description ?? "", c.key,
        ]
      out += fields.map(TextEscaping.csvField).joined(separator: ",") + "\n"
    }
    return out
  }

  /// Every series searched as CSV, a row per day: `scope,version,by,group,metric,statistic,date,value`
  /// (the values as the search read them, before the weekday pattern is removed).
  public static func seriesCSV(_ report: WatchReport) -> String {
    var out = "scope,version,by,group,metric,statistic,date,value\n"
    for s in report.series {
      var lead: [String]
      switch s.scope {
      case .app: lead = ["app", "", "", ""]
      case .version(let v): lead = ["version", v, "", ""]
      case .group(let key, let value): lead = ["group", "", key.description, value]
      }
      lead += [s.subject.metric.rawValue, s.subject.statistic.description]
      let prefix = lead.map(TextEscaping.csvField).joined(separator: ",")
      for (day, value) in zip(s.days, s.values) { out += "\(prefix),\(day),\(JSONWriter.number(value))\n" }
    }
    return out
  }

  private static func json(_ report: WatchReport) -> JSONWriter.Value {
    .object([
      ("changes", .array(report.changes.map(json))),
      ("series", .integer(Int128(report.seriesCount))),
      (
        "days",
        report.days.map {
          .object([("first", .string($0.lowerBound.description)), ("last", .string($0.upperBound.description))])
        } ?? .null
      ),
      ("omissions", .array(report.omissions.map { .string($0) })),
      ("inputs", report.inputs.json),
    ])
  }
}
