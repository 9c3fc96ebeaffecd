import Foundation
import PayloadSynthesis
import TestSupport
import Testing

/// The report page in a real browser: headless Chromium (Debian's `chromium`, installed by
/// `Scripts/bootstrap.sh --browser`), driven through the DevTools protocol with real mouse events.
/// Skipped, with a notice, where Chromium is absent.
@Suite("report page in Chromium", .serialized)
struct ReportBrowserTests {
  static func browser() -> String? {
    guard let path = ChromiumSession.executable else {
      print("skipped: chromium is not installed (Scripts/bootstrap.sh --browser installs it)")
      return nil
    }
    return path
  }

  /// Where screenshots go: `$METRICS_REPORT_ARTIFACTS`, else `.build/artifacts`.
  static var artifacts: URL {
    let path =
      ProcessInfo.processInfo.environment["METRICS_REPORT_ARTIFACTS"]
      ?? TestDirectories.packageRoot.appendingPathComponent(".build/artifacts").path
    let url = URL(fileURLWithPath: path)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Each time chart's `[data-x0, data-x1]`.
  static let ranges = """
    JSON.stringify([...document.querySelectorAll('figure[data-x0]')].map(f => [f.id, f.dataset.x0, f.dataset.x1]))
    """

  static func ranges(_ session: ChromiumSession) throws -> [[String]] {
    let text = try session.evaluate(ranges) as? String ?? "[]"
    return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String]] ?? []
  }

  /// The centre-line points of a chart's overlay, in viewport pixels, after scrolling it to the middle.
  static func overlay(_ session: ChromiumSession, chart: String) throws -> (
    left: Double, top: Double, width: Double, height: Double
  ) {
    let rect =
      try session.evaluate(
        """
        (() => { const o = document.querySelector('#\(chart) .overlay'); o.scrollIntoView({block: 'center'});
          const r = o.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()
        """) as? [Double] ?? []
    guard rect.count == 4 else { throw ChromiumSession.Failure.protocolError("no overlay for \(chart)") }
    return (rect[0], rect[1], rect[2], rect[3])
  }

  @Test func samplesPageDrawsZoomsInSyncAndNeverTouchesTheNetwork() throws {
    guard let executable = Self.browser() else { return }
    try withTemporaryDirectory { dir in
      let page = dir.appendingPathComponent("report.html")
      let made = try CLIRunner.run([
        "report", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "-o", page.path,
      ])
      #expect(made.status == 0, "\(made.stderr)")

      let session = try ChromiumSession(executable: executable)
      defer { session.close() }
      try session.open(page)
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
      #expect(try session.evaluate("document.querySelectorAll('[data-chart]').length") as? Int == 10)
      #expect(try session.evaluate("document.querySelectorAll('figure[data-x0] svg.plot').length") as? Int == 10)
      let readyMS = try session.evaluate("Number(document.documentElement.dataset.reportReadyMs)") as? Double ?? .nan
      print("report page (Samples/dump): interactive \(readyMS) ms after navigation start")

      // The script's drawing of the whole range is the static SVG, path for path.
      let redraw =
        try session.evaluate(
          """
          (() => { const paths = () => [...document.querySelectorAll('svg.plot path')].map(p => p.getAttribute('d'));
            const before = paths(); window.metricsReport.render(true); const after = paths();
            const i = before.findIndex((d, k) => d !== after[k]);
            return i < 0 ? 'same' : 'path ' + i + ': ' + before[i].slice(0, 80) + ' != ' + after[i].slice(0, 80); })()
          """) as? String
      #expect(redraw == "same")

      // Drag across the first trend chart: every time chart follows.
      let full = try Self.ranges(session)
      #expect(Set(full.map { $0[1] + "…" + $0[2] }).count == 1)
      let box = try Self.overlay(session, chart: "chart-0")
      let y = box.top + box.height / 2
      try session.mouse("mousePressed", x: box.left + box.width * 0.3, y: y)
      try session.mouse("mouseMoved", x: box.left + box.width * 0.45, y: y)
      try session.mouse("mouseMoved", x: box.left + box.width * 0.6, y: y)
      try session.mouse("mouseReleased", x: box.left + box.width * 0.6, y: y)
      try session.wait(for: "document.querySelector('#chart-0').dataset.x0 !== '\(full[0][1])'")
      let zoomed = try Self.ranges(session)
      #expect(zoomed.count == full.count)
      #expect(Set(zoomed.map { $0[1] + "…" + $0[2] }).count == 1, "charts disagree: \(zoomed)")
      let x0 = Double(full[0][1])!
      let x1 = Double(full[0][2])!
      let z0 = Double(zoomed[0][1])!
      let z1 = Double(zoomed[0][2])!
      #expect(abs(z0 - (x0 + 0.3 * (x1 - x0))) < 1 && abs(z1 - (x0 + 0.6 * (x1 - x0))) < 1, "zoomed to \(z0)…\(z1)")
      let hash = try session.evaluate("location.hash") as? String ?? ""
      #expect(hash.hasPrefix("#from=") && hash.contains("&to="))

      // The fragment reopens the same view.
      try session.open(URL(string: "about:blank")!, waitForReport: false)
      try session.open(URL(string: page.absoluteString + hash)!)
      let reopened = try Self.ranges(session)
      #expect(Set(reopened.map { $0[1] + "…" + $0[2] }).count == 1)
      #expect(abs(Double(reopened[0][1])! - z0) <= 0.5 && abs(Double(reopened[0][2])! - z1) <= 0.5, "\(reopened[0])")

      // Hovering one chart puts the crosshair and a readout with each version's value on every chart,
      // over the plots: no element moves by a pixel.
      let hover = try Self.overlay(session, chart: "chart-2")
      let layout = """
        JSON.stringify([...document.querySelectorAll('figure, section, details, table')].map(e => {
          const r = e.getBoundingClientRect(); return [r.left, r.top + window.scrollY, r.width, r.height]; }))
        """
      let before = try session.evaluate(layout) as? String
      try session.mouse("mouseMoved", x: hover.left + hover.width * 0.5, y: hover.top + hover.height / 2)
      try session.wait(
        for:
          "[...document.querySelectorAll('figure[data-x0] .crosshair')].every(c => !c.hidden)"
      )
      #expect(try session.evaluate(layout) as? String == before, "hovering moved elements")
      // The readout lies within its chart's plot.
      let inside =
        try session.evaluate(
          """
          (() => { const f = document.querySelector('#chart-2'); const r = f.querySelector('.readout').getBoundingClientRect();
            const p = f.querySelector('svg.plot').getBoundingClientRect();
            return r.width > 0 && r.left >= p.left && r.right <= p.right && r.top >= p.top && r.top < p.bottom; })()
          """) as? Bool
      #expect(inside == true)
      let readouts =
        try session.evaluate(
          "[...document.querySelectorAll('figure[data-x0]')].map(f => window.metricsReport.readout(f.id))")
        as? [String] ?? []
      #expect(readouts.count == 10)
      // The page is weekly: the readout names the week.
      #expect(readouts.allSatisfy { $0.range(of: #"^week of \d{4}-\d{2}-\d{2}"#, options: .regularExpression) != nil })
      #expect(readouts.filter { $0.contains(" n=") }.count >= 6, "\(readouts)")

      // Double-click resets every chart; a preset shows the last 7 days.
      try session.mouse("mousePressed", x: hover.left + 20, y: hover.top + 20, clickCount: 1)
      try session.mouse("mouseReleased", x: hover.left + 20, y: hover.top + 20, clickCount: 1)
      try session.mouse("mousePressed", x: hover.left + 20, y: hover.top + 20, clickCount: 2)
      try session.mouse("mouseReleased", x: hover.left + 20, y: hover.top + 20, clickCount: 2)
      try session.wait(for: "document.querySelector('#chart-0').dataset.x0 === '\(full[0][1])'")
      #expect(try Self.ranges(session) == full)
      // The weekly page's presets speak in weeks; the one in effect is pressed.
      let presets =
        try session.evaluate(
          "[...document.querySelectorAll('.presets button')].map(b => b.textContent + '=' + b.getAttribute('aria-pressed'))"
        ) as? [String]
      #expect(presets == ["4 weeks=false", "13 weeks=false", "52 weeks=false", "All=true"])
      _ = try session.evaluate("document.querySelector('.presets [data-days=\"28\"]').click()")
      try session.wait(for: "document.querySelector('#chart-5').dataset.x0 !== '\(full[0][1])'")
      #expect(try Self.ranges(session).allSatisfy { Double($0[1])! == x1 - 27 && Double($0[2])! == x1 })
      #expect(
        try session.evaluate(
          "[...document.querySelectorAll('.presets button')].map(b => b.getAttribute('aria-pressed')).join()")
          as? String == "true,false,false,false")
      #expect(try session.evaluate("document.querySelector('.presets .active').textContent") as? String == "4 weeks")

      // The legend hides a version on every chart.
      _ = try session.evaluate("document.querySelector('.legend .version[data-version-index=\"0\"]').click()")
      try session.wait(
        for: """
          JSON.parse(document.getElementById('report-data').textContent).charts.every(c =>
            c.series.every((s, i) => s.v !== 0 || [...document.querySelectorAll('#' + c.id + ' path[data-series="' + i + '"]')]
              .every(p => p.getAttribute('d') === '')))
          """)
      #expect(
        try session.evaluate("location.hash") as? String ?? ""
          == "#from=\(Self.day(x1 - 27))&to=\(Self.day(x1))&hide=3.8.0")

      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
      // Nothing but the page itself was requested, and the policy never had to refuse anything.
      let requests = session.events.filter { $0.method == "Network.requestWillBeSent" }.compactMap {
        ($0.params["request"] as? [String: Any])?["url"] as? String
      }
      // (Chromium draws its date inputs' calendar icon from a data: URL of its own: in memory, no network.)
      #expect(
        requests.allSatisfy { $0.hasPrefix(page.absoluteString) || $0 == "about:blank" || $0.hasPrefix("data:") },
        "\(requests)")
      let violations = session.events.filter { $0.method == "Log.entryAdded" }.compactMap {
        ($0.params["entry"] as? [String: Any])?["text"] as? String
      }.filter { $0.contains("Content Security Policy") }
      #expect(violations.isEmpty, "\(violations)")

      _ = try session.evaluate(
        """
        document.querySelector('.legend .version[data-version-index="0"]').click();
        window.metricsReport.setRange(-Infinity, Infinity); window.scrollTo(0, 0); true
        """)
      try session.wait(for: "document.querySelector('#chart-0').dataset.x0 === '\(full[0][1])'")
      let png = try session.screenshot()
      #expect(png.count > 10_000)
      try png.write(to: Self.artifacts.appendingPathComponent("report-samples.png"))
      try Data(contentsOf: page).write(to: Self.artifacts.appendingPathComponent("report-samples.html"))
    }
  }

  static func day(_ days: Double) -> String { CalendarDayText.of(Int(days)) }

  @Test func thirtyVersionsReadWithoutCollisions() throws {
    guard let executable = Self.browser() else { return }
    try withTemporaryDirectory { dir in
      let history = dir.appendingPathComponent("history")
      _ = try ReleaseHistory.write(to: history, versions: 30, days: 730, payloadsPerVersion: 60)
      let page = dir.appendingPathComponent("report.html")
      let made = try CLIRunner.run(["report", history.path, "-o", page.path])
      #expect(made.status == 0, "\(made.stderr)")
      let session = try ChromiumSession(executable: executable)
      defer { session.close() }
      try session.open(page)
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")

      // 30 versions, 30 styles; the 8 latest in the legend, 22 folded; their lines muted.
      let styles =
        try session.evaluate(
          "new Set(JSON.parse(document.getElementById('report-data').textContent).versions.map(v => v.color + v.dash)).size"
        )
        as? Int
      #expect(styles == 30)
      #expect(try session.evaluate("document.querySelectorAll('.legend > .version').length") as? Int == 8)
      #expect(try session.evaluate("document.querySelectorAll('.legend details.older .version').length") as? Int == 22)
      #expect(
        try session.evaluate("document.querySelector('.legend details.older summary').textContent") as? String
          == "22 older")
      #expect(try session.evaluate("document.querySelectorAll('#chart-0 path.line.older').length") as? Int == 22)
      let header =
        try session.evaluate("document.querySelector('header.top').getBoundingClientRect().height") as? Double ?? 999
      #expect(header < 110, "the header is \(header) px tall")

      // No two release labels of a chart overlap, at the whole range and zoomed in.
      let overlaps = """
        [...document.querySelectorAll('figure[data-x0]')].map(f => {
          const boxes = [...f.querySelectorAll('.release')].filter(g => g.getAttribute('visibility') !== 'hidden')
            .map(g => g.querySelector('text')).filter(t => t.getAttribute('visibility') !== 'hidden')
            .map(t => t.getBoundingClientRect());
          let n = 0;
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i], b = boxes[j];
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) n++;
          }
          return n; }).reduce((a, b) => a + b, 0)
        """
      let shownLabels =
        "document.querySelectorAll('#chart-0 .release:not([visibility=hidden]) text:not([visibility=hidden])').length"
      #expect(try session.evaluate(overlaps) as? Int == 0)
      #expect(try session.evaluate(shownLabels) as? Int ?? 0 >= 20)
      _ = try session.evaluate(
        "(() => { const d = JSON.parse(document.getElementById('report-data').textContent); window.metricsReport.setRange(d.x1 - 200, d.x1); return true; })()"
      )
      try session.wait(
        for: "document.querySelector('#chart-0').dataset.x0 !== document.querySelector('#chart-0').dataset.x1")
      try session.wait(
        for: "window.metricsReport.view.x0 > JSON.parse(document.getElementById('report-data').textContent).x0")
      _ = try session.evaluate("window.metricsReport.render(true); true")
      #expect(try session.evaluate(overlaps) as? Int == 0)

      // Alt-click shows one version alone; alt-click again shows them all.
      _ = try session.evaluate(
        "document.querySelector('.legend .version[data-version-index=\"29\"]').dispatchEvent(new MouseEvent('click', {altKey: true, bubbles: true})); true"
      )
      #expect(
        try session.evaluate(
          "[...document.querySelectorAll('.legend .version[aria-pressed=true]')].map(b => b.dataset.versionIndex).join()"
        )
          as? String == "29")
      _ = try session.evaluate(
        "document.querySelector('.legend .version[data-version-index=\"29\"]').dispatchEvent(new MouseEvent('click', {altKey: true, bubbles: true})); true"
      )
      #expect(
        try session.evaluate("document.querySelectorAll('.legend .version[aria-pressed=true]').length") as? Int == 30)
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
      try session.screenshot().write(to: Self.artifacts.appendingPathComponent("report-30-versions.png"))
    }
  }

  /// The page `report` writes into `dir` with `arguments` (the samples' by default).
  static func page(in dir: URL, _ arguments: [String] = ["Samples/dump"]) throws -> URL {
    let page = dir.appendingPathComponent("report.html")
    let made = try CLIRunner.run(["report"] + arguments + ["-o", page.path])
    #expect(made.status == 0, "\(made.stderr)")
    return page
  }

  /// The samples' page with the gate and Apple's Organizer, written into `dir`.
  static func organizerPage(in dir: URL) throws -> URL {
    try page(
      in: dir,
      ["Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--organizer", "Samples/organizer"])
  }

  @Test func theFirstScreenAnswersTheGateAndThePerVersionViewIsSummary() throws {
    guard let executable = Self.browser() else { return }
    try withTemporaryDirectory { dir in
      let page = dir.appendingPathComponent("report.html")
      let gate = ["--baseline", "3.8.0", "--candidate", "3.9.0"]
      let made = try CLIRunner.run(["report", "Samples/dump"] + gate + ["-o", page.path])
      #expect(made.status == 0, "\(made.stderr)")
      let compare = try CLIRunner.run(["compare", "Samples/dump"] + gate + ["--format", "json"])
      let results = try #require(try compare.json()["results"] as? [[String: Any]])
      let failing = results.filter { $0["verdict"] as? String == "regression" && $0["severity"] as? String == "error" }
      #expect(failing.count >= 2)

      let session = try ChromiumSession(executable: executable, width: 1280, height: 800)
      defer { session.close() }
      _ = try session.send(
        "Emulation.setDeviceMetricsOverride", ["width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false])
      try session.open(page)
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
      // At 1280×800 the first screen holds the verdict and every failing rule, each whole.
      let seen =
        try session.evaluate(
          """
          (() => { const v = document.querySelector('#verdict'); const badge = v.querySelector('.badge');
            const rules = [...v.querySelectorAll('ul.findings li.fail')];
            const chart = li => document.querySelector(li.querySelector('a').getAttribute('href'));
            return [badge.textContent, badge.getBoundingClientRect().bottom,
              Math.max(...rules.map(li => li.getBoundingClientRect().bottom)),
              ...rules.map(li => chart(li).dataset.chart + ' ' + chart(li).dataset.statistic)]; })()
          """) as? [Any] ?? []
      #expect(seen.first as? String == ((try compare.json()["gate"] as? String) ?? "?").uppercased())
      #expect((seen.count > 2 ? seen[2] as? Double : nil) ?? 9999 <= 800, "\(seen)")
      // Each failing rule is there, linking to the chart of its metric and statistic.
      let named = seen.dropFirst(3).compactMap { $0 as? String }.sorted()
      let rules = failing.map { "\($0["metric"] as? String ?? "") \($0["statistic"] as? String ?? "")" }.sorted()
      #expect(named == rules)

      // Following a rule's link lands its chart below the sticky header.
      _ = try session.evaluate("document.querySelector('#verdict ul.findings li.fail a').click(); true")
      try session.wait(for: "location.hash.startsWith('#chart-')")
      usleep(200_000)
      let clear =
        try session.evaluate(
          """
          (() => { const t = document.querySelector(location.hash).getBoundingClientRect().top;
            return t >= document.querySelector('header.top').getBoundingClientRect().bottom && t < 800; })()
          """) as? Bool
      #expect(clear == true)

      // The per-version view's marks are summary's whole-version values and brackets.
      let summary = try CLIRunner.run(["summary", "Samples/dump", "--format", "json"])
      let versions = try #require(try summary.json()["versions"] as? [[String: Any]])
      let marks =
        try session.evaluate(
          """
          [...document.querySelectorAll('figure.version-view')].flatMap(f => [...f.querySelectorAll('.statistic')].flatMap(s =>
            [...s.querySelectorAll('g.marks[data-group=""] g.mark')].map(m => [f.dataset.metric, s.dataset.statistic,
              m.dataset.version, Number(m.dataset.value), m.dataset.lower ? Number(m.dataset.lower) : null,
              m.dataset.upper ? Number(m.dataset.upper) : null])))
          """) as? [[Any]] ?? []
      #expect(marks.count >= 20)
      var compared = 0
      for mark in marks {
        guard let metric = mark[0] as? String, let statistic = mark[1] as? String, let version = mark[2] as? String,
          let value = mark[3] as? Double,
          let row = (versions.first { $0["version"] as? String == version }?["metrics"] as? [[String: Any]])?
            .first(where: { $0["metric"] as? String == metric })
        else { continue }
        // Rates have one value; distributions and counters their mean or a percentile.
        let expected = (row[statistic] ?? row["value"] ?? row["mean"]) as? Double
        #expect(expected.map { abs($0 - value) <= 1e-9 * max(1, abs($0)) } == true, "\(metric) \(statistic) \(version)")
        if let lower = mark[4] as? Double, let upper = mark[5] as? Double {
          let bounds = (row["bounds"] as? [String: [Double]])?[statistic]
          #expect(bounds == [lower, upper], "\(metric) \(statistic) \(version) bracket")
        }
        compared += 1
      }
      #expect(compared == marks.count)
      // A click on p90 shows the p90 marks, the p50 ones hidden.
      _ = try session.evaluate(
        "document.querySelector('#versions-0 .choice.statistics [data-choice=\"1\"]').click(); true")
      #expect(
        try session.evaluate(
          "[...document.querySelectorAll('#versions-0 .statistic')].map(s => s.dataset.statistic + (s.hidden ? '-' : '+')).join()"
        ) as? String == "p50-,p90+")
      try session.open(URL(string: page.absoluteString + "#top")!)
      _ = try session.evaluate("window.scrollTo(0, 0); true")
      try session.screenshot().write(to: Self.artifacts.appendingPathComponent("report-first-screen.png"))
    }
  }

  @Test func darkAndNarrowPagesAreWhole() throws {
    guard let executable = Self.browser() else { return }
    try withTemporaryDirectory { dir in
      let page = try Self.organizerPage(in: dir)
      let session = try ChromiumSession(executable: executable)
      defer { session.close() }

      // Dark: the paper and ink follow the reader's scheme.
      _ = try session.send(
        "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
      try session.open(page)
      #expect(try session.evaluate("getComputedStyle(document.body).backgroundColor") as? String == "rgb(22, 25, 28)")
      #expect(try session.evaluate("getComputedStyle(document.body).color") as? String == "rgb(230, 232, 234)")
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
      try session.screenshot().write(to: Self.artifacts.appendingPathComponent("report-dark.png"))

      // 420 px wide: one column, nothing wider than the screen, a header that does not eat the screen.
      _ = try session.send(
        "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "light"]]])
      _ = try session.send(
        "Emulation.setDeviceMetricsOverride", ["width": 420, "height": 900, "deviceScaleFactor": 1, "mobile": false])
      try session.open(page)
      #expect(try session.evaluate("document.documentElement.scrollWidth") as? Int ?? 9999 <= 420)
      // Chart text stays legible: an axis label is at least 9 px tall on the screen.
      let label =
        try session.evaluate(
          "document.querySelector('#chart-0 .axis.y text').getBoundingClientRect().height") as? Double ?? 0
      #expect(label >= 9, "axis labels \(label) px")
      let wider =
        try session.evaluate(
          "[...document.querySelectorAll('figure, section, header, h2, h3, p')].filter(e => e.getBoundingClientRect().right > 421).length"
        ) as? Int
      #expect(wider == 0)
      // Every gate verdict on the screen without scrolling: a row is a block, its verdict beside its
      // rule and every value after its column's name.
      let verdicts =
        try session.evaluate(
          "[...document.querySelectorAll('table.gate .verdict')].map(v => { const r = v.getBoundingClientRect(); return [r.left, r.right, r.width]; })"
        ) as? [[Double]] ?? []
      #expect(!verdicts.isEmpty && verdicts.allSatisfy { $0[0] >= 0 && $0[1] <= 420 && $0[2] > 0 }, "\(verdicts)")
      let labelled =
        try session.evaluate(
          "getComputedStyle(document.querySelector('table.gate td[data-label=\"Baseline\"]'), '::before').content")
        as? String
      #expect(labelled == "\"Baseline \"", "\(labelled ?? "none")")
      // No chart label cut at its chart's edge, and the baseline's and candidate's as legible as the
      // others (each chart's value labels, versions, release marks; drawn charts only).
      let cut =
        try session.evaluate(
          """
          [...document.querySelectorAll('svg.plot .axis.y text, svg.plot .version-label, svg.plot .release text')]
            .filter(t => t.getBoundingClientRect().width > 0 && getComputedStyle(t).display !== 'none')
            .filter(t => { const r = t.getBoundingClientRect(), s = t.closest('svg').getBoundingClientRect();
              return r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.height < 9; })
            .map(t => t.textContent + ' ' + Math.round(t.getBoundingClientRect().height) + ' px')
          """) as? [String] ?? ["?"]
      #expect(cut.isEmpty, "\(cut)")
      let roles =
        try session.evaluate(
          "document.querySelectorAll('svg.versions-plot .version-label.baseline, svg.versions-plot .version-label.candidate').length"
        ) as? Int ?? 0
      #expect(roles >= 2)
      let header =
        try session.evaluate("document.querySelector('header.top').getBoundingClientRect().height") as? Double ?? 999
      #expect(header < 200, "the header is \(header) px tall")
      #expect(
        try session.evaluate("getComputedStyle(document.querySelector('header.top')).position") as? String == "static")
      // Charts still draw and answer: the crosshair's readout stays on the screen.
      let box = try Self.overlay(session, chart: "chart-0")
      try session.mouse("mouseMoved", x: box.left + box.width * 0.8, y: box.top + box.height / 2)
      try session.wait(for: "window.metricsReport.readout('chart-0').length > 0")
      let readout =
        try session.evaluate(
          "(() => { const r = document.querySelector('#chart-0 .readout').getBoundingClientRect(); return [r.left, r.right]; })()"
        )
        as? [Double] ?? []
      #expect(readout.count == 2 && readout[0] >= 0 && readout[1] <= 420, "\(readout)")
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
      try session.screenshot().write(to: Self.artifacts.appendingPathComponent("report-narrow.png"))
    }
  }

  @Test func applesLevelsAndGoalBandsFollowZoomAndLegend() throws {
    guard let executable = Self.browser() else { return }
    try withTemporaryDirectory { dir in
      let page = try Self.organizerPage(in: dir)
      let session = try ChromiumSession(executable: executable)
      defer { session.close() }
      try session.open(page)
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")

      // Apple's levels: one per version on the charts whose metric and statistic Apple gives (launch
      // p50 and p90, peak memory p90); goal bands where Apple gives them. Apple's exits per payload have no
      // chart of their own: the stability rates replaced the per-payload exit chart.
      let counts =
        try session.evaluate(
          "JSON.stringify([...document.querySelectorAll('figure[data-x0]')].map(f => [f.id, f.querySelectorAll('path.apple').length, f.querySelectorAll('rect.goal').length]))"
        ) as? String ?? ""
      let perChart = try JSONSerialization.jsonObject(with: Data(counts.utf8)) as? [[Any]] ?? []
      let drawn = perChart.filter { ($0[1] as? Int ?? 0) > 0 }.map { "\($0[0]) \($0[1]) \($0[2])" }
      #expect(drawn == ["chart-0 3 3", "chart-1 3 3", "chart-5 3 0"], "\(perChart)")

      // The script draws Apple's levels and bands exactly as the static page does.
      let same =
        try session.evaluate(
          """
          (() => { const shapes = () => [...document.querySelectorAll('path.apple, rect.goal')].map(e =>
              (e.getAttribute('d') || '') + '|' + (e.getAttribute('y') || '') + '|' + (e.getAttribute('height') || ''));
            const before = shapes(); window.metricsReport.render(true); const after = shapes();
            return JSON.stringify(before) === JSON.stringify(after); })()
          """) as? Bool
      #expect(same == true)

      // Each level sits at Apple's value on the chart's scale: the y of 3.9.0's p90 level is that of 728.9 ms.
      let level =
        try session.evaluate(
          """
          (() => { const data = JSON.parse(document.getElementById('report-data').textContent);
            const chart = data.charts.find(c => c.id === 'chart-1'); const a = chart.apple.find(a => a.v === 1);
            const d = document.querySelector('#chart-1 path.apple[data-version-index="1"]').getAttribute('d');
            return [a.y, Number(d.split('H')[0].split(' ')[1])]; })()
          """) as? [Double] ?? []
      #expect(level.first == 728.9)
      // On the chart's own value axis (its first and last tick, label and position), 728.9 ms is there.
      let ticks =
        try session.evaluate(
          "JSON.stringify([...document.querySelectorAll('#chart-1 .axis.y text')].map(t => [Number(t.textContent), Number(t.getAttribute('y'))]))"
        ) as? String ?? "[]"
      let axis = try JSONSerialization.jsonObject(with: Data(ticks.utf8)) as? [[Double]] ?? []
      let (a, b) = (axis.first ?? [0, 0], axis.last ?? [1, 1])
      let expectedY = a[1] + (728.9 - a[0]) / (b[0] - a[0]) * (b[1] - a[1])
      #expect(a[0] > 0, "the launch p90 axis is fitted to its data, not started at 0: \(axis)")
      #expect(level.count == 2 && abs(level[1] - expectedY) < 0.06, "\(level) vs \(expectedY)")

      // Zoomed to the last two weeks, 3.8.0 (gone by then) loses its level and 3.10.0 keeps its own.
      _ = try session.evaluate(
        "(() => { const d = JSON.parse(document.getElementById('report-data').textContent); window.metricsReport.setRange(d.x1 - 14, d.x1); return true; })()"
      )
      try session.wait(
        for:
          "document.querySelector('#chart-0 path.apple[data-version-index=\"0\"]').getAttribute('visibility') === 'hidden'"
      )
      #expect(
        try session.evaluate(
          "document.querySelector('#chart-0 path.apple[data-version-index=\"2\"]').getAttribute('visibility')")
          as? String
          == "visible")
      _ = try session.evaluate("window.metricsReport.setRange(-Infinity, Infinity); true")
      try session.wait(
        for:
          "document.querySelector('#chart-0 path.apple[data-version-index=\"0\"]').getAttribute('visibility') === 'visible'"
      )

      // Hiding a version hides its level; showing it again brings it back.
      _ = try session.evaluate("document.querySelector('.legend .version[data-version-index=\"1\"]').click()")
      try session.wait(
        for:
          "document.querySelector('#chart-0 path.apple[data-version-index=\"1\"]').getAttribute('visibility') === 'hidden'"
      )
      _ = try session.evaluate("document.querySelector('.legend .version[data-version-index=\"1\"]').click()")
      try session.wait(
        for:
          "document.querySelector('#chart-0 path.apple[data-version-index=\"1\"]').getAttribute('visibility') === 'visible'"
      )
      #expect(try session.evaluate("document.querySelectorAll('#organizer tbody tr').length") as? Int == 33)
      #expect(try session.evaluate("document.querySelectorAll('ul.organizer-insights li').length") as? Int == 2)
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")

      _ = try session.evaluate("document.getElementById('trends').scrollIntoView(); true")
      let png = try session.screenshot()
      #expect(png.count > 10_000)
      try png.write(to: Self.artifacts.appendingPathComponent("report-organizer.png"))
    }
  }

  @Test func hostileNamesCreateNoElementRunNothingAndRequestNothing() throws {
    guard let executable = Self.browser() else { return }
    let hostile = "</script><img src=x onerror=alert(1)>"
    let signpost = "<svg onload=alert(2)><!--"
    try withTemporaryDirectory { dir in
      var evil = VersionProfile.standard[1]
      evil.version = hostile
      _ = try SampleDump.write(
        to: dir.appendingPathComponent("dump"), seed: 5, payloadsPerVersion: 40,
        profiles: [VersionProfile.standard[0], evil],
        malformed: false)
      // Signpost names too, in every plain file.
      let files = FileManager.default.enumerator(
        at: dir.appendingPathComponent("dump"), includingPropertiesForKeys: nil)
      while let file = files?.nextObject() as? URL {
        guard ["json", "ndjson"].contains(file.pathExtension) else { continue }
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"LoadFeed\"", with: "\"\(signpost)\"").write(
          to: file, atomically: true, encoding: .utf8)
      }
      let page = dir.appendingPathComponent("report.html")
      let made = try CLIRunner.run([
        "report", dir.appendingPathComponent("dump").path, "--baseline", "3.8.0", "--candidate", hostile,
        "--metric", "signpost:Feed/\(signpost)@p90", "--metric", "applicationLaunchMetrics.histogrammedTimeToFirstDraw",
        "-o", page.path,
      ])
      #expect(made.status == 0, "\(made.stderr)")

      let session = try ChromiumSession(executable: executable)
      defer { session.close() }
      try session.open(page)
      #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "")
      #expect(try session.evaluate("document.querySelectorAll('img, iframe, object, embed').length") as? Int == 0)
      #expect(try session.evaluate("document.querySelectorAll('script').length") as? Int == 2)
      #expect(
        try session.evaluate(
          "[...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length"
        )
          as? Int == 0)
      // Only the charts' own SVG: one per chart, one swatch per legend and version-table entry.
      let svgs = try session.evaluate("document.querySelectorAll('svg').length") as? Int ?? -1
      let expected =
        try session.evaluate(
          "document.querySelectorAll('svg.plot').length + document.querySelectorAll('svg.swatch, .dot svg').length")
        as? Int ?? -2
      #expect(svgs == expected)
      // The names are there, as text.
      #expect(try session.evaluate("document.body.textContent.includes(\(Self.jsString(hostile)))") as? Bool == true)
      #expect(try session.evaluate("document.body.textContent.includes(\(Self.jsString(signpost)))") as? Bool == true)
      #expect(!session.events.contains { $0.method == "Page.javascriptDialogOpening" })
      let requests = session.events.filter { $0.method == "Network.requestWillBeSent" }.compactMap {
        ($0.params["request"] as? [String: Any])?["url"] as? String
      }
      #expect(requests.allSatisfy { $0 == page.absoluteString || $0.hasPrefix("data:") }, "\(requests)")
      try session.screenshot().write(to: Self.artifacts.appendingPathComponent("report-hostile.png"))
    }
  }

  /// A JavaScript string literal.
  static func jsString(_ s: String) -> String {
    let data = try? JSONSerialization.data(withJSONObject: [s])
    return String(decoding: data ?? Data("[\"\"]".utf8), as: UTF8.self).dropFirst().dropLast().description
  }
}

/// `yyyy-MM-dd` of a day count, as the page writes it in fragments.
enum CalendarDayText {
  static func of(_ days: Int) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date(timeIntervalSince1970: Double(days) * 86_400))
  }
}
