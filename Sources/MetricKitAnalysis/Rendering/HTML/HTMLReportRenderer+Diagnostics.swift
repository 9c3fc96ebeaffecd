import Foundation

/// The page's diagnostics: counts and rates per version, hang durations, the top signatures with
/// their stacks and what is new, and a flame graph of the collapsed stacks.
extension HTMLReportRenderer.Context {
  /// The version whose signatures and stacks are shown first: the gate's candidate, else the latest.
  private var focusVersion: String? { page.comparison?.candidate ?? page.diagnostics.last?.version }

  /// Each kind's rate per 1,000 device-days across the versions with metric payloads, as the per-version
  /// view draws values: one figure, a kind at a time.
  private func rateChart(_ kinds: [DiagnosticKind]) -> String {
    let rated = page.diagnostics.filter { (page.exposure[$0.version]?.payloads ?? 0) > 0 }
    guard rated.count > 1, !kinds.isEmpty else { return "" }
    let columns = rated.map { versionColumn($0.version) }
    var out = "<figure class=\"chart version-view\" id=\"diagnostic-rates\" data-metric=\"diagnostics\">"
    out += "<figcaption><h3>Diagnostics per 1,000 device-days</h3>"
    if kinds.count > 1 {
      out += "<span class=\"choice statistics\" role=\"group\" aria-label=\"Kind\">"
      for (k, kind) in kinds.enumerated() {
        out += "<button type=\"button\" data-choice=\"\(k)\" aria-pressed=\"\(k == 0)\">\(kind.rawValue)</button>"
      }
      out += "</span>"
    }
    out += saveButtons(csv: false, chart: "Diagnostics per 1,000 device-days") + "</figcaption>\n"
    for (k, kind) in kinds.enumerated() {
      let marks = rated.enumerated().map { n, v in
        let days = page.exposure[v.version]?.payloads ?? 1
        return VersionChart.Mark(
          column: n, value: Double(v.counts[kind] ?? 0) / Double(days) * 1_000, bounds: nil, payloads: days)
      }
      let description =
        "\(kind.rawValue) per 1,000 device-days: "
        + zip(rated, marks).map { "\(label($0.version)) \(NumberFormatting.text($1.value))" }.joined(separator: ", ")
      out += "<div class=\"statistic\" data-statistic=\"\(kind.rawValue)\"\(k == 0 ? "" : " hidden")>"
      out += VersionChart.svg(
        id: "diagnostic-rates-\(k)", title: "\(kind.rawValue) per 1,000 device-days", description: description,
        unit: "count", columns: columns, sets: [(name: "", marks: marks)], apple: [], goals: [], fromZero: true)
      out += "</div>\n"
    }
    return out + "</figure>\n"
  }

  func diagnostics() -> String {
    var out = "<section id=\"diagnostics\">\n<h2>Diagnostics</h2>\n"
    let kinds = DiagnosticKind.allCases.filter { k in page.diagnostics.contains { ($0.counts[k] ?? 0) > 0 } }
    out += "<p class=\"note\">Each kind counted, then per 1,000 device-days (a version&apos;s metric payloads: one "
    out += "per device and day) and per 100 hours in the foreground, where the payloads report it.</p>\n"
    out += "<table class=\"diagnostics\"><caption>Diagnostics of each version</caption><thead><tr>"
    out += "<th scope=\"col\">Version</th><th scope=\"col\" class=\"num\">Device-days</th>"
    out += "<th scope=\"col\" class=\"num\">Foreground hours</th>"
    for k in kinds { out += "<th scope=\"col\" class=\"num\">\(k.rawValue)</th>" }
    out += "<th scope=\"col\" class=\"num\">Hang p50 / p90</th></tr></thead><tbody>\n"
    for v in page.diagnostics {
      let exposure = page.exposure[v.version]
      out += "<tr><th scope=\"row\">\(TextEscaping.html(label(v.version)))</th>"
      out += "<td class=\"num\">\(exposure.map { String($0.payloads) } ?? "–")</td>"
      out += "<td class=\"num\">\(exposure?.foregroundHours.map { NumberFormatting.text($0) } ?? "–")</td>"
      for k in kinds {
        let n = v.counts[k] ?? 0
        out += "<td class=\"num\">\(n)"
        if let days = exposure?.payloads, days > 0 {
          out += "<small> \(NumberFormatting.text(Double(n) / Double(days) * 1_000))/1k days</small>"
        }
        if let hours = exposure?.foregroundHours, hours > 0 {
          out += "<small> \(NumberFormatting.text(Double(n) / hours * 100))/100 h</small>"
        }
        out += "</td>"
      }
      out += "<td class=\"num\">"
      if let hangs = try? v.hangDurations.summary([Percentile(50)!, Percentile(90)!]) {
        out += "\(NumberFormatting.text(hangs.percentiles[0])) / \(NumberFormatting.text(hangs.percentiles[1])) s"
      } else {
        out += "–"
      }
      out += "</td></tr>\n"
    }
    out += "</tbody></table>\n"
    out += rateChart(kinds)
    // A signature is new in a version when no earlier version of the page has it.
    var seen: Set<String> = []
    var newIn: [String: Set<String>] = [:]
    for v in page.diagnostics {
      newIn[v.version] = Set(v.groups.keys).subtracting(seen)
      seen.formUnion(v.groups.keys)
    }
    let focus = focusVersion
    for v in page.diagnostics.reversed() where !v.groups.isEmpty {
      let open = v.version == focus ? " open" : ""
      let fresh = newIn[v.version] ?? []
      let isFirst = v.version == page.diagnostics.first?.version
      out += "<details class=\"signatures\"\(open)><summary>\(TextEscaping.html(label(v.version))): top signatures"
      if !isFirst && !fresh.isEmpty { out += " (\(fresh.count) new)" }
      out += "</summary><table><caption>The most frequent signatures of \(TextEscaping.html(label(v.version)))"
      out +=
        "</caption><thead><tr><th scope=\"col\" class=\"num\">Count</th><th scope=\"col\" class=\"num\">Per 1k days</th>"
      out += "<th scope=\"col\">Kind</th><th scope=\"col\">Signature</th><th scope=\"col\">Culprit frame</th>"
      out += "</tr></thead><tbody>\n"
      let days = page.exposure[v.version]?.payloads ?? 0
      for g in DiagnosticsRenderer.sortedGroups(v).prefix(10) {
        out += "<tr><td class=\"num\">\(g.count)</td><td class=\"num\">"
        out += days > 0 ? NumberFormatting.text(Double(g.count) / Double(days) * 1_000) : "–"
        out += "</td><td>\(g.kind.rawValue)</td><td>"
        if !isFirst && fresh.contains(g.signature.identifier) {
          out += "<span class=\"badge new\" title=\"In no earlier version of this page\">new</span> "
        }
        out += "\(TextEscaping.html(g.signature.text))"
        let stack = g.stack.isEmpty ? g.frames : g.stack
        if !stack.isEmpty {
          out += "<details class=\"stack\"><summary>Stack (\(stack.count) frames, innermost first)</summary><ol>"
          for frame in stack { out += "<li><code>\(TextEscaping.html(frame.text))</code></li>" }
          out += "</ol></details>"
        }
        out += "</td><td>\(TextEscaping.html(g.culprit?.text ?? "–"))</td></tr>\n"
      }
      out += "</tbody></table></details>\n"
    }
    if let focus, let v = page.diagnostics.first(where: { $0.version == focus }),
      let flame = FlameGraph.svg(
        v.foldedStacks, id: "flame", title: "Flame graph of the diagnostics of \(label(focus))")
    {
      out += "<figure class=\"flame-graph\" id=\"flame-graph\"><figcaption><h3>Where \(TextEscaping.html(label(focus)))"
      out += "&apos;s diagnostics were: every call stack, outermost frame at the top</h3>"
      out += "<p class=\"note\">Each frame as wide as its samples and its callees&apos;. Click a frame to zoom "
      out += "into it, the top row to zoom out. The same stacks: <code>metrics-report diagnostics --format folded"
      out += "</code>.</p></figcaption><div class=\"flame-area\">\(flame)</div></figure>\n"
    }
    return out + "</section>\n"
  }
}
