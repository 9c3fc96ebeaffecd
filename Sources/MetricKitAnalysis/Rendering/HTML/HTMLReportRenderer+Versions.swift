/// The page's per-version view: each metric as Organizer shows it, one value per version.
extension HTMLReportRenderer.Context {
  /// One figure per metric of the trend charts; a metric drawn with several statistics (p50, p90)
  /// gets a toggle between them, and with groups a toggle between the groups.
  func versions() -> String {
    var out = "<section id=\"versions\">\n<h2>Per version</h2>\n"
    var metrics: [MetricID] = []
    for chart in page.charts where !metrics.contains(chart.spec.metric) { metrics.append(chart.spec.metric) }
    let drawn = metrics.map { metric in page.charts.filter { $0.spec.metric == metric && !$0.versions.isEmpty } }
      .filter { !$0.isEmpty }
    guard !drawn.isEmpty else { return out + "<p class=\"note\">No version has data for the charts.</p>\n</section>\n" }
    out += "<p class=\"note\">Each version&apos;s value over all its payloads (as <code>summary</code> computes it)"
    out += "; a percentile&apos;s whisker is its guaranteed bracket."
    if let c = page.comparison {
      out += " The gate&apos;s baseline (\(TextEscaping.html(label(c.baseline)))) and candidate "
      out += "(\(TextEscaping.html(label(c.candidate)))) are the large marks."
    }
    out += "</p>\n<div class=\"grid\">\n"
    for (n, charts) in drawn.enumerated() { out += figure(metricAt: n, charts) }
    return out + "</div>\n</section>\n"
  }

  private func figure(metricAt n: Int, _ charts: [ReportPage.Chart]) -> String {
    let metric = charts[0].spec.metric
    let id = "versions-\(n)"
    var out = "<figure class=\"chart version-view\" id=\"\(id)\" data-metric=\"\(TextEscaping.html(metric.rawValue))\">"
    out += "<figcaption><h3>\(TextEscaping.html(metric.metric.title)) "
    out += "<span class=\"unit\">\(TextEscaping.html(charts[0].unit.symbol))</span></h3>"
    if charts.count > 1 {
      out += "<span class=\"choice statistics\" role=\"group\" aria-label=\"Statistic\">"
      for (k, chart) in charts.enumerated() {
        out +=
          "<button type=\"button\" data-choice=\"\(k)\" aria-pressed=\"\(k == 0)\">\(chart.spec.statistic)</button>"
      }
      out += "</span>"
    }
    if !groups.isEmpty {
      out +=
        "<span class=\"choice groups\" role=\"group\" aria-label=\"\(TextEscaping.html(page.grouping?.description ?? "Group"))\">"
      out += "<button type=\"button\" data-group=\"\" aria-pressed=\"true\">All</button>"
      for group in groups {
        out += "<button type=\"button\" data-group=\"\(TextEscaping.html(group))\" aria-pressed=\"false\">"
        out += "\(TextEscaping.html(group))</button>"
      }
      out += "</span>"
    }
    out += saveButtons(csv: false, chart: metric.metric.title) + "</figcaption>\n"
    for (k, chart) in charts.enumerated() {
      out += "<div class=\"statistic\" data-statistic=\"\(chart.spec.statistic)\"\(k == 0 ? "" : " hidden")>"
      // One headline per set of marks: the group's own values while its marks are shown.
      out += "<p class=\"headline\" data-group=\"\">\(headline(chart, group: nil))</p>"
      for group in groups {
        out += "<p class=\"headline\" data-group=\"\(TextEscaping.html(group))\" hidden>"
        out += "\(headline(chart, group: group))</p>"
      }
      out += svg(chart, id: "\(id)-\(k)")
      out += table(chart)
      out += "</div>\n"
    }
    return out + "</figure>\n"
  }

  /// The gate's candidate against its baseline (else the latest version against the one before): the
  /// whole versions', or one group's, named.
  private func headline(_ chart: ReportPage.Chart, group: String?) -> String {
    let values = chart.headline.compactMap { whole -> (version: String, value: Double)? in
      guard let group else { return whole }
      return chart.versions.first { $0.version == whole.version && $0.group == group }.map { (whole.version, $0.value) }
    }
    let prefix = group.map { "\(TextEscaping.html($0)): " } ?? ""
    guard let first = values.first else { return prefix.isEmpty ? "" : prefix + "no payloads in these versions" }
    var out = prefix + "\(TextEscaping.html(label(first.version))) <b>\(value(first.value, chart.unit))</b>"
    guard values.count > 1 else { return out }
    let other = values[1]
    out += " against \(TextEscaping.html(label(other.version))) \(value(other.value, chart.unit))"
    if other.value != 0 {
      out += String(format: " (%+.1f%%)", (first.value - other.value) / abs(other.value) * 100)
    }
    return out
  }

  /// The gate's role of `version` (`baseline`, `candidate`); nil for any other version or without a gate.
  func gateRole(_ version: String) -> String? {
    guard let c = page.comparison else { return nil }
    return version == c.candidate ? "candidate" : version == c.baseline ? "baseline" : nil
  }

  /// A version's column in a per-version chart: its label, its colour, its role in the gate, and
  /// whether it is in view.
  func versionColumn(_ version: String) -> VersionChart.Column {
    let i = versionIndex[version]
    return VersionChart.Column(
      label: label(version), color: i.map { styles[$0].color } ?? SeriesStyle(version: version).color,
      role: gateRole(version), emphasised: i.map { emphasised.contains($0) } ?? true)
  }

  private func svg(_ chart: ReportPage.Chart, id: String) -> String {
    let whole = chart.versions.filter { $0.group == nil }
    let columnOf = Dictionary(uniqueKeysWithValues: whole.enumerated().map { ($1.version, $0) })
    let columns = whole.map { versionColumn($0.version) }
    func marks(_ group: String?) -> [VersionChart.Mark] {
      chart.versions.filter { $0.group == group }.compactMap { v in
        columnOf[v.version].map {
          VersionChart.Mark(column: $0, value: v.value, bounds: v.bounds, payloads: v.payloads)
        }
      }
    }
    let sets = [(name: "", marks: marks(nil))] + groups.map { (name: $0, marks: marks($0)) }
    let apple = page.organizerRows(for: chart.spec).compactMap { row in
      columnOf[row.version].map { VersionChart.AppleMark(column: $0, value: row.apple) }
    }
    let goals =
      apple.isEmpty
      ? []
      : (page.organizer?.goals[chart.spec.metric] ?? []).map {
        ChartData.Goal(name: $0.name, lower: $0.lower, upper: $0.upper)
      }
    let description =
      "\(chart.spec.title) of each version: "
      + whole.map { "\(label($0.version)) \(NumberFormatting.text($0.value))" }.joined(separator: ", ")
    return VersionChart.svg(
      id: id, title: chart.spec.title, description: description, unit: chart.unit.symbol, columns: columns,
      sets: sets, apple: apple, goals: goals,
      fromZero: Self.axisFromZero(chart.unit))
  }

  private func table(_ chart: ReportPage.Chart) -> String {
    let bracketed = chart.versions.contains { $0.bounds != nil }
    let apple = Dictionary(
      page.organizerRows(for: chart.spec).map { ($0.version, $0.apple) }, uniquingKeysWith: { a, _ in a })
    var out = "<details class=\"data\"><summary>Data</summary><table><caption>\(TextEscaping.html(chart.spec.title))"
    out += " of each version</caption><thead><tr><th scope=\"col\">Version</th>"
    if !groups.isEmpty { out += "<th scope=\"col\">\(TextEscaping.html(page.grouping?.description ?? "Group"))</th>" }
    out += "<th scope=\"col\" class=\"num\">Value</th>"
    if bracketed { out += "<th scope=\"col\" class=\"num\">Bracket</th>" }
    out += "<th scope=\"col\" class=\"num\">Payloads</th>"
    if !apple.isEmpty { out += "<th scope=\"col\" class=\"num\">Apple</th>" }
    out += "</tr></thead><tbody>\n"
    for v in chart.versions {
      out +=
        "<tr\(v.group == nil ? "" : " class=\"group-row\"")><th scope=\"row\">\(TextEscaping.html(label(v.version)))</th>"
      if !groups.isEmpty { out += "<td>\(TextEscaping.html(v.group ?? "all"))</td>" }
      out += "<td class=\"num\">\(NumberFormatting.text(v.value))</td>"
      if bracketed {
        out += "<td class=\"num\">"
        if let b = v.bounds { out += "\(NumberFormatting.text(b.lowerBound))–\(NumberFormatting.text(b.upperBound))" }
        out += "</td>"
      }
      out += "<td class=\"num\">\(v.payloads)</td>"
      if !apple.isEmpty {
        out +=
          "<td class=\"num\">\(v.group == nil ? apple[v.version].map { NumberFormatting.text($0) } ?? "–" : "")</td>"
      }
      out += "</tr>\n"
    }
    return out + "</tbody></table></details>\n"
  }
}
