/// The page's stability section: crash-free device-days and termination rates per version, with their
/// 95% intervals, judged by the page's bands.
extension HTMLReportRenderer.Context {
  func stability() -> String {
    let rows = page.stability
    guard !rows.isEmpty else { return "" }
    let bands = Dictionary(page.stabilityBands.map { ($0.metric, $0) }) { _, last in last }
    var out = "<section id=\"stability\">\n<h2>Stability</h2>\n"
    if let lead = leadingRow(rows), let e = lead.crashFreeDeviceDays ?? lead.terminationRate {
      let metric: MetricID = lead.crashFreeDeviceDays != nil ? .crashFreeDeviceDays : .terminationRate
      out += "<p class=\"headline\">\(TextEscaping.html(label(lead.version))): \(headline(metric, e, bands[metric]))"
      if metric == .crashFreeDeviceDays, let t = lead.terminationRate {
        out += "; \(headline(.terminationRate, t, bands[.terminationRate]))"
      }
      out += "</p>\n"
    }
    out += "<table class=\"stability\">\n<thead><tr><th>Version</th><th>Device-days</th>"
    out += "<th>Crash-free device-days</th><th>Terminations per 1000 h</th><th>Background per 1000 h</th>"
    out += "<th>Kinds, per 1000 h</th></tr></thead>\n<tbody>\n"
    for row in rows {
      var version = TextEscaping.html(label(row.version))
      if let role = gateRole(row.version) { version += " <span class=\"role\">\(role)</span>" }
      out += "<tr data-version=\"\(TextEscaping.html(row.version))\"><td>\(version)</td><td>\(row.payloads)</td>"
      out += cell(.crashFreeDeviceDays, row.crashFreeDeviceDays, bands[.crashFreeDeviceDays])
      out += cell(.terminationRate, row.terminationRate, bands[.terminationRate])
      out += cell(.backgroundTerminationRate, row.backgroundTerminationRate, bands[.backgroundTerminationRate])
      let kinds = row.kinds.map { "\(TextEscaping.html($0.kind.words)) \(NumberFormatting.text($0.estimate.value))" }
      out += "<td class=\"kinds\">\(kinds.isEmpty ? "none" : kinds.joined(separator: ", "))</td></tr>\n"
    }
    out += "</tbody>\n</table>\n<p class=\"note\">A device-day is one metric payload. Crash-free device-days: the "
    out += "share without a crash-class foreground termination (abnormal, bad access, illegal instruction, watchdog, "
    out += "memory or CPU limit), with Wilson&apos;s interval. Termination rates: Garwood&apos;s exact interval, "
    out += "widened by the terminations&apos; dispersion over device-days (a crash loop is one device-day with "
    out += "many). "
    if bands.isEmpty {
      out += "No band is set (<code>--stability-band metric=warning:bad</code>)."
    } else {
      out += "Bands (<code>--stability-band metric=warning:bad</code>): "
      out += page.stabilityBands.map(describe).joined(separator: "; ") + "."
    }
    return out + "</p>\n</section>\n"
  }

  /// The row the headline names: the gate's candidate, else the latest version.
  private func leadingRow(_ rows: [ReportPage.Stability]) -> ReportPage.Stability? {
    if let c = page.comparison, let row = rows.first(where: { $0.version == c.candidate }) { return row }
    return rows.last
  }

  private func formatted(_ metric: MetricID, _ v: Double) -> String {
    metric == .crashFreeDeviceDays ? String(format: "%.2f%%", v) : NumberFormatting.text(v)
  }

  private func headline(_ metric: MetricID, _ e: RateEstimate, _ band: StabilityBand?) -> String {
    var out = "\(TextEscaping.html(metric.metric.title.lowercased())) <b>\(formatted(metric, e.value))</b>"
    if metric != .crashFreeDeviceDays { out += " per 1000 h" }
    if let band { out += " <span class=\"standing \(band.standing(e.value))\">\(band.standing(e.value))</span>" }
    return out
  }

  private func cell(_ metric: MetricID, _ e: RateEstimate?, _ band: StabilityBand?) -> String {
    guard let e else { return "<td class=\"none\">no data</td>" }
    let standing = band.map { $0.standing(e.value) }
    var out = "<td class=\"rate\(standing.map { " \($0)" } ?? "")\""
    if let standing { out += " title=\"\(standing)\"" }
    out += "><b>\(formatted(metric, e.value))</b> "
    out += "<span class=\"interval\">[\(formatted(metric, e.interval.lowerBound)), "
    out += "\(formatted(metric, e.interval.upperBound))]</span><br><span class=\"count\">"
    if metric == .crashFreeDeviceDays {
      out += "\(Int(e.events.rounded())) of \(Int(e.exposure.rounded())) with a crash"
    } else {
      out += "\(Int(e.events.rounded())) over \(NumberFormatting.text(e.exposure)) h"
    }
    return out + "</span></td>"
  }

  private func describe(_ band: StabilityBand) -> String {
    let metric = band.metric
    let worse = metric.metric.polarity == .higherIsBetter ? "below" : "above"
    let unit = metric == .crashFreeDeviceDays ? "" : " per 1000 h"
    return "\(TextEscaping.html(metric.metric.title.lowercased())) needs attention \(worse) "
      + "\(formatted(metric, band.warning))\(unit), bad \(worse) \(formatted(metric, band.bad))\(unit)"
  }
}
