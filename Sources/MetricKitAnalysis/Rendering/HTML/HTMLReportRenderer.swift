import Foundation

/// Renders a ``ReportPage`` as one self-contained HTML file: styles, script, data and SVG inline, no
/// request of any kind (a Content-Security-Policy allows none, and only the page's own script and
/// style by hash). Every chart is drawn here as static SVG; the page's script adds zoom, crosshair, legend and
/// presets. Output is deterministic: no clock, sorted series, fixed number formatting.
public enum HTMLReportRenderer {
  /// Full data tables are written for charts of at most this many points; larger ones get one row
  /// per series (the points are in `trend --format csv`).
  static let fullTableLimit = 1_000

  /// The page.
  public static func render(_ page: ReportPage) -> String {
    var context = Context(page: page)
    let style = String(decoding: PackageResources.report_css, as: UTF8.self)
    let script = ReportScript.text
    let body = context.body()
    let counted = page.inputs.counted
    var out = "<!DOCTYPE html>\n<html lang=\"en\" data-report-ready=\"false\" data-report-errors=\"\">\n<head>\n"
    out += "<meta charset=\"utf-8\">\n"
    out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    out += "script-src \(ContentHash.cspSource(script)); style-src \(ContentHash.cspSource(style)); "
    // Images only from blob: URLs the page makes itself (a chart saved as PNG is drawn through one).
    out += "img-src blob:; connect-src 'none'; base-uri 'none'; form-action 'none'\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<meta name=\"generator\" content=\"metrics-report\">\n"
    out += "<title>MetricKit report: \(page.versions.count) versions, \(counted) payloads</title>\n"
    out += "<style>\(style)</style>\n</head>\n<body>\n"
    out += body
    out += "<script type=\"application/json\" id=\"report-data\">\(JSONWriter.compact(context.data))</script>\n"
    out += "<script>\(script)</script>\n</body>\n</html>\n"
    return out
  }

  /// The versions shown in full: the latest ones (and the gate's two); the lines of older versions
  /// are muted and their legend entries folded.
  static let recentVersions = 8

  /// The time presets of a page with points per `interval`: its own units (7, 30, 90 days and a year;
  /// 4, 13 and 52 weeks; 3, 6 and 12 months), then everything. Each is a count of days back from the
  /// data's last day.
  static func presets(_ interval: TrendInterval) -> [(days: String, text: String)] {
    switch interval {
    case .day: [("7", "7 days"), ("30", "30 days"), ("90", "90 days"), ("365", "1 year"), ("all", "All")]
    case .week: [("28", "4 weeks"), ("91", "13 weeks"), ("364", "52 weeks"), ("all", "All")]
    case .month: [("92", "3 months"), ("183", "6 months"), ("366", "12 months"), ("all", "All")]
    }
  }

  /// What the page's sections share: version styles, chart ids, the time axis.
  struct Context {
    let page: ReportPage
    let versionIndex: [String: Int]
    /// The versions shown in full (positions): the recent ones and the gate's baseline and candidate.
    let emphasised: Set<Int>
    let styles: [SeriesStyle]
    /// The page's groups (with --by), by name; a group's position is its rank, which gives its dash.
    let groups: [String]
    let groupRank: [String: Int]
    let axis: (x0: Double, x1: Double)?
    var charts: [ChartData] = []
    /// The id of the first chart of each metric, and of each metric and statistic (gate links).
    var chartOfMetric: [MetricID: String] = [:]
    /// The id of the first chart of each metric and statistic.
    var chartOfSpec: [ReportChartSpec: String] = [:]
    var releases: [SVGChart.Release] = []

    init(page: ReportPage) {
      self.page = page
      let versionIndex = Dictionary(uniqueKeysWithValues: page.versions.enumerated().map { ($1.version, $0) })
      self.versionIndex = versionIndex
      let gateVersions = [page.comparison?.baseline, page.comparison?.candidate].compactMap { $0 }
      emphasised = Set(max(0, page.versions.count - HTMLReportRenderer.recentVersions)..<page.versions.count)
        .union(gateVersions.compactMap { versionIndex[$0] })
      styles = SeriesStyle.assign(page.versions.map(\.version), emphasised: emphasised)
      // Groups (with --by) ranked by name: a group has the same dash in every version.
      groups = Set((page.adoption + page.charts.flatMap(\.series)).compactMap { $0.by?.value }).sorted()
      groupRank = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1, $0) })
      axis = page.axis.map { range in
        let a = Double(range.lowerBound.daysSinceEpoch)
        let b = Double(range.upperBound.daysSinceEpoch)
        return a == b ? (a - 1, b + 1) : (a, b)
      }
      releases = page.versions.enumerated().compactMap { i, row in
        row.release.map { SVGChart.Release(version: i, label: row.version, day: $0.daysSinceEpoch) }
      }
    }

    /// The data the page's script reads.
    var data: JSONWriter.Value {
      .object([
        ("interval", .string(page.interval.rawValue)), ("minPayloads", .integer(Int128(page.minPayloads))),
        ("x0", axis.map { .number($0.x0) } ?? .null), ("x1", axis.map { .number($0.x1) } ?? .null),
        (
          "geometry",
          .object([
            ("width", .number(ChartScale.width)), ("height", .number(ChartScale.height)),
            ("left", .number(ChartScale.left)), ("right", .number(ChartScale.right)),
            ("top", .number(ChartScale.top)), ("bottom", .number(ChartScale.bottom)),
          ])
        ),
        (
          "versions",
          .array(
            page.versions.enumerated().map { i, row in
              .object([
                ("name", .string(row.version)), ("color", .string(styles[i].color)), ("dash", .string(styles[i].dash)),
                ("release", row.release.map { .integer(Int128($0.daysSinceEpoch)) } ?? .null),
              ])
            })
        ),
        ("groups", .array(groups.map { .string($0) })),
        ("charts", .array(charts.map(\.json))),
      ])
    }

    func label(_ version: String) -> String { version.isEmpty ? "(no version)" : version }

    func seriesLabel(_ s: TrendSeries) -> String {
      label(s.version) + (s.by.map { " · \($0.value)" } ?? "")
    }

    /// A series' style: its version's, with its group's dash.
    func style(_ s: TrendSeries) -> SeriesStyle {
      let version = versionIndex[s.version].map { styles[$0] } ?? SeriesStyle(version: s.version)
      guard let group = s.by?.value else { return version }
      return version.group(rank: groupRank[group] ?? 0)
    }

    /// A trend series as chart data: the single statistic of each point, rounded.
    private func chartSeries(_ s: TrendSeries, share: Bool) -> ChartData.Series {
      let days = s.points.map(\.start.daysSinceEpoch)
      let values = s.points.map { ChartData.rounded(share ? $0.share ?? 0 : $0.values.first?.value ?? 0) }
      let hasBounds = !share && s.points.allSatisfy { !$0.bounds.isEmpty }
      let index = versionIndex[s.version] ?? 0
      return ChartData.Series(
        version: index, older: !emphasised.contains(index), label: seriesLabel(s),
        group: s.by.flatMap { groupRank[$0.value] }, style: style(s), days: days, values: values,
        lower: hasBounds ? s.points.map { ChartData.rounded($0.bounds[0].lower) } : nil,
        upper: hasBounds ? s.points.map { ChartData.rounded($0.bounds[0].upper) } : nil,
        payloads: s.points.map(\.payloads), breaks: ChartData.breaks(days, interval: page.interval))
    }

    mutating func body() -> String {
      // The charts first: they give the chart ids every other section links to.
      let adoptionSection = adoption()
      let trendSection = trends()
      var out = header()
      out += "<main>\n"
      // What a reader looks for first: did the release regress (the verdict), then each version's
      // value, then how they moved over time; the inputs' accounting last.
      if let comparison = page.comparison { out += verdict(comparison) }
      if let watch = page.watch { out += changes(watch) }
      out += stability()
      out += versions()
      out += trendSection
      out += adoptionSection
      out += distributions()
      if !page.diagnostics.isEmpty { out += diagnostics() }
      if let organizer = page.organizer { out += self.organizer(organizer) }
      if let comparison = page.comparison { out += gate(comparison) }
      out += overview()
      out += "</main>\n<footer><p>Made by metrics-report from \(page.inputs.files) files. Percentiles invert the "
      out +=
        page.interpolation == .monotone
        ? "merged histogram&apos;s CDF (monotone within buckets: a spline of the CDF against log x); "
        : "merged histogram&apos;s CDF (uniform within buckets); "
      out += "the faint band around a percentile is its "
      out += "guaranteed bracket, where the true value lies whatever the samples inside the buckets. Hang rate: "
      out += "seconds of hang per hour of foreground time, pooled. Dots mark points with fewer than "
      out += "\(page.minPayloads) payloads. A version with no payload of its own: &quot;(no version)&quot;; a group "
      out += "without the key&apos;s value: &quot;(unknown)&quot;.</p>\n"
      if let p = page.provenance {
        out += "<p class=\"provenance\">\(TextEscaping.html(p.tool)), \(TextEscaping.html(p.generated)): "
        out += "<code>\(TextEscaping.html(p.arguments.map(TextEscaping.shellWord).joined(separator: " ")))</code></p>\n"
      }
      out += "</footer>\n"
      return out
    }

    /// A version's legend button: its swatch and name; a click hides or shows it, alt-click shows it alone.
    private func legendButton(_ n: Int) -> String {
      let name = TextEscaping.html(label(page.versions[n].version))
      let role = gateRole(page.versions[n].version).map { " (\($0))" } ?? ""
      // With groups, lines take their group's dash: a version's swatch is its colour alone.
      return toggleButton(
        "version", n, name: name + role, title: "Show or hide \(name) (alt-click: \(name) alone)",
        color: styles[n].color, dash: groups.isEmpty ? styles[n].dash : "")
    }

    /// A group's legend button (with --by): its dash in ink and its name; a click hides or shows the
    /// group in every version, alt-click shows it alone.
    private func groupButton(_ n: Int) -> String {
      let name = TextEscaping.html(groups[n])
      return toggleButton(
        "group", n, name: name, title: "Show or hide \(name) in every version (alt-click: \(name) alone)",
        color: nil, dash: SeriesStyle.dashes[n % SeriesStyle.dashes.count])
    }

    /// A legend button of `kind` (`version`, `group`) at position `n`: a swatch of `dash` in `color`
    /// (nil: the ink), then the escaped `name`.
    private func toggleButton(_ kind: String, _ n: Int, name: String, title: String, color: String?, dash: String)
      -> String
    {
      var out = "<button type=\"button\" class=\"\(kind)\" data-\(kind)-index=\"\(n)\" aria-pressed=\"true\" "
      out += "title=\"\(title)\"><svg class=\"swatch\" viewBox=\"0 0 24 10\" aria-hidden=\"true\">"
      out += "<line x1=\"1\" x2=\"23\" y1=\"5\" y2=\"5\""
      if let color { out += " stroke=\"\(color)\"" }
      if !dash.isEmpty { out += " stroke-dasharray=\"\(dash)\"" }
      return out + "/></svg>\(name)</button>"
    }

    private func header() -> String {
      var out = "<header class=\"top\">\n<h1>MetricKit report"
      if let bundle = page.bundleIdentifier { out += " <span class=\"app\">\(TextEscaping.html(bundle))</span>" }
      out += "</h1>\n"
      let i = page.inputs
      out +=
        "<p class=\"lede\">\(page.versions.count) versions · \(i.counted) payloads · per \(page.interval.rawValue)"
      if let grouping = page.grouping { out += " · by \(TextEscaping.html(grouping.description))" }
      if let range = page.axis { out += " · \(range.lowerBound) to \(range.upperBound)" }
      // The sections on the title's line: the header stays two rows with a legend's worth of versions.
      out += "</p>\n<nav class=\"sections\" aria-label=\"Sections\">"
      if page.comparison != nil { out += "<a href=\"#verdict\">Verdict</a>" }
      if page.watch != nil { out += "<a href=\"#changes\">Changes</a>" }
      out += "<a href=\"#versions\">Versions</a><a href=\"#trends\">Trends</a><a href=\"#adoption\">Adoption</a>"
      out += "<a href=\"#distributions\">Distributions</a>"
      if !page.diagnostics.isEmpty { out += "<a href=\"#diagnostics\">Diagnostics</a>" }
      if page.organizer != nil { out += "<a href=\"#organizer\">Apple&apos;s Organizer</a>" }
      if page.comparison != nil { out += "<a href=\"#gate\">Gate</a>" }
      out += "<a href=\"#overview\">Inputs</a>"
      out += "</nav>\n<nav class=\"toolbar\" aria-label=\"Time range and versions\">"
      out += "<span class=\"presets\" role=\"group\" aria-label=\"Time range\" hidden>"
      for (days, text) in HTMLReportRenderer.presets(page.interval) {
        let pressed = days == "all" ? "true" : "false"
        out += "<button type=\"button\" data-days=\"\(days)\" aria-pressed=\"\(pressed)\""
        out += days == "all" ? " class=\"active\">" : ">"
        out += "\(text)</button>"
      }
      out += "</span>"
      // A range of one's own, and the value scale; like the presets, they work with the script only.
      if let range = page.axis {
        out += "<span class=\"range\" role=\"group\" aria-label=\"Custom range\" hidden>"
        // ISO dates, as everywhere on the page (a date input would show the browser's locale's format).
        for (name, text, day) in [("from", "From", range.lowerBound), ("to", " to", range.upperBound)] {
          out += "<label>\(text) <input type=\"text\" name=\"\(name)\" value=\"\(day)\" size=\"10\" "
          out += "inputmode=\"numeric\" pattern=\"[0-9]{4}-[0-9]{2}-[0-9]{2}\" placeholder=\"yyyy-mm-dd\" "
          out += "title=\"yyyy-mm-dd, \(range.lowerBound) to \(range.upperBound)\"></label>"
        }
        out += "</span>"
      }
      out += "<button type=\"button\" class=\"log-scale\" aria-pressed=\"false\" hidden "
      out += "title=\"Durations and sizes on a logarithmic value axis\">Log scale</button>"
      out += "<span class=\"legend\">"
      // The versions in view first and in full; the older ones folded (their lines are muted too).
      for n in page.versions.indices where emphasised.contains(n) { out += legendButton(n) }
      let older = page.versions.indices.filter { !emphasised.contains($0) }
      if !older.isEmpty {
        out += "<details class=\"older\"><summary>\(older.count) older</summary>"
        for n in older { out += legendButton(n) }
        out += "</details>"
      }
      if !groups.isEmpty {
        out += "</span><span class=\"legend groups\" role=\"group\" aria-label=\"Groups\">"
        for n in groups.indices { out += groupButton(n) }
      }
      return out + "</span></nav>\n</header>\n"
    }

    private func overview() -> String {
      let i = page.inputs
      var out =
        "<section id=\"overview\">\n<h2>Overview</h2>\n<p class=\"accounting\">\(TextEscaping.html(i.balance))</p>\n"
      var notes: [String] = []
      let excluded = ExclusionReason.allCases.compactMap { r in i.excluded[r].map { "\($0) \(r.rawValue)" } }
      if !excluded.isEmpty { notes.append("Excluded: " + excluded.joined(separator: ", ")) }
      if i.zoneAssumedPayloads > 0 {
        notes.append(
          "Timestamps without a zone in \(i.zoneAssumedPayloads) payloads were taken as UTC\(i.assumedUTCOffsetText)")
      }
      if let note = i.unknownKeysNote { notes.append(note) }
      notes += page.omissions
      for note in notes { out += "<p class=\"note\">\(TextEscaping.html(note))</p>\n" }
      out += "<table class=\"versions\"><caption>Each version&apos;s payloads and place on the time axis</caption>"
      out +=
        "<thead><tr><th scope=\"col\">Version</th><th scope=\"col\">Payloads</th><th scope=\"col\">First</th><th scope=\"col\">Last</th>"
      out += "<th scope=\"col\">Release marker</th></tr></thead><tbody>\n"
      for (n, row) in page.versions.enumerated() {
        out +=
          "<tr><td><span class=\"dot\" data-version-index=\"\(n)\"><svg viewBox=\"0 0 10 10\" aria-hidden=\"true\">"
        out +=
          "<circle cx=\"5\" cy=\"5\" r=\"4\" fill=\"\(styles[n].color)\"/></svg></span>\(TextEscaping.html(label(row.version)))</td>"
        out += "<td class=\"num\">\(row.payloads)</td><td>\(row.first.map(\.description) ?? "–")</td>"
        out += "<td>\(row.last.map(\.description) ?? "–")</td><td>\(row.release.map(\.description) ?? "–")</td></tr>\n"
      }
      out += "</tbody></table>\n"
      let rejected = i.rejected
      if i.rejectedCount > 0 {
        out += "<details class=\"rejected\"><summary>\(i.rejectedCount) rejected inputs"
        if rejected.count < i.rejectedCount { out += " (the first \(rejected.count) listed)" }
        out += "</summary><ul>\n"
        for r in rejected { out += "<li>\(TextEscaping.html(r.description))</li>\n" }
        out += "</ul></details>\n"
      }
      if !i.duplicateFiles.isEmpty {
        out +=
          "<details class=\"duplicates\"><summary>\(i.duplicateFiles.count) files named twice, read once</summary><ul>\n"
        for f in i.duplicateFiles { out += "<li>\(TextEscaping.html(f))</li>\n" }
        out += "</ul></details>\n"
      }
      return out + "</section>\n"
    }

    private mutating func adoption() -> String {
      var out = "<section id=\"adoption\">\n<h2>Adoption</h2>\n"
      guard let axis, !page.adoption.isEmpty else {
        return out + "<p class=\"note\">No dated payloads: nothing to place on a time axis.</p>\n</section>\n"
      }
      let chart = ChartData(
        kind: "stack", id: "chart-adoption", metric: TrendSubject.adoption.description, statistic: nil, unit: "share",
        title: "Share of payloads per version", series: page.adoption.map { chartSeries($0, share: true) })
      charts.append(chart)
      let latest = chart.series.compactMap { s in s.days.last.map { (s.label, $0, s.values.last ?? 0) } }
      let description =
        "Stacked share of each \(page.interval.rawValue)'s payloads by version. Latest shares: "
        + latest.map { "\($0.0) \(Int(saturating: ($0.2 * 100).rounded()))% on \(CalendarDay(daysSinceEpoch: $0.1))" }
        .joined(separator: "; ")
      // The header names the last interval's versions by share, with their colours: the chart's labels.
      let lastDay = chart.series.compactMap(\.days.last).max()
      let shares = chart.series.compactMap { s -> (ChartData.Series, Double)? in
        guard let lastDay, s.days.last == lastDay, let share = s.values.last, share > 0 else { return nil }
        return (s, share)
      }.sorted { $0.1 > $1.1 }
      var headline = lastDay.map { "\(CalendarDay(daysSinceEpoch: $0)): " } ?? ""
      headline += shares.prefix(6).map { s, share in
        "<span class=\"share\"><svg class=\"swatch\" viewBox=\"0 0 24 10\" aria-hidden=\"true\"><line x1=\"1\" x2=\"23\" "
          + "y1=\"5\" y2=\"5\" stroke=\"\(s.style.color)\"/></svg>\(TextEscaping.html(s.label)) "
          + "<b>\(Int(saturating: (share * 100).rounded()))%</b></span>"
      }.joined(separator: " ")
      if shares.count > 6 { headline += " and \(shares.count - 6) more" }
      out += figure(chart, headline: headline, description: description, axis: axis)
      return out + "</section>\n"
    }

    private mutating func trends() -> String {
      var out = "<section id=\"trends\">\n<h2>Trends</h2>\n<div class=\"grid\">\n"
      // Charts without data take one line under the grid, not a cell each.
      var empty: [(id: String, metric: String, title: String)] = []
      for (n, chart) in page.charts.enumerated() {
        var data = ChartData(
          kind: "line", id: "chart-\(n)", metric: chart.spec.metric.rawValue,
          statistic: chart.spec.statistic.description, unit: chart.unit.symbol, title: chart.spec.title,
          series: chart.series.map { chartSeries($0, share: false) })
        // Durations and sizes get an axis fitted to their range; counts and rates start at 0.
        data.fromZero = Self.axisFromZero(chart.unit)
        data.changes = changeMarks(chart.spec)
        let apple = page.organizerRows(for: chart.spec)
        data.apple = apple.compactMap { row in
          guard let i = versionIndex[row.version], let first = page.versions[i].first, let last = page.versions[i].last
          else { return nil }
          return ChartData.ApplePoint(
            version: i, label: "\(label(row.version)) \(row.statistic)", color: styles[i].color,
            value: ChartData.rounded(row.apple), from: first.daysSinceEpoch, to: last.daysSinceEpoch)
        }
        if !data.apple.isEmpty {
          data.goals = (page.organizer?.goals[chart.spec.metric] ?? []).map {
            ChartData.Goal(name: $0.name, lower: $0.lower, upper: $0.upper)
          }
        }
        if chartOfMetric[chart.spec.metric] == nil { chartOfMetric[chart.spec.metric] = data.id }
        if chartOfSpec[chart.spec] == nil { chartOfSpec[chart.spec] = data.id }
        var headline = ""
        if let latest = chart.headline.first {
          headline = "\(TextEscaping.html(label(latest.version))) <b>\(value(latest.value, chart.unit))</b>"
          if let own = apple.first(where: { $0.version == latest.version }) {
            headline += " <span class=\"apple-value\">(Apple \(value(own.apple, chart.unit)))</span>"
          }
          if chart.headline.count > 1 {
            let previous = chart.headline[1]
            headline += " · \(TextEscaping.html(label(previous.version))) \(value(previous.value, chart.unit))"
            if previous.value != 0 {
              let change = (latest.value - previous.value) / abs(previous.value) * 100
              headline += String(format: " <span class=\"change\">(%+.1f%%)</span>", change)
            }
          }
          // The gate's word on the same metric and statistic, when a rule compares them: the headline
          // then says what the gate says, never a verdict of its own.
          if let report = page.comparison,
            let r = report.results.first(where: {
              $0.by == nil && $0.rule.metric == chart.spec.metric
                && ($0.rule.statistic == chart.spec.statistic || chart.spec.statistic == .value)
            })
          {
            headline += " <span class=\"gate-word \(outcome(r, report).className)\">gate: "
            headline += "\(TextEscaping.html(ComparisonRenderer.verdictText(r)))</span>"
          }
        }
        if !apple.isEmpty, let candidate = page.comparison?.candidate ?? page.versions.last?.version,
          !apple.contains(where: { $0.version == candidate })
        {
          headline +=
            " <span class=\"apple-value\">(Apple has no value for \(TextEscaping.html(label(candidate))) yet)</span>"
        }
        guard let axis, !data.series.isEmpty else {
          empty.append((data.id, data.metric, data.title))
          continue
        }
        charts.append(data)
        let points = data.series.reduce(0) { $0 + $1.days.count }
        var description = "\(data.title) (\(data.unit)) per \(page.interval.rawValue) and version, \(points) points. "
        description += data.series.map { s in
          "\(s.label): \(s.days.count) points, latest \(NumberFormatting.text(s.values.last ?? 0)) on "
            + "\(CalendarDay(daysSinceEpoch: s.days.last ?? 0))"
        }.joined(separator: "; ")
        out += figure(data, headline: headline, description: description, axis: axis)
      }
      out += "</div>\n"
      if !empty.isEmpty {
        out += "<p class=\"note empty-charts\">No data for "
        out += empty.map {
          "<span class=\"chart empty\" id=\"\($0.id)\" data-chart=\"\(TextEscaping.html($0.metric))\">\(TextEscaping.html($0.title))</span>"
        }.joined(separator: ", ")
        out += ".</p>\n"
      }
      return out + "</section>\n"
    }

    /// Whether a chart's value axis starts at 0: counts and rates do; durations, sizes and shares
    /// (crash-free device-days near 100%) fit their values.
    static func axisFromZero(_ unit: MetricUnit) -> Bool {
      ![MetricUnit.milliseconds, .seconds, .megabytes, .percent].contains(unit)
    }

    func value(_ v: Double, _ unit: MetricUnit) -> String {
      unit == .count ? NumberFormatting.text(v) : "\(NumberFormatting.text(v)) \(TextEscaping.html(unit.symbol))"
    }

    /// A chart's save buttons: the drawing as SVG or PNG, and (time charts) its points as CSV. They
    /// work with the script only.
    func saveButtons(csv: Bool, chart: String) -> String {
      let name = TextEscaping.html(chart)
      var out = "<span class=\"save\" role=\"group\" aria-label=\"Save \(name)\" hidden>Save "
      for format in csv ? ["SVG", "PNG", "CSV"] : ["SVG", "PNG"] {
        out += "<button type=\"button\" data-save=\"\(format.lowercased())\" aria-label=\"Save \(name) as \(format)\">"
        out += "\(format)</button>"
      }
      return out + "</span>"
    }

    /// A time chart's figure: caption with headline, SVG, crosshair readout, data table.
    private func figure(_ chart: ChartData, headline: String, description: String, axis: (x0: Double, x1: Double))
      -> String
    {
      var out = "<figure class=\"chart\" id=\"\(chart.id)\" data-chart=\"\(TextEscaping.html(chart.metric))\""
      if let statistic = chart.statistic { out += " data-statistic=\"\(TextEscaping.html(statistic))\"" }
      out += " data-x0=\"\(ChartScale.coordinate(axis.x0))\" data-x1=\"\(ChartScale.coordinate(axis.x1))\">"
      out += "<figcaption><h3>\(TextEscaping.html(chart.title))"
      if chart.kind == "line" { out += " <span class=\"unit\">\(TextEscaping.html(chart.unit))</span>" }
      out += "</h3><p class=\"headline\">\(headline)</p>\(saveButtons(csv: true, chart: chart.title))</figcaption>\n"
      let releases = chart.kind == "stack" ? [] : self.releases
      out += "<div class=\"plot-area\">"
      out += SVGChart.time(
        chart, x0: axis.x0, x1: axis.x1, releases: releases, minPayloads: page.minPayloads, title: chart.title,
        description: description)
      // The crosshair and its values are HTML over the plot, each a layer of its own: a move changes a
      // transform, and the drawing under it is not painted again.
      out += "\n<div class=\"crosshair\" hidden></div><canvas class=\"readout\" aria-hidden=\"true\"></canvas>"
      out += "<p class=\"readout-text\" aria-live=\"off\"></p></div>\n"
      if !chart.apple.isEmpty {
        let device = TextEscaping.html(page.organizer?.device ?? "")
        out += "<p class=\"note organizer-key\">Dotted level ending in a diamond: Apple&apos;s Organizer value of "
        out += "each version (\(device)); shaded: Apple&apos;s goal bands"
        out +=
          chart.goals.isEmpty
          ? " (none given)"
          : ": "
            + chart.goals.enumerated().map { n, goal in
              "<span class=\"goal-key \(SVGChart.goalClass(goal, index: n))\"></span>"
                + TextEscaping.html(VersionChart.goalText(goal, unit: chart.unit))
            }.joined(separator: ", ")
        out += ".</p>\n"
      }
      out += table(chart)
      return out + "</figure>\n"
    }

    /// The chart's data: a row per interval and a column per series when the chart has few points
    /// (with the bracket under each percentile), else a row per series.
    private func table(_ chart: ChartData) -> String {
      let points = chart.series.reduce(0) { $0 + $1.days.count }
      let share = chart.kind == "stack"
      func cell(_ v: Double) -> String { share ? "\(NumberFormatting.text(v * 100))%" : NumberFormatting.text(v) }
      var out = "<details class=\"data\"><summary>Data (\(points) points)</summary><table>"
      out += "<caption>\(TextEscaping.html(chart.title)) per \(page.interval.rawValue)</caption><thead><tr>"
      if points <= fullTableLimit {
        out += "<th scope=\"col\">\(page.interval == .day ? "Day" : "From")</th>"
        for s in chart.series { out += "<th scope=\"col\" class=\"num\">\(TextEscaping.html(s.label))</th>" }
        out += "</tr></thead><tbody>\n"
        let index = chart.series.map { s in Dictionary(uniqueKeysWithValues: s.days.enumerated().map { ($1, $0) }) }
        for day in Set(chart.series.flatMap(\.days)).sorted() {
          out += "<tr><td>\(CalendarDay(daysSinceEpoch: day))</td>"
          for (s, positions) in zip(chart.series, index) {
            guard let i = positions[day] else {
              out += "<td></td>"
              continue
            }
            out += "<td class=\"num\">\(cell(s.values[i]))"
            if let lower = s.lower, let upper = s.upper {
              out += " <small>\(NumberFormatting.text(lower[i]))–\(NumberFormatting.text(upper[i]))</small>"
            }
            out += "</td>"
          }
          out += "</tr>\n"
        }
        return out + "</tbody></table></details>\n"
      }
      out +=
        "<th scope=\"col\">Series</th><th scope=\"col\">Points</th><th scope=\"col\">First</th><th scope=\"col\">Last</th><th scope=\"col\">Min</th><th scope=\"col\">Max</th><th scope=\"col\">Latest</th>"
      out += "</tr></thead><tbody>\n"
      for s in chart.series {
        out += "<tr><td>\(TextEscaping.html(s.label))</td><td class=\"num\">\(s.days.count)</td>"
        out += "<td>\(CalendarDay(daysSinceEpoch: s.days.first ?? 0))</td>"
        out += "<td>\(CalendarDay(daysSinceEpoch: s.days.last ?? 0))</td>"
        for v in [s.values.min() ?? 0, s.values.max() ?? 0, s.values.last ?? 0] {
          out += "<td class=\"num\">\(cell(v))</td>"
        }
        out += "</tr>\n"
      }
      out += "</tbody></table><p class=\"note\">Every point: <code>metrics-report trend --format csv</code>.</p>"
      return out + "</details>\n"
    }

    private func distributions() -> String {
      var out = "<section id=\"distributions\">\n<h2>Distributions</h2>\n"
      guard !page.distributions.isEmpty else {
        return out + "<p class=\"note\">No histogram metrics.</p>\n</section>\n"
      }
      let versions = Set(page.distributions.flatMap { $0.sides.map(\.version) }).sorted(by: VersionOrder.precedes)
      out +=
        "<p class=\"note\">Merged histograms of \(versions.map { TextEscaping.html(label($0)) }.joined(separator: " and ")) "
      out += "as cumulative distributions; p50 and p90 marked.</p>\n<div class=\"grid\">\n"
      for (n, d) in page.distributions.enumerated() {
        let id = "distribution-\(n)"
        let title = d.metric.metric.title
        out +=
          "<figure class=\"chart distribution\" id=\"\(id)\" data-distribution=\"\(TextEscaping.html(d.metric.rawValue))\">"
        out +=
          "<figcaption><h3>\(TextEscaping.html(title)) <span class=\"unit\">\(TextEscaping.html(d.unit.symbol))</span></h3>"
        out += "<p class=\"headline\">"
        out += d.sides.map { side in
          let marked = ReportPage.Distribution.marked.compactMap(side.estimate).map { e in
            "\(e.percentile.label) <b>\(value(e.value, d.unit))</b>"
          }
          // Each version's swatch beside its name: the chart's legend.
          let style = versionIndex[side.version].map { self.styles[$0] } ?? SeriesStyle(version: side.version)
          var swatch = "<svg class=\"swatch\" viewBox=\"0 0 24 10\" aria-hidden=\"true\"><line x1=\"1\" x2=\"23\" "
          swatch += "y1=\"5\" y2=\"5\" stroke=\"\(style.color)\""
          if !style.dash.isEmpty { swatch += " stroke-dasharray=\"\(style.dash)\"" }
          swatch += "/></svg>"
          return "\(swatch)\(TextEscaping.html(label(side.version))) " + marked.joined(separator: ", ")
        }.joined(separator: " · ")
        out += "</p>\(saveButtons(csv: false, chart: title))</figcaption>\n"
        let styles = d.sides.map { side in
          versionIndex[side.version].map { self.styles[$0] } ?? SeriesStyle(version: side.version)
        }
        out += SVGChart.distribution(d, id: id, styles: styles, title: title)
        out += "\n<details class=\"data\"><summary>Data</summary><table><caption>Percentiles of "
        out +=
          "\(TextEscaping.html(title)) and their brackets</caption><thead><tr><th scope=\"col\">Version</th><th scope=\"col\">Samples</th>"
        for p in d.sides[0].percentiles {
          out += "<th scope=\"col\">\(p.percentile.label)</th><th scope=\"col\">Bracket</th>"
        }
        out += "</tr></thead><tbody>\n"
        for side in d.sides {
          out += "<tr><td>\(TextEscaping.html(label(side.version)))</td><td class=\"num\">\(side.sampleCount)</td>"
          for p in side.percentiles {
            out += "<td class=\"num\">\(NumberFormatting.text(p.value))</td>"
            out +=
              "<td class=\"num\">\(NumberFormatting.text(p.lowerBound))–\(NumberFormatting.text(p.upperBound))</td>"
          }
          out += "</tr>\n"
        }
        out += "</tbody></table></details>\n</figure>\n"
      }
      return out + "</div>\n</section>\n"
    }

    /// Apple's numbers beside the versions': the side-by-side table.
    private func organizer(_ comparison: OrganizerComparison) -> String {
      var out =
        "<section id=\"organizer\">\n<h2>Apple&apos;s Organizer (\(TextEscaping.html(comparison.device)))</h2>\n"
      out += "<p class=\"note\">Apple&apos;s population is every device that shares analytics; ours is what the app "
      out += "collected. ≈ marks a related quantity rather than the same one. Inside: Apple&apos;s value lies in the "
      out += "bracket guaranteed to hold the true percentile of what the app collected.</p>\n"
      out += "<table class=\"organizer\"><caption>Apple&apos;s values beside ours</caption>"
      out += "<thead><tr><th scope=\"col\">Version</th><th scope=\"col\">Metric</th><th scope=\"col\">Statistic</th>"
      out +=
        "<th scope=\"col\" class=\"num\">Apple</th><th scope=\"col\" class=\"num\">Ours</th><th scope=\"col\" class=\"num\">Bracket</th>"
      out +=
        "<th scope=\"col\" class=\"num\">Difference</th><th scope=\"col\">Inside</th><th scope=\"col\">Apple&apos;s goal</th></tr></thead><tbody>\n"
      for row in comparison.rows {
        let unit = row.metric.metric.unit
        let target =
          chartOfSpec[ReportChartSpec(metric: row.metric, statistic: row.statistic)] ?? chartOfMetric[row.metric]
        let name = TextEscaping.html(row.metric.rawValue) + (row.comparability == .approximate ? " ≈" : "")
        out += "<tr><td>\(TextEscaping.html(label(row.version)))</td><td>"
        out += target.map { "<a href=\"#\($0)\">\(name)</a>" } ?? name
        out += "</td><td>\(row.statistic)</td><td class=\"num\">\(value(row.apple, unit))</td>"
        out += "<td class=\"num\">\(row.ours.map { value($0, unit) } ?? "no data")</td>"
        out += "<td class=\"num\">\(TextEscaping.html(OrganizerRenderer.bracketText(row) ?? "–"))</td>"
        out += "<td class=\"num\">\(OrganizerRenderer.differenceText(row) ?? "–")</td>"
        out += "<td>\(row.appleInsideBracket.map { $0 ? "yes" : "no" } ?? "–")</td>"
        out += "<td>\(TextEscaping.html(row.appleGoal ?? ""))</td></tr>\n"
      }
      out += "</tbody></table>\n"
      for line in comparison.notCompared + comparison.notes {
        out += "<p class=\"note\">\(TextEscaping.html(line))</p>\n"
      }
      return out + "</section>\n"
    }

  }
}
