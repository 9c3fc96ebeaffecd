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
      for section in ["overview", "adoption", "trends", "distributions", "gate"] {
        #expect(html.contains("<section id=\"\(section)\">"), "no \(section) section")
      }
      #expect(!html.contains("<section id=\"diagnostics\">"))  // the samples hold no diagnostics
      // Deterministic: no clock, sorted series, fixed number formatting.
      try CLIRunner.expectGolden(html, "samples-report.html")
      // The adoption chart and the eight default trend charts.
      #expect(Self.count("data-chart=\"", in: html) == 9)
      #expect(html.contains("184 read = 168 counted + 12 excluded + 4 rejected + 0 not metric payloads"))
      #expect(html.contains("per week"))  // about one payload a day per version: weeks are the typical point
      // The gate table is compare's: same rules, same verdicts, same order.
      let compare = try CLIRunner.run([
        "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json",
      ])
      let results = try #require(try compare.json()["results"] as? [[String: Any]])
      let gate = try #require(
        html.components(separatedBy: "<table class=\"gate\">").last?.components(separatedBy: "</table>").first)
      let verdicts = gate.components(separatedBy: "<span class=\"verdict\">").dropFirst().map {
        String($0.prefix { $0 != "<" })
      }
      #expect(verdicts.count == results.count)
      for (verdict, r) in zip(verdicts, results) {
        #expect(verdict.hasPrefix(r["verdict"] as? String ?? "?"))
      }
      #expect(html.contains("Gate: <b>\((try compare.json()["gate"] as? String ?? "?").uppercased())</b>"))
      // Rules link to the chart of their metric.
      #expect(html.contains("<a href=\"#chart-1\">applicationLaunchMetrics.histogrammedTimeToFirstDraw"))
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
      let rows = gate.components(separatedBy: "<tr class=").dropFirst()
      #expect(rows.count == results.count)
      // Row for row, the page's gate is compare's: the rule (with its group), the verdict and the reason.
      for (row, r) in zip(rows, results) {
        let group =
          ((r["by"] as? [String: String])?.values.first).map { " [state:com.example.shop.screen \($0)]" } ?? ""
        let name = "\(r["metric"] as? String ?? "") \(r["statistic"] as? String ?? "")\(group)"
        #expect(row.contains(name), "\(name)")
        #expect(row.contains("<span class=\"verdict\">\(r["verdict"] as? String ?? "?")"))
        let reason = (r["reason"] as? String ?? "?").replacingOccurrences(of: "<", with: "&lt;")
        #expect(row.contains("<td class=\"why\">\(reason)</td>"), "\(reason)")
      }
      let regressed = results.filter { $0["verdict"] as? String == "regression" }
      #expect(regressed.contains { ($0["by"] as? [String: String])?.values.first == "checkout" })
      #expect(html.contains("Gate: <b>FAIL</b>"))
      // The regressed group's rule links to its chart.
      #expect(
        gate.contains(
          "<a href=\"#chart-1\">applicationLaunchMetrics.histogrammedTimeToFirstDraw p90 [state:com.example.shop.screen checkout]"
        ))
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

  @Test func diagnosticsSectionCountsKindsAndSignatures() throws {
    let dir = try DiagnosticsCommandTests.mixedDump()
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try CLIRunner.run(["report", dir.path, "--app-binary", "MyApp"])
    #expect(result.status == 0, "\(result.stderr)")
    let section = try #require(result.stdout.components(separatedBy: "<section id=\"diagnostics\">").last)
    // 30 crashes of 1.0; 35 crashes and a hang of 2.0 (mixedDump), in the kinds' column order.
    #expect(section.contains("<tr><td>1.0</td><td class=\"num\">30</td><td class=\"num\">30</td>"))
    #expect(
      section.contains("<tr><td>2.0</td><td class=\"num\">30</td><td class=\"num\">35</td><td class=\"num\">1</td>"))
    #expect(section.contains("MyApp"))
  }
}
