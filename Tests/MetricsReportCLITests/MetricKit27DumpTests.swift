import Foundation
import PayloadSynthesis
import TestSupport
import Testing

/// Dumps of MetricKit 27 reports (both encodings), legacy payloads, and a mix of the three: the same
/// device-days give the same bytes in every command and format.
@Suite("MetricKit 27 dumps")
struct MetricKit27DumpTests {
  /// Two versions, two devices, 120 days each; 4.1.0's launches in the `checkout` state are slower.
  static func days() -> [DeviceDayTwin] { DeviceDayTwin.rollout(daysPerVersion: 120, seed: 27) }

  /// The dumps, written once per test run (removed with the run's scratch folder).
  static let dumps: [String: URL] = {
    let root = TestDirectories.run.appendingPathComponent("metricKit27-dumps")
    let days = Self.days()
    let mixes: [(String, DeviceDayTwin.Mix)] = [
      ("legacy", .legacy), ("default", .metricKit27(.standard)),
      ("byDomain", .metricKit27(.byStateReportingDomain)), ("mixed", .mixed),
    ]
    var out: [String: URL] = [:]
    for (name, mix) in mixes {
      let dir = root.appendingPathComponent(name)
      try? DeviceDayTwin.write(days, mix: mix, to: dir)
      out[name] = dir
    }
    return out
  }()

  static let commands: [[String]] = [
    ["summary"], ["summary", "--format", "json"], ["summary", "--by", "deviceType", "--format", "markdown"],
    ["compare", "--baseline", "4.0.0", "--candidate", "4.1.0"],
    ["compare", "--baseline", "4.0.0", "--candidate", "4.1.0", "--format", "json"],
    [
      "trend", "--metric", "applicationLaunchMetrics.histogrammedTimeToFirstDraw", "--metric", "hangRate",
      "--metric", "signpost:Network/loadFeed", "--interval", "week", "--format", "csv",
    ],
    ["export", "--to", "openmetrics"], ["export", "--to", "otlp-json", "--interval", "day"],
    ["diagnostics"], ["diagnostics", "--format", "json"],
  ]

  @Test(arguments: commands)
  func everyEncodingGivesTheLegacyDumpsBytes(command: [String]) throws {
    let dumps = Self.dumps
    let legacy = try CLIRunner.run([command[0], dumps["legacy"]!.path] + command.dropFirst())
    #expect(legacy.status == 0 || legacy.status == 1, "\(legacy.stderr)")
    #expect(legacy.stdout.count > 200)
    for name in ["default", "byDomain", "mixed"] {
      let other = try CLIRunner.run([command[0], dumps[name]!.path] + command.dropFirst())
      #expect(other.status == legacy.status, "\(name): \(other.stderr)")
      #expect(other.stdout == legacy.stdout, "\(name) differs from legacy in \(command)")
    }
  }

  @Test func theNumbersAreTheDaysAndNothingIsUnknown() throws {
    let r = try CLIRunner.run(["summary", Self.dumps["mixed"]!.path, "--format", "json"])
    let json = try r.json()
    let inputs = try #require(json["inputs"] as? [String: Any])
    #expect(inputs["unknownKeys"] as? [String: Int] == [:])
    // Payloads counted: days not spanning an update.
    let days = Self.days()
    #expect(inputs["payloads"] as? Int == days.count)
    #expect(inputs["counted"] as? Int == days.filter { !$0.multipleVersions }.count)
    // The launch count of 4.0.0: every bucket of its full-day entries, none of the shorter entries'.
    let versions = try #require(json["versions"] as? [[String: Any]])
    let v400 = try #require(versions.first { $0["version"] as? String == "4.0.0" })
    let metrics = try #require(v400["metrics"] as? [[String: Any]])
    let launch = try #require(
      metrics.first { $0["metric"] as? String == "applicationLaunchMetrics.histogrammedTimeToFirstDraw" })
    let expected = days.filter { $0.version == "4.0.0" && !$0.multipleVersions }.flatMap(\.launches).reduce(0) {
      $0 + $1.count
    }
    #expect(launch["count"] as? Int == expected)
    // Memory-exception diagnostics are a kind of their own.
    let diagnostics = try CLIRunner.run(["diagnostics", Self.dumps["default"]!.path, "--format", "json"]).json()
    let text = String(describing: diagnostics)
    #expect(text.contains("memoryException"))
  }

  @Test func unknownKeysAreCountedAndListed() throws {
    try withTemporaryDirectory { dir in
      var rng = SplitMix64(seed: 1)
      var report = DeviceDayTwin.make(version: "1.0", device: 0, day: 0, rng: &rng).report(.standard)
      var entries = report["intervalEntries"] as! [[String: Any]]
      var values = entries[1]["values"] as! [[String: Any]]
      values.append(["networkTransferMetric": ["wifiDownload": ["value": 60, "unit": "MB"]]])
      values.append(["cpuTimeMetric": ["value": ["value": 3, "unit": "s"], "newMember": 1]])
      entries[1]["values"] = values
      report["intervalEntries"] = entries
      report["futureTopLevel"] = ["x": 1]
      for i in 0..<2 {
        try JSONSerialization.data(withJSONObject: report).write(to: dir.appendingPathComponent("r\(i).json"))
      }
      let r = try CLIRunner.run(["summary", dir.path, "--format", "json"])
      #expect(r.status == 0, "\(r.stderr)")
      let inputs = try #require(try r.json()["inputs"] as? [String: Any])
      #expect(
        inputs["unknownKeys"] as? [String: Int] == [
          "MetricReport.futureTopLevel": 2, "MetricResult.networkTransferMetric": 2,
          "MetricResult.cpuTimeMetric.newMember": 2,
        ])
      let text = try CLIRunner.run(["summary", dir.path])
      #expect(text.stdout.contains("Unknown keys (read past, not used): "), "\(text.stdout)")
      #expect(text.stdout.contains("MetricResult.networkTransferMetric ×2"))
      // The report page says so too.
      let page = dir.appendingPathComponent("page.html")
      let rendered = try CLIRunner.run(["report", dir.path, "-o", page.path])
      #expect(rendered.status == 0, "\(rendered.stderr)")
      let html = try String(contentsOf: page, encoding: .utf8)
      #expect(
        html.contains("Unknown keys (read past, not used): ") && html.contains("MetricResult.networkTransferMetric ×2"))
    }
  }

  /// The launch p90 rule's verdict per group of a JSON comparison.
  static func verdicts(_ json: [String: Any]) -> [String: String] {
    var out: [String: String] = [:]
    for r in json["results"] as? [[String: Any]] ?? [] {
      guard r["metric"] as? String == "applicationLaunchMetrics.histogrammedTimeToFirstDraw",
        r["statistic"] as? String == "p90"
      else { continue }
      let group = (r["by"] as? [String: String])?.values.first ?? "(version)"
      out[group] = r["verdict"] as? String
    }
    return out
  }

  @Test func byStateFindsTheOneStateThatRegressed() throws {
    for name in ["default", "byDomain", "mixed"] {
      let r = try CLIRunner.run([
        "compare", Self.dumps[name]!.path, "--baseline", "4.0.0", "--candidate", "4.1.0", "--by",
        "state:com.example.shop.screen", "--format", "json",
      ])
      #expect(r.status == 1, "\(r.stderr)")
      var verdicts = Self.verdicts(try r.json())
      // The mixed dump's legacy days report no state: a group of their own, with every state's days.
      #expect((verdicts.removeValue(forKey: "(unknown)") != nil) == (name == "mixed"))
      // Only checkout regressed; the others are not (their small groups can leave them inconclusive).
      #expect(verdicts.keys.sorted() == ["browse", "checkout", "search"], "\(name)")
      #expect(verdicts.filter { $0.value == "regression" }.keys.sorted() == ["checkout"], "\(name): \(verdicts)")
      #expect(verdicts.values.allSatisfy { ["regression", "unchanged", "inconclusive"].contains($0) }, "\(name)")
    }
    // Legacy payloads report no state: one group, (unknown).
    let legacy = try CLIRunner.run(["summary", Self.dumps["legacy"]!.path, "--by", "state", "--format", "json"])
    let groups = (try legacy.json()["versions"] as? [[String: Any]] ?? []).compactMap {
      ($0["by"] as? [String: String])?["state"]
    }
    #expect(Set(groups) == ["(unknown)"])
    // Across domains, the group names its domain.
    let all = try CLIRunner.run(["summary", Self.dumps["default"]!.path, "--by", "state"])
    #expect(all.stdout.contains("state com.example.shop.screen:checkout"), "\(all.stdout.prefix(400))")
  }

  @Test func aRuleOnOneStateGatesThatStateAlone() throws {
    try withTemporaryDirectory { dir in
      let rules = dir.appendingPathComponent("rules.yml")
      try Data(
        """
        rules:
          - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw
            statistic: p90
            maxIncrease: "20%"
          - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw
            statistic: p90
            maxIncrease: "10%"
            where: {"state:com.example.shop.screen": checkout}
          - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw
            statistic: p90
            maxIncrease: "10%"
            where: {"state:com.example.shop.screen": browse}
          - metric: diagnostics.memoryException
            statistic: rate
        """.utf8
      ).write(to: rules)
      let r = try CLIRunner.run([
        "compare", Self.dumps["mixed"]!.path, "--baseline", "4.0.0", "--candidate", "4.1.0", "--rules", rules.path,
        "--format", "json",
      ])
      #expect(r.status == 1, "\(r.stderr)")
      let json = try r.json()
      #expect(Self.verdicts(json) == ["(version)": "unchanged", "checkout": "regression", "browse": "unchanged"])
      let memory = (json["results"] as? [[String: Any]] ?? []).first {
        $0["metric"] as? String == "diagnostics.memoryException"
      }
      let expected = Self.days().filter { $0.version == "4.0.0" }.flatMap(\.events).filter {
        $0.kind == "memoryException"
      }
      #expect(memory?["verdict"] as? String == "unchanged")
      #expect(!expected.isEmpty)
      // A rule on a diagnostic's group, or on an unknown key, is refused naming the field.
      for (bad, message) in [
        ("    where: {state: checkout}\n", "diagnostics are not grouped"),
        ("    where: {tab: checkout}\n", "'tab' is not a grouping key"),
      ] {
        try Data("rules:\n  - metric: diagnostics.crash\n\(bad)".utf8).write(to: rules)
        let refused = try CLIRunner.run(["rules", "--check", rules.path])
        #expect(refused.status == 2 && refused.stderr.contains(message), "\(refused.stderr)")
      }
    }
  }

  @Test func statesExportAsLabelsPrometheusAccepts() throws {
    let dump = Self.dumps["default"]!.path
    for arguments in [
      ["export", dump, "--to", "openmetrics", "--by", "state:com.example.shop.screen"],
      [
        "compare", dump, "--baseline", "4.0.0", "--candidate", "4.1.0", "--by", "state:com.example.shop.screen",
        "--format", "openmetrics",
      ],
    ] {
      let exposition = try CLIRunner.run(arguments)
      #expect(exposition.stdout.contains("state=\"checkout\",state_domain=\"com.example.shop.screen\""))
      guard let promtool = ExportCommandTests.tool("promtool", flag: "--prometheus") else { continue }
      let check = try ExportCommandTests.run(promtool, ["check", "metrics"], input: Data(exposition.stdout.utf8))
      #expect(check.status == 0 && check.stderr.isEmpty, "\(arguments): \(check.stdout)\(check.stderr)")
    }
  }

  @Test func withinDayReadsTheShorterEntriesAlone() throws {
    let r = try CLIRunner.run(["summary", Self.dumps["default"]!.path, "--within-day", "--format", "json"])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try r.json()
    let days = Self.days().filter { !$0.multipleVersions }
    #expect((json["inputs"] as? [String: Any])?["subIntervalEntries"] as? Int == days.count)
    for version in ["4.0.0", "4.1.0"] {
      // Each report's one shorter entry: its launch histogram is the day's first bucket, its CPU time half the day's.
      let ofVersion = days.filter { $0.version == version }
      let entry = (json["versions"] as? [[String: Any]] ?? []).first { $0["version"] as? String == version }
      #expect(entry?["payloads"] as? Int == ofVersion.count)
      let metrics = entry?["metrics"] as? [[String: Any]] ?? []
      let launch = metrics.first { $0["metric"] as? String == "applicationLaunchMetrics.histogrammedTimeToFirstDraw" }
      #expect(launch?["count"] as? Int == ofVersion.reduce(0) { $0 + $1.launches[0].count })
      let cpu = metrics.first { $0["metric"] as? String == "cpuMetrics.cumulativeCPUTime" }
      let expected = Double(ofVersion.reduce(0) { $0 + $1.cpuSeconds / 2 }) / Double(ofVersion.count)
      #expect(abs((cpu?["mean"] as? Double ?? 0) - expected) < 1e-9)
    }
    let text = try CLIRunner.run(["summary", Self.dumps["default"]!.path, "--within-day"])
    #expect(text.stdout.contains("Within the day: \(days.count) shorter interval entries"))
  }
}
