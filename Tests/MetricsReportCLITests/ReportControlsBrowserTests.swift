import Foundation
import PayloadSynthesis
import TestSupport
import Testing

/// The report page's controls beyond drag and presets, in headless Chromium with real input events:
/// groups in the legend, the log value axis, the custom range, keys and the wheel, saving a chart.
extension ReportBrowserTests {
  /// The page's embedded data, parsed.
  static func pageData(_ session: ChromiumSession) throws -> [String: Any] {
    let text = try session.evaluate("document.getElementById('report-data').textContent") as? String ?? "{}"
    return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
  }

  /// The view's `[x0, x1]` as the script holds it.
  static func view(_ session: ChromiumSession) throws -> [Double] {
    try session.evaluate("[window.metricsReport.view.x0, window.metricsReport.view.x1]") as? [Double] ?? []
  }

  @Test func groupsHideAndShowAloneAndTheGateFailsOnTheRegressedGroup() throws {
    guard let executable = Self.browser() else { return }
    // 4.1.0's launches are 30% slower on the checkout screen alone.
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("reports")
      try DeviceDayTwin.write(DeviceDayTwin.rollout(daysPerVersion: 120, seed: 1), mix: .mixed, to: dump)
      let page = try Self.page(
        in: dir, [dump.path, "--baseline", "4.0.0", "--candidate", "4.1.0", "--by", "state:com.example.shop.screen"])
      let session = try ChromiumSession(executable: executable)
      defer { session.close() }
      try session.open(page)
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")

      // One legend entry per group; within a version, every group has a style of its own.
      let data = try Self.pageData(session)
      let groups = data["groups"] as? [String] ?? []
      #expect(groups.contains("checkout") && groups.count >= 3, "\(groups)")
      #expect(try session.evaluate("document.querySelectorAll('.legend .group').length") as? Int == groups.count)
      let charts = data["charts"] as? [[String: Any]] ?? []
      let launch = try #require(charts.first { $0["id"] as? String == "chart-1" })
      let series = launch["series"] as? [[String: Any]] ?? []
      for version in Set(series.compactMap { $0["v"] as? Int }) {
        let styles = series.filter { $0["v"] as? Int == version }.map { "\($0["color"] ?? "")\($0["dash"] ?? "")" }
        #expect(Set(styles).count == styles.count, "version \(version): \(styles)")
      }
      // Across versions, lines never look alike: each version in view has a colour of its own (the
      // groups take the dashes), and the others are drawn muted.
      let colours = Dictionary(grouping: series.filter { $0["older"] == nil }, by: { $0["v"] as? Int ?? -1 })
        .mapValues { Set($0.map { $0["color"] as? String ?? "" }) }
      #expect(colours.values.allSatisfy { $0.count == 1 } && Set(colours.values.flatMap { $0 }).count == colours.count)
      let checkout = try #require(groups.firstIndex(of: "checkout"))

      // A click hides the group in every version and every chart, and the fragment says so.
      let drawnOfGroup = { (group: Int) in
        """
        JSON.parse(document.getElementById('report-data').textContent).charts.filter(c => c.kind === 'line')
          .flatMap(c => c.series.map((s, i) => [s.g, document.querySelector('#' + c.id + ' path.line[data-series="' + i + '"]')]))
          .filter(e => e[0] === \(group) && e[1]).map(e => e[1].getAttribute('d') !== '')
        """
      }
      #expect((try session.evaluate(drawnOfGroup(checkout)) as? [Bool] ?? []).contains(true))
      _ = try session.evaluate("document.querySelector('.legend .group[data-group-index=\"\(checkout)\"]').click()")
      try session.wait(for: "!(\(drawnOfGroup(checkout))).includes(true)")
      #expect(try session.evaluate("location.hash") as? String == "#hideGroup=checkout")
      #expect((try session.evaluate(drawnOfGroup((checkout + 1) % groups.count)) as? [Bool] ?? []).contains(true))

      // Reopened from the fragment, the group stays hidden.
      try session.open(URL(string: "about:blank")!, waitForReport: false)
      try session.open(URL(string: page.absoluteString + "#hideGroup=checkout")!)
      #expect(
        try session.evaluate(
          "document.querySelector('.legend .group[data-group-index=\"\(checkout)\"]').getAttribute('aria-pressed')")
          as? String == "false")
      #expect(!(try session.evaluate(drawnOfGroup(checkout)) as? [Bool] ?? [true]).contains(true))

      // Alt-click: the checkout screen alone, in every version; again: every group.
      let altClick =
        "document.querySelector('.legend .group[data-group-index=\"\(checkout)\"]').dispatchEvent(new MouseEvent('click', {altKey: true, bubbles: true})); true"
      _ = try session.evaluate(altClick)
      let pressed =
        "[...document.querySelectorAll('.legend .group[aria-pressed=true]')].map(b => b.dataset.groupIndex).join()"
      #expect(try session.evaluate(pressed) as? String == "\(checkout)")
      try session.wait(for: "(\(drawnOfGroup(checkout))).every(d => d)")
      for other in groups.indices where other != checkout {
        #expect(!(try session.evaluate(drawnOfGroup(other)) as? [Bool] ?? [true]).contains(true), "group \(other)")
      }
      _ = try session.evaluate(altClick)
      #expect(
        try session.evaluate("document.querySelectorAll('.legend .group[aria-pressed=true]').length") as? Int
          == groups.count)

      // The gate is compare's with the same options: it fails on the checkout group, which links to its chart.
      #expect(try session.evaluate("document.querySelector('#gate .gate-verdict b').textContent") as? String == "FAIL")
      let failing =
        try session.evaluate(
          "[...document.querySelectorAll('table.gate tr.fail.group-row')].map(tr => tr.title + ' -> ' + tr.querySelector('a').getAttribute('href'))"
        ) as? [String] ?? []
      #expect(
        failing.contains { $0.contains("p90 [state:com.example.shop.screen checkout]") && $0.hasSuffix("-> #chart-1") },
        "\(failing)")
      // Following that row's link shows the checkout group alone, in the legend and on the chart, with
      // the chart's top below the sticky header.
      _ = try session.evaluate(
        "[...document.querySelectorAll('table.gate tr.fail.group-row')].find(tr => tr.title.includes('p90') && tr.title.endsWith('checkout]')).querySelector('a').click(); true"
      )
      try session.wait(for: "location.hash.includes('hideGroup=')")
      #expect(try session.evaluate(pressed) as? String == "\(checkout)")
      let clear =
        try session.evaluate(
          "document.querySelector('#chart-1').getBoundingClientRect().top >= document.querySelector('header.top').getBoundingClientRect().bottom"
        ) as? Bool
      #expect(clear == true)
      // The per-version view's group button shows the group's marks under the group's own headline.
      let headlines =
        "[...document.querySelectorAll('#versions-0 .statistic:not([hidden]) p.headline')].filter(p => !p.hidden).map(p => p.textContent)"
      // (The gate row's link above showed the checkout group there too: "All" first.)
      _ = try session.evaluate(
        "document.querySelector('#versions-0 .choice.groups button[data-group=\"\"]').click(); true")
      let whole = try session.evaluate(headlines) as? [String] ?? []
      #expect(whole.count == 1 && whole.first?.hasPrefix("4.1.0 ") == true, "\(whole)")
      _ = try session.evaluate(
        "document.querySelector('#versions-0 .choice.groups button[data-group=\"checkout\"]').click(); true")
      let shown = try session.evaluate(headlines) as? [String] ?? []
      #expect(shown.count == 1 && shown.first?.hasPrefix("checkout: 4.1.0 ") == true, "\(shown)")
      #expect(shown != whole)
      let marks =
        try session.evaluate(
          "[...document.querySelectorAll('#versions-0 .statistic:not([hidden]) g.marks')].filter(g => g.getAttribute('visibility') === 'visible').map(g => g.dataset.group)"
        ) as? [String] ?? []
      #expect(marks == ["checkout"], "\(marks)")
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
      try session.screenshot().write(to: Self.artifacts.appendingPathComponent("report-groups.png"))
    }
  }

  /// Runs `body` on the samples' page open in Chromium, with the folder it was written to; skipped,
  /// with a notice, without Chromium.
  static func withSamplesPage(_ body: (ChromiumSession, URL) throws -> Void) throws {
    guard let executable = browser() else { return }
    try withTemporaryDirectory { dir in
      let page = try page(in: dir)
      let session = try ChromiumSession(executable: executable)
      defer { session.close() }
      try session.open(page)
      try body(session, dir)
    }
  }

  @Test func logScaleRangeKeysAndWheelMoveTheSharedView() throws {
    try Self.withSamplesPage { session, _ in try Self.logScaleRangeKeysAndWheel(session) }
  }

  static func logScaleRangeKeysAndWheel(_ session: ChromiumSession) throws {
    let data = try Self.pageData(session)
    let (x0, x1) = (data["x0"] as? Double ?? .nan, data["x1"] as? Double ?? .nan)
    let paths = "[...document.querySelectorAll('svg.plot path')].map(p => p.getAttribute('d')).join('|')"
    let staticPaths = try session.evaluate(paths) as? String

    // Log scale: durations and sizes only; ticks of 1, 2 and 5 times a power of ten; each point where
    // the axis' own ticks put it.
    _ = try session.evaluate("document.querySelector('.log-scale').click()")
    try session.wait(for: "document.querySelector('#chart-0').dataset.scale === 'log'")
    let scales =
      try session.evaluate("[...document.querySelectorAll('figure[data-x0]')].map(f => f.id + '=' + f.dataset.scale)")
      as? [String] ?? []
    #expect(scales.contains("chart-adoption=linear") && scales.contains("chart-7=linear"), "\(scales)")
    #expect(
      try session.evaluate("document.querySelector('.log-scale').getAttribute('aria-pressed')") as? String == "true")
    #expect(try session.evaluate("location.hash") as? String == "#scale=log")
    let ticks =
      try session.evaluate(
        "JSON.stringify([...document.querySelectorAll('#chart-0 .axis.y text')].map(t => [t.textContent, Number(t.getAttribute('y'))]))"
      ) as? String ?? "[]"
    let axis = (try JSONSerialization.jsonObject(with: Data(ticks.utf8)) as? [[Any]] ?? []).map {
      (Self.tickValue($0[0] as? String ?? ""), $0[1] as? Double ?? .nan)
    }
    // At least four ticks: 1, 2 and 5 times powers of ten, or every whole multiple on a narrow range.
    #expect(axis.count >= 4, "\(axis)")
    let mantissas = axis.map { $0.0 / pow(10, floor(log10($0.0) + 1e-9)) }
    for m in mantissas { #expect((1...9).contains { abs(m - Double($0)) < 1e-9 }, "tick mantissa \(m)") }
    if !mantissas.allSatisfy({ m in [1, 2, 5].contains { abs(m - Double($0)) < 1e-9 } }) {
      #expect(axis.count <= 9 * 2)
    }
    let (a, b) = (axis.first!, axis.last!)
    let point =
      try session.evaluate(
        """
        (() => { const s = JSON.parse(document.getElementById('report-data').textContent).charts
          .find(c => c.id === 'chart-0').series[0];
          const d = document.querySelector('#chart-0 path.line[data-series="0"]').getAttribute('d');
          return [s.y[0], Number(d.slice(1).split(/[ L]/)[1])]; })()
        """) as? [Double] ?? []
    let expectedY = a.1 + (log(point[0]) - log(a.0)) / (log(b.0) - log(a.0)) * (b.1 - a.1)
    #expect(point.count == 2 && abs(point[1] - expectedY) < 0.1, "\(point) against \(expectedY)")
    // Off again: exactly the static drawing.
    _ = try session.evaluate("document.querySelector('.log-scale').click()")
    try session.wait(for: "document.querySelector('#chart-0').dataset.scale === 'linear'")
    try session.wait(for: "\(paths) === \(Self.jsString(staticPaths ?? ""))")

    // A custom range: every chart shows those days, and the inputs follow zooms.
    let from = x0 + 14
    let to = x1 - 7
    _ = try session.evaluate(
      """
      (() => { const r = document.querySelector('.range');
        r.querySelector('input[name=from]').value = '\(Self.day(from))';
        r.querySelector('input[name=to]').value = '\(Self.day(to))';
        r.dispatchEvent(new Event('change', {bubbles: true})); return true; })()
      """)
    try session.wait(for: "document.querySelector('#chart-0').dataset.x0 === '\(Int(from))'")
    #expect(try Self.ranges(session).allSatisfy { $0[1] == "\(Int(from))" && $0[2] == "\(Int(to))" })

    // Keys on a focused chart: End puts the crosshair on the view's last day, ← one interval (a week)
    // back; = zooms in two-fold around it, - out again, 0 shows everything, Escape hides the crosshair.
    _ = try session.evaluate("document.querySelector('#chart-0 svg.plot').focus(); true")
    try session.press("End", code: 35)
    #expect(try session.evaluate("window.metricsReport.view.cursor") as? Double == to)
    try session.press("ArrowLeft", code: 37)
    #expect(try session.evaluate("window.metricsReport.view.cursor") as? Double == to - 7)
    // The focused chart's readout is spoken: its words are in a live region.
    try session.wait(for: "document.querySelector('#chart-0 .readout-text').textContent.startsWith('week of ')")
    #expect(
      try session.evaluate("document.querySelector('#chart-0 .readout-text').getAttribute('aria-live')") as? String
        == "polite")
    try session.press("=", code: 187, text: "=")
    try session.wait(for: "window.metricsReport.view.x1 - window.metricsReport.view.x0 < \(to - from - 1)")
    let zoomed = try Self.view(session)
    let cursor = to - 7
    #expect(abs((zoomed[1] - zoomed[0]) - (to - from) / 2) < 1e-6, "\(zoomed)")
    // The crosshair's day keeps its place in the view.
    #expect(abs((cursor - zoomed[0]) / (zoomed[1] - zoomed[0]) - (cursor - from) / (to - from)) < 1e-6)
    try session.press("-", code: 189, text: "-")
    try session.wait(for: "window.metricsReport.view.x1 - window.metricsReport.view.x0 > \(to - from - 1)")
    try session.press("0", code: 48, text: "0")
    try session.wait(for: "document.querySelector('#chart-0').dataset.x0 === '\(Int(x0))'")
    try session.press("Escape", code: 27)
    #expect(
      try session.evaluate("document.querySelector('#chart-0 .crosshair').hidden") as? Bool == true)

    // Ctrl-wheel zooms around the pointer; shift-wheel pans; a plain wheel leaves the view alone.
    let box = try Self.overlay(session, chart: "chart-1")
    let px = box.left + box.width * 0.25
    let py = box.top + box.height / 2
    let under = x0 + 0.25 * (x1 - x0)
    try session.wheel(x: px, y: py, deltaY: -300, modifiers: 2)
    try session.wait(for: "window.metricsReport.view.x0 !== \(x0)")
    let wheeled = try Self.view(session)
    #expect(abs((wheeled[1] - wheeled[0]) - (x1 - x0) * exp(-0.6)) < 1e-6, "\(wheeled)")
    #expect(abs(under - (wheeled[0] + 0.25 * (wheeled[1] - wheeled[0]))) < 0.5, "the day under the pointer moved")
    try session.wheel(x: px, y: py, deltaX: 0, deltaY: 200, modifiers: 8)
    try session.wait(for: "window.metricsReport.view.x0 !== \(wheeled[0])")
    let panned = try Self.view(session)
    #expect(panned[0] > wheeled[0] && abs((panned[1] - panned[0]) - (wheeled[1] - wheeled[0])) < 1e-6, "\(panned)")
    try session.wheel(x: px, y: py, deltaY: 100)
    #expect(try Self.view(session) == panned)
    #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
  }

  @Test func chartsSaveAsSVGPNGAndCSVAndKeepTheirLabelsInside() throws {
    try Self.withSamplesPage { session, dir in try Self.chartsSave(session, into: dir) }
  }

  static func chartsSave(_ session: ChromiumSession, into dir: URL) throws {
    // No axis label reaches past its chart, on time charts and distributions alike.
    let outside = """
      [...document.querySelectorAll('svg.plot')].flatMap(svg => { const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('.axis.x text, g.axis text')].filter(t => { const r = t.getBoundingClientRect();
          return r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5); }).map(t => t.textContent); })
      """
    #expect(try session.evaluate(outside) as? [String] == [])
    #expect(
      try session.evaluate("document.querySelectorAll('figure.distribution .axis.x text.end').length") as? Int ?? 0 > 0)

    // SVG: a file of its own, with the chart's lines in their colours and nothing of the page's pointer.
    let svg =
      try session.evaluate(
        """
        (() => { const text = window.metricsReport.exportChart('chart-0', 'svg');
          const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
          const root = doc.documentElement; const page = document.querySelector('#chart-0 svg.plot');
          const line = page.querySelector('path.line[data-series="0"]');
          const copy = [...root.querySelectorAll('path')].find(p => p.getAttribute('d') === line.getAttribute('d'));
          return [root.namespaceURI, root.getAttribute('width'), doc.querySelectorAll('parsererror').length,
            root.querySelectorAll('[class]').length, copy ? copy.getAttribute('stroke') : 'none',
            copy ? copy.getAttribute('fill') : 'none', line.getAttribute('stroke'),
            root.querySelectorAll('text').length > 5 ? 'text' : 'no text']; })()
        """) as? [Any] ?? []
    #expect(svg.count == 8)
    #expect(svg.first as? String == "http://www.w3.org/2000/svg" && svg[1] as? String == "720")
    #expect(svg[2] as? Int == 0 && svg[3] as? Int == 0)
    #expect(svg[4] as? String == svg[6] as? String && svg[5] as? String == "none", "\(svg)")
    #expect(svg[7] as? String == "text")

    // PNG: twice the chart's size, the first series' colour drawn.
    let png =
      try session.evaluate(
        """
        window.metricsReport.exportChart('chart-0', 'png').then(blob => createImageBitmap(blob)).then(image => {
          const canvas = document.createElement('canvas'); canvas.width = image.width; canvas.height = image.height;
          const context = canvas.getContext('2d'); context.drawImage(image, 0, 0);
          const pixels = context.getImageData(0, 0, image.width, image.height).data;
          const hex = JSON.parse(document.getElementById('report-data').textContent).charts[1].series[0].color;
          const c = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16)); let n = 0;
          for (let i = 0; i < pixels.length; i += 4)
            if (Math.abs(pixels[i] - c[0]) + Math.abs(pixels[i + 1] - c[1]) + Math.abs(pixels[i + 2] - c[2]) < 30) n++;
          return [image.width, image.height, n]; })
        """) as? [Int] ?? []
    // Twice the chart's width; taller than the plot alone by its title, context and legend.
    #expect(png.count == 3 && png[0] == 1440 && png[1] > 440 && png[2] > 500, "\(png)")

    // CSV, through the button and the browser's download: every point of every series, with the
    // values trend computes.
    _ = try session.send(
      "Browser.setDownloadBehavior", ["behavior": "allow", "downloadPath": dir.path], inSession: false)
    _ = try session.evaluate("document.querySelector('#chart-0 .save button[data-save=\"csv\"]').click(); true")
    let file = dir.appendingPathComponent("applicationLaunchMetrics.histogrammedTimeToFirstDraw-p50.csv")
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: file.path) && Date() < deadline { usleep(100_000) }
    let csv = try String(contentsOf: file, encoding: .utf8)
    let rows = csv.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(rows.first == ["series", "version", "group", "interval_start", "value", "lower", "upper", "payloads"])
    let trend = try CLIRunner.run([
      "trend", "Samples/dump", "--metric", "applicationLaunchMetrics.histogrammedTimeToFirstDraw", "--statistic",
      "p50", "--interval", "week", "--format", "json",
    ])
    #expect(trend.status == 0, "\(trend.stderr)")
    let points = Self.trendPoints(try trend.json())
    #expect(rows.count - 1 == points.count && points.count > 20, "\(rows.count - 1) rows, \(points.count) points")
    for row in rows.dropFirst() {
      guard let expected = points["\(row[1])|\(row[3])"], let value = Double(row[4]), let n = Int(row[7]) else {
        Issue.record("no trend point for \(row)")
        continue
      }
      #expect(abs(value - expected.value) <= abs(expected.value) * 1e-5 && n == expected.payloads, "\(row)")
    }
    #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
  }

  /// A tick label as a number (`1.5k` is 1500).
  static func tickValue(_ label: String) -> Double {
    let factors: [Character: Double] = ["k": 1e3, "M": 1e6, "G": 1e9]
    if let last = label.last, let factor = factors[last] { return (Double(label.dropLast()) ?? .nan) * factor }
    return Double(label) ?? .nan
  }

  /// A `trend --statistic p50 --format json` answer's points by `version|interval start`.
  static func trendPoints(_ json: [String: Any]) -> [String: (value: Double, payloads: Int)] {
    var points: [String: (Double, Int)] = [:]
    for series in json["series"] as? [[String: Any]] ?? [] {
      let version = series["version"] as? String ?? ""
      for point in series["points"] as? [[String: Any]] ?? [] {
        let value = point["p50"] as? Double ?? .nan
        points["\(version)|\(point["start"] as? String ?? "")"] = (value, point["payloads"] as? Int ?? -1)
      }
    }
    return points
  }
}
