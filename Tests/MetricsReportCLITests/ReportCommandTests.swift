import Foundation
import PayloadSynthesis
import TestSupport
import Testing

/// `metrics-report report`: the page's content and size from the built binary (the browser tests
/// are in ReportBrowserTests).
@Suite("metrics-report report")
struct ReportCommandTests {
  /// Occurrences of `needle` in `text`.
  static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

  /// The gate table's rows of rules (not their overall rows): the rule's identifier (the row's
  /// title), the verdict, the outcome class, and the row's HTML.
  static func gateRows(_ table: String) -> [(name: String, verdict: String, outcome: String, html: String)] {
    table.components(separatedBy: "<tr class=\"").dropFirst().compactMap { row in
      guard let title = row.range(of: "title=\"") else { return nil }
      let name = String(row[title.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&lt;", with: "<")
      let verdict = row.components(separatedBy: "<span class=\"verdict\">").dropFirst().first.map {
        String($0.prefix { $0 != "<" })
      }
      return (name, verdict ?? "", String(row.prefix { $0 != " " && $0 != "\"" }), row)
    }
  }

  /// Where an outcome class sorts: failing first, then warnings, passes, the rest.
  static func outcomeRank(_ outcome: String) -> Int { ["fail", "warn", "pass", "none"].firstIndex(of: outcome) ?? 4 }

  @Test func samplesPageHoldsEverySectionAndTheGateOfCompare() throws {
    try withTemporaryDirectory { dir in
      let page = dir.appendingPathComponent("report.html")
      let result = try CLIRunner.run([
        "report", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "-o", page.path,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let html = try String(contentsOf: page, encoding: .utf8)
      let size = try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int ?? .max
      #expect(size < 300_000, "the Samples page is \(size) bytes")
      for section in ["overview", "stability", "adoption", "trends", "distributions", "gate"] {
        #expect(html.contains("<section id=\"\(section)\">"), "no \(section) section")
      }
      #expect(!html.contains("<section id=\"diagnostics\">"))  // the samples hold no diagnostics
      // Deterministic: no clock, sorted series, fixed number formatting.
      try CLIRunner.expectGolden(html, "samples-report.html")
      // The adoption chart and the nine default trend charts.
      #expect(Self.count("data-chart=\"", in: html) == 10)
      #expect(html.contains("184 read = 168 counted + 12 excluded + 4 rejected + 0 not metric payloads"))
      #expect(html.contains("per week"))  // about one payload a day per version: weeks are the typical point
      // The gate table is compare's: same rules, same verdicts, same order.
      let compare = try CLIRunner.run([
        "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json",
      ])
      let results = try #require(try compare.json()["results"] as? [[String: Any]])
      let gate = try #require(
        html.components(separatedBy: "<table class=\"gate\">").last?.components(separatedBy: "</table>").first)
      // Rule for rule, the page's verdicts are compare's; the rules failing come first.
      let rows = Self.gateRows(gate)
      #expect(rows.count == results.count)
      for r in results {
        let name = "\(r["metric"] as? String ?? "") \(r["statistic"] as? String ?? "")"
        #expect(rows.first { $0.name == name }?.verdict.hasPrefix(r["verdict"] as? String ?? "?") == true, "\(name)")
      }
      let outcomes = rows.map(\.outcome)
      #expect(outcomes == outcomes.sorted { Self.outcomeRank($0) < Self.outcomeRank($1) }, "\(outcomes)")
      #expect(html.contains("Gate: <b>\((try compare.json()["gate"] as? String ?? "?").uppercased())</b>"))
      // Rules are named by their titles and link to the chart of their metric and statistic.
      #expect(html.contains("<a href=\"#chart-1\">Launch time (first draw) p90</a>"))
    }
  }

  @Test func theGroupedPageGatesLikeCompareByAndNamesItsReasons() throws {
    // 4.1.0's launches are 30% slower on the checkout screen alone (DeviceDayTwin.rollout).
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("reports")
      try DeviceDayTwin.write(DeviceDayTwin.rollout(daysPerVersion: 120, seed: 1), mix: .mixed, to: dump)
      let options = ["--baseline", "4.0.0", "--candidate", "4.1.0", "--by", "state:com.example.shop.screen"]
      let page = dir.appendingPathComponent("report.html")
      let made = try CLIRunner.run(["report", dump.path] + options + ["-o", page.path])
      #expect(made.status == 0, "\(made.stderr)")
      let html = try String(contentsOf: page, encoding: .utf8)
      let compare = try CLIRunner.run(["compare", dump.path] + options + ["--format", "json"])
      #expect(compare.status == 1)
      let json = try compare.json()
      let results = try #require(json["results"] as? [[String: Any]])
      let gate = try #require(
        html.components(separatedBy: "<table class=\"gate\">").last?.components(separatedBy: "</table>").first)
      let rows = Self.gateRows(gate)
      #expect(rows.count == results.count)
      // Rule for rule, the page's gate is compare's: the rule (with its group), the verdict and the reason.
      for r in results {
        let group =
          ((r["by"] as? [String: String])?.values.first).map { " [state:com.example.shop.screen \($0)]" } ?? ""
        let name = "\(r["metric"] as? String ?? "") \(r["statistic"] as? String ?? "")\(group)"
        let row = try #require(rows.first { $0.name == name }, "\(name)")
        #expect(row.verdict == r["verdict"] as? String)
        let reason = (r["reason"] as? String ?? "?").replacingOccurrences(of: "<", with: "&lt;")
        #expect(row.html.contains("<td class=\"why\" data-label=\"Why\">\(reason)</td>"), "\(reason)")
      }
      // Each rule has an overall row, then its groups worst first; the rules failing come first.
      let overall = gate.components(separatedBy: "<tr class=\"").dropFirst().filter { $0.contains(" overall\"") }
      let groupedRules = Set(
        results.filter { $0["by"] != nil }.map { "\($0["metric"] ?? "") \($0["statistic"] ?? "")" })
      #expect(overall.count == groupedRules.count)
      #expect(overall.first?.hasPrefix("fail") == true)
      let regressed = results.filter { $0["verdict"] as? String == "regression" }
      #expect(regressed.contains { ($0["by"] as? [String: String])?.values.first == "checkout" })
      #expect(html.contains("Gate: <b>FAIL</b>"))
      // The regressed group's row links to its chart with that group alone.
      let checkout = try #require(rows.first { $0.name.hasSuffix("p90 [state:com.example.shop.screen checkout]") })
      #expect(checkout.html.contains("<a href=\"#chart-1\" data-solo-group=\"2\">checkout</a>"))
      // The first screen's verdict names the group that carries the regression.
      let verdict = try #require(html.components(separatedBy: "<section id=\"verdict\"").dropFirst().first)
      #expect(verdict.contains(" in state:com.example.shop.screen <b>checkout</b>: "))
      #expect(verdict.contains("Regressed in state:com.example.shop.screen <b>checkout</b>"))
    }
  }

  @Test func aSparseOutlierDoesNotSetTheValueAxis() throws {
    // The samples, and one device-day of 3.10.0 a week after the others with a 5-second launch.
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("dump")
      try FileManager.default.copyItem(at: TestDirectories.packageRoot.appendingPathComponent("Samples/dump"), to: dump)
      let outlier = #"""
        {"appVersion": "3.10.0", "timeStampBegin": "2024-03-04 00:00:00 +0000", "timeStampEnd": "2024-03-04 23:59:00 +0000",
         "metaData": {"appBuildVersion": "3100", "deviceType": "iPhone15,3", "osVersion": "iPhone OS 17.5 (21F79)"},
         "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramNumBuckets": 1,
           "histogramValue": {"0": {"bucketCount": 3, "bucketStart": "5000 ms", "bucketEnd": "5010 ms"}}}}}
        """#
      try Data(outlier.utf8).write(to: dump.appendingPathComponent("outlier.json"))
      let result = try CLIRunner.run([
        "report", dump.path, "--interval", "week", "--metric",
        "applicationLaunchMetrics.histogrammedTimeToFirstDraw@p50",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let chart = try #require(
        result.stdout.components(separatedBy: "<figure class=\"chart\" id=\"chart-0\"").dropFirst().first)
      let labels = chart.components(separatedBy: "</svg>")[0].components(separatedBy: "<g class=\"axis y\">")[1]
        .components(separatedBy: "</g>")[0].components(separatedBy: "dy=\"4\">").dropFirst()
        .compactMap { Double($0.prefix { $0 != "<" }) }
      // Fitted to the dense points (about 380–480 ms): not from 0, nowhere near 5,000 ms.
      #expect(!labels.isEmpty && labels.first! > 0 && labels.last! < 1000, "\(labels)")
      // The outlier is marked at the plot's top edge (a notch of 3.10.0's colour).
      let notches = chart.components(separatedBy: "class=\"offscale\"").dropFirst().map {
        String($0.components(separatedBy: "d=\"")[1].prefix { $0 != "\"" })
      }
      #expect(notches.filter { !$0.isEmpty }.count == 1, "\(notches)")
      #expect(notches.contains { $0.contains("L") && $0.hasSuffix(" 18Z") })  // from y 18 up to the edge at 12
    }
  }

  @Test func writesToStandardOutputAndRefusesWhatItCannotDraw() throws {
    let page = try CLIRunner.run(["report", "Samples/dump", "--app-version", "3.10.0", "--interval", "day"])
    #expect(page.status == 0)
    #expect(page.stdout.hasPrefix("<!DOCTYPE html>"))
    #expect(page.stdout.contains("per day"))
    #expect(page.stdout.hasSuffix("</html>\n"))

    let half = try CLIRunner.run(["report", "Samples/dump", "--baseline", "3.8.0"])
    #expect(half.status == 64)
    #expect(half.stderr.contains("Give both --baseline and --candidate"))

    let metric = try CLIRunner.run(["report", "Samples/dump", "--metric", "memoryMetrics.nope@p90"])
    #expect(metric.status == 64)
    #expect(metric.stderr.contains("'memoryMetrics.nope@p90'"))

    let interval = try CLIRunner.run(["report", "Samples/dump", "--interval", "fortnight"])
    #expect(interval.status == 64)
    #expect(interval.stderr.contains("auto, day, week or month"))

    // The gate's options are compare's (GateOptions): the same checks.
    let alpha = try CLIRunner.run([
      "report", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--alpha", "0",
    ])
    #expect(alpha.status == 64)
    #expect(alpha.stderr.contains("--alpha must be between 0 and 1."))

    let rulesAlone = try CLIRunner.run(["report", "Samples/dump", "--rules", "Samples/rules.yml"])
    #expect(rulesAlone.status == 64)
    #expect(rulesAlone.stderr.contains("--rules needs --baseline and --candidate."))

    let missing = try CLIRunner.run(["report", "Samples/dump", "--baseline", "9.9", "--candidate", "3.9.0"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("no payloads for version 9.9"))
    #expect(missing.stdout.isEmpty)
  }

  @Test func chosenMetricsAndStatisticsReplaceTheDefaults() throws {
    let result = try CLIRunner.run([
      "report", "Samples/dump", "--metric", "applicationLaunchMetrics.histogrammedTimeToFirstDraw@p99",
      "--metric", "signpost:Feed/LoadFeed@mean", "--metric", "hangRate",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.count("data-chart=\"", in: result.stdout) == 4)
    #expect(result.stdout.contains("data-chart=\"signpost:Feed/LoadFeed\" data-statistic=\"mean\""))
    #expect(result.stdout.contains("Launch time (first draw) p99"))
  }

  @Test func theFooterNamesTheInterpolationThePageUsed() throws {
    let monotone = try CLIRunner.run(["report", "Samples/dump"])
    let uniform = try CLIRunner.run(["report", "Samples/dump", "--interpolation", "uniform"])
    #expect(monotone.status == 0 && uniform.status == 0)
    #expect(monotone.stdout.contains("CDF (monotone within buckets") && !monotone.stdout.contains("uniform within"))
    #expect(uniform.stdout.contains("CDF (uniform within buckets)") && !uniform.stdout.contains("monotone within"))
  }

  @Test func diagnosticsSectionRatesSignaturesAndDrawsTheFoldedStacks() throws {
    let dir = try DiagnosticsCommandTests.mixedDump()
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try CLIRunner.run(["report", dir.path, "--app-binary", "MyApp"])
    #expect(result.status == 0, "\(result.stderr)")
    let section = try #require(result.stdout.components(separatedBy: "<section id=\"diagnostics\">").last)
    // 30 crashes of 1.0; 35 crashes and a hang of 2.0 (mixedDump); each a rate per 1,000 of the
    // version's metric payloads (device-days), as summary counts them.
    let summary = try CLIRunner.run(["summary", dir.path, "--format", "json"])
    let counted = try #require(try summary.json()["versions"] as? [[String: Any]])
    func days(_ version: String) -> Int {
      counted.first { $0["version"] as? String == version }?["payloads"] as? Int ?? 0
    }
    func rate(_ count: Int, _ version: String) -> String {
      let r = Double(count) / Double(days(version)) * 1_000
      return String(format: r >= 100 ? "%.0f" : r >= 10 ? "%.1f" : "%.2f", r)
    }
    #expect(days("1.0") > 30 && days("2.0") > 30)
    func row(_ version: String) -> String {
      section.components(separatedBy: "<tr><th scope=\"row\">\(version)</th>").dropFirst().first?
        .components(separatedBy: "</tr>").first ?? ""
    }
    #expect(row("1.0").hasPrefix("<td class=\"num\">\(days("1.0"))</td>"))
    #expect(row("1.0").contains(">30<small> \(rate(30, "1.0"))/1k days</small>"), "\(row("1.0"))")
    #expect(row("2.0").contains(">35<small> \(rate(35, "2.0"))/1k days</small>"), "\(row("2.0"))")
    #expect(row("2.0").contains(">1<small> \(rate(1, "2.0"))/1k days</small>"))
    // The rates across versions, a kind at a time: the crash marks are 30 and 35 per the versions' days.
    let rates = try #require(
      section.components(separatedBy: "<figure class=\"chart version-view\" id=\"diagnostic-rates\"").dropFirst().first)
    let crash = try #require(rates.components(separatedBy: "data-statistic=\"crash\"").dropFirst().first)
    for (version, count) in [("1.0", 30), ("2.0", 35)] {
      let value = Double(count) / Double(days(version)) * 1_000
      let mark = try #require(
        crash.components(separatedBy: "data-version=\"\(version)\" data-value=\"").dropFirst().first)
      #expect(abs((Double(mark.prefix { $0 != "\"" }) ?? 0) - value) < 1e-9, "\(version)")
    }
    // The signatures only 2.0 has (a crash 5 times, the hang) are marked new, in 2.0's table alone.
    #expect(Self.count("class=\"badge new\"", in: section) == 2)
    let newRows = section.components(separatedBy: "<tr>").filter { $0.contains("badge new") }
    #expect(
      newRows.contains {
        $0.hasPrefix("<td class=\"num\">5</td><td class=\"num\">\(rate(5, "2.0"))</td><td>crash</td>")
      })
    #expect(
      newRows.contains { $0.hasPrefix("<td class=\"num\">1</td><td class=\"num\">\(rate(1, "2.0"))</td><td>hang</td>") }
    )
    #expect(section.contains("MyApp"))

    // The flame graph is 2.0's folded stacks: each frame's samples are those of every line through
    // it, and its width its share of the drawing.
    let folded = try CLIRunner.run(["diagnostics", dir.path, "--format", "folded", "--app-binary", "MyApp"])
    var expected: [String: Int] = [:]
    var total = 0
    for line in folded.stdout.split(separator: "\n") where line.hasPrefix("2.0;") {
      let space = try #require(line.lastIndex(of: " "))
      let count = try #require(Int(line[line.index(after: space)...]))
      let frames = line[..<space].split(separator: ";").dropFirst().map(String.init)
      total += count
      for depth in 1...frames.count { expected[frames.prefix(depth).joined(separator: ";"), default: 0] += count }
    }
    let svg = try #require(section.components(separatedBy: "<svg class=\"flame\"").dropFirst().first)
    #expect(svg.contains("data-total=\"\(total)\""))
    var path: [String] = []
    var drawn: [String: (count: Int, width: Double)] = [:]
    let tokens = try NSRegularExpression(
      pattern:
        #"<g class="frame" data-label="([^"]*)" data-count="(\d+)"><rect x="[^"]*" y="[^"]*" width="([^"]*)"|</g>"#)
    for match in tokens.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)) {
      guard match.range(at: 1).location != NSNotFound, let label = Range(match.range(at: 1), in: svg),
        let count = Range(match.range(at: 2), in: svg), let width = Range(match.range(at: 3), in: svg)
      else {
        path.removeLast()
        continue
      }
      path.append(String(svg[label]).replacingOccurrences(of: "&amp;", with: "&"))
      drawn[path.dropFirst().joined(separator: ";")] = (Int(svg[count])!, Double(svg[width])!)
    }
    #expect(drawn[""]?.count == total)
    #expect(drawn.count == expected.count + 1, "\(drawn.keys.sorted()) against \(expected.keys.sorted())")
    for (stack, count) in expected {
      let frame = try #require(drawn[stack], "\(stack)")
      #expect(frame.count == count, "\(stack)")
      // Coordinates are written to a tenth.
      #expect(abs(frame.width - Double(count) / Double(total) * 1_000) <= 0.05 + 1e-9, "\(stack): \(frame.width)")
    }

    // Through a cache (one that already holds entries made without stacks), cold and warm, the page
    // is the same to the byte: the stacks are kept in the cache's entries.
    try withTemporaryDirectory { cacheDir in
      let cache = cacheDir.appendingPathComponent("cache").path
      _ = try CLIRunner.run(["diagnostics", dir.path, "--app-binary", "MyApp", "--cache", cache])
      for _ in 0..<2 {
        let cached = try CLIRunner.run(["report", dir.path, "--app-binary", "MyApp", "--cache", cache])
        #expect(cached.stdout == result.stdout)
      }
    }
  }

  @Test func stabilitySectionReadsEveryKindAndJudgesByTheBandsGiven() throws {
    try withTemporaryDirectory { dir in
      try StabilityScenario(.regression).write(to: dir.appendingPathComponent("dump"), seed: 7014)
      let page = dir.appendingPathComponent("report.html")
      let result = try CLIRunner.run([
        "report", dir.appendingPathComponent("dump").path, "--stability-band", "terminationRate=1:2", "-o", page.path,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let html = try String(contentsOf: page, encoding: .utf8)
      let section = try #require(
        html.components(separatedBy: "<section id=\"stability\">").dropFirst().first?
          .components(separatedBy: "</section>").first)
      // The kinds are read though no chart draws them; a rate of 1 per 1000 h is bad past 2.
      for version in [StabilityScenario.baseline, StabilityScenario.candidate] {
        let row = try #require(section.components(separatedBy: "<tr data-version=\"\(version)\">").dropFirst().first)
        let cells = row.prefix { $0 != "\n" }
        #expect(cells.contains("abnormal ") && !cells.contains("<td class=\"kinds\">none"), "\(cells)")
        #expect(cells.contains("<td class=\"rate bad\" title=\"bad\">"))
      }
      #expect(section.contains("termination rate needs attention above 1.00 per 1000 h, bad above 2.00 per 1000 h"))
      let refused = try CLIRunner.run(["report", "Samples/dump", "--stability-band", "terminationRate=40:20"])
      #expect(refused.status == 64)
      #expect(refused.stderr.contains("the band of terminationRate has its bad threshold 20.0 on the better side"))
    }
  }
}
