extension HTMLReportRenderer.Context {
  /// The changes `watch` found: the summary, a row per change (its metric linked to the chart it is
  /// marked on), and how they were found.
  func changes(_ report: WatchReport) -> String {
    var out = "<section id=\"changes\">\n<h2>Changes</h2>\n"
    out += "<p class=\"headline\">\(TextEscaping.html(WatchRenderer.summary(report)))</p>\n"
    if !report.changes.isEmpty {
      out += "<table class=\"changes\">\n<thead><tr>"
      for (n, title) in WatchRenderer.header.enumerated() {
        out += "<th scope=\"col\"\([5, 6, 7, 8].contains(n) ? " class=\"num\"" : "")>\(TextEscaping.html(title))</th>"
      }
      out += "</tr></thead>\n<tbody>\n"
      for change in report.changes {
        let cells = WatchRenderer.cells(change).map(TextEscaping.html)
        let kind = change.partOf != nil ? "part" : change.isRegression ? "regression" : "improvement"
        out += "<tr class=\"\(kind)\">"
        for (n, cell) in cells.enumerated() {
          if n == 1, let id = chartOfSpec[ReportChartSpec(metric: change.metric, statistic: change.statistic)] {
            out += "<td><a href=\"#\(id)\">\(cell)</a></td>"
          } else {
            out += "<td\([5, 6, 7, 8].contains(n) ? " class=\"num\"" : "")>\(cell)</td>"
          }
        }
        out += "</tr>\n"
      }
      out += "</tbody>\n</table>\n"
    }
    out += "<p class=\"note\">\(TextEscaping.html(WatchRenderer.method(report.options))) Each change is marked on "
    out += "its metric&apos;s trend chart on its first day (a version&apos;s part of a whole-app change is not).</p>\n"
    for note in report.omissions { out += "<p class=\"note\">\(TextEscaping.html(note))</p>\n" }
    return out + "</section>\n"
  }

  /// The marks of the changes in a chart's metric and statistic (a version's or group's part of a
  /// whole-app change is the whole-app one's).
  func changeMarks(_ spec: ReportChartSpec) -> [ChartData.ChangeMark] {
    (page.watch?.changes ?? []).filter {
      $0.partOf == nil && ReportChartSpec(metric: $0.metric, statistic: $0.statistic) == spec
    }.map { c in
      var version: Int?
      if case .version(let v) = c.scope { version = versionIndex[v] }
      let words =
        "\(c.scope.description), \(c.direction) from \(c.date): \(WatchRenderer.amount(c.before.value, c.metric)) → "
        + "\(WatchRenderer.amount(c.after.value, c.metric)) (\(WatchRenderer.signedPercent(c.change))); "
        + "likely cause: \(c.cause.description)"
      return ChartData.ChangeMark(
        day: c.date.daysSinceEpoch, version: version, regression: c.isRegression, rising: c.change > 0,
        label: (c.scope == .app ? "" : "\(c.scope.description) ") + WatchRenderer.signedPercent(c.change),
        title: words)
    }
  }
}
