import Foundation
import TestSupport
import Testing

/// `--organizer` on summary, trend and compare, and `organizer show`: Apple's numbers beside the
/// sample dump's, checked against the summary's own numbers and Apple's fixture values.
@Suite("Organizer commands")
struct OrganizerCommandTests {
  static let launch = "applicationLaunchMetrics.histogrammedTimeToFirstDraw"

  /// The rows of a JSON report's `organizer` member, by "version metric statistic".
  static func rows(_ json: [String: Any]) throws -> [String: [String: Any]] {
    let organizer = try #require(json["organizer"] as? [String: Any])
    let rows = try #require(organizer["rows"] as? [[String: Any]])
    return Dictionary(
      uniqueKeysWithValues: rows.map { ("\($0["version"] ?? "") \($0["metric"] ?? "") \($0["statistic"] ?? "")", $0) })
  }

  @Test func summaryPutsApplesNumbersBesideTheSummarysOwn() throws {
    let result = try CLIRunner.run(["summary", "Samples/dump", "--organizer", "Samples/organizer", "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try result.json()
    let rows = try Self.rows(json)
    // 3 versions × (launch, memory, writes, hang rate, scroll hitches: p50 and p90; terminations: mean).
    #expect(rows.count == 33)
    let versions = try #require(json["versions"] as? [[String: Any]])
    for version in ["3.8.0", "3.9.0", "3.10.0"] {
      let metrics = try #require(versions.first { $0["version"] as? String == version }?["metrics"] as? [[String: Any]])
      let launch = try #require(metrics.first { $0["metric"] as? String == Self.launch })
      let memory = try #require(metrics.first { $0["metric"] as? String == "memoryMetrics.peakMemoryUsage" })
      for p in ["p50", "p90"] {
        let row = try #require(rows["\(version) \(Self.launch) \(p)"])
        // Ours is the summary's percentile and bracket; the difference is ours minus Apple's.
        let ours = try #require(row["ours"] as? Double)
        let apple = try #require(row["apple"] as? Double)
        #expect(ours == launch[p] as? Double)
        let bounds = try #require(row["bounds"] as? [Double])
        #expect(bounds == (launch["bounds"] as? [String: [Double]])?[p])
        #expect(abs((row["difference"] as? Double ?? .nan) - (ours - apple)) < 1e-9)
        #expect(row["appleInsideBounds"] as? Bool == (bounds[0] <= apple && apple <= bounds[1]))
        #expect(row["unit"] as? String == "ms" && row["comparability"] as? String == "same")
        let memoryRow = try #require(rows["\(version) memoryMetrics.peakMemoryUsage \(p)"])
        #expect(memoryRow["ours"] as? Double == memory[p] as? Double)
        #expect(memoryRow["bounds"] is NSNull && memoryRow["appleInsideBounds"] is NSNull)
      }
    }
    // Apple's values are the fixture's: the app response's, the build response's duplicate ignored.
    #expect(rows["3.9.0 \(Self.launch) p50"]?["apple"] as? Double == 462.1)
    #expect(rows["3.9.0 \(Self.launch) p90"]?["appleGoal"] as? String == "fair")
    #expect(rows["3.8.0 hangRate p90"]?["apple"] as? Double == 2.7)
    #expect(
      rows["3.10.0 applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount mean"]?["apple"] as? Double
        == 0.33)
    let organizer = try #require(json["organizer"] as? [String: Any])
    #expect(organizer["notCompared"] as? [String] == ["BATTERY onScreenBatteryUsage (%/day): no counterpart here"])
    let notes = try #require(organizer["notes"] as? [String])
    #expect(notes.contains("versions only Apple has: 3.7.0"))
    #expect(notes.contains { $0.contains("all_ipads") })
    let goals = try #require((organizer["goals"] as? [String: [[String: Any]]])?[Self.launch])
    #expect(goals.map { $0["goal"] as? String } == ["good", "fair", "poor"])
    #expect(goals.last?["upper"] is NSNull)
  }

  @Test func summaryTextAndMarkdownShowTheTable() throws {
    let text = try CLIRunner.run([
      "summary", "Samples/dump", "--organizer", "Samples/organizer", "--metric", Self.launch, "--metric", "hangRate",
    ])
    #expect(text.status == 0)
    try CLIRunner.expectGolden(text.stdout, "summary-organizer.txt")
    let markdown = try CLIRunner.run([
      "summary", "Samples/dump", "--organizer", "Samples/organizer/app-perfPowerMetrics.json", "--format", "markdown",
      "--organizer-device", "all_ipads", "--metric", Self.launch,
    ])
    #expect(markdown.status == 0)
    #expect(markdown.stdout.contains("## Apple's Organizer beside the dump (all\\_ipads)"))
    #expect(markdown.stdout.contains("| 3.9.0 | \(Self.launch) | p50 | ms | 548 | 457 |"))
  }

  @Test func badResponsesAndFormatsAreRefused() throws {
    try withTemporaryDirectory { directory in
      let bad = directory.appendingPathComponent("bad.json")
      try Data(
        #"{"productData": [{"metricCategories": [{"identifier": "LAUNCH", "metrics": [{"identifier": "launchTime", "datasets": [{"points": [{"version": "1", "value": "fast"}]}]}]}]}]}"#
          .utf8
      ).write(to: bad)
      let result = try CLIRunner.run(["summary", "Samples/dump", "--organizer", bad.path])
      #expect(result.status == 2)
      #expect(
        result.stderr.contains(
          "bad.json: at productData[0].metricCategories[0].metrics[0].datasets[0].points[0].value: expected a number, found \"fast\""
        ),
        "\(result.stderr)")
      #expect(result.stdout.isEmpty)
      let csv = try CLIRunner.run(["summary", "Samples/dump", "--organizer", "Samples/organizer", "--format", "csv"])
      #expect(csv.status == 64 && csv.stderr.contains("not to csv"))
      let show = try CLIRunner.run(["organizer", "show", bad.path])
      #expect(show.status == 2 && show.stderr.contains("bad.json"))
    }
  }

  @Test func trendComparesTheWholeVersionsOfTheMetricsAsked() throws {
    let result = try CLIRunner.run([
      "trend", "Samples/dump", "--metric", Self.launch, "--interval", "week", "--organizer", "Samples/organizer",
      "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try result.json()
    let rows = try Self.rows(json)
    #expect(rows.count == 6)
    #expect(rows.values.allSatisfy { $0["metric"] as? String == Self.launch })
    let summary = try CLIRunner.run(["summary", "Samples/dump", "--metric", Self.launch, "--format", "json"]).json()
    let version = try #require(
      (summary["versions"] as? [[String: Any]])?.first { $0["version"] as? String == "3.10.0" })
    let launch = try #require((version["metrics"] as? [[String: Any]])?.first)
    #expect(rows["3.10.0 \(Self.launch) p90"]?["ours"] as? Double == launch["p90"] as? Double)
    #expect(!((json["series"] as? [Any]) ?? []).isEmpty)
  }

  @Test func compareListsApplesRegressionsBesideOurs() throws {
    let result = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--organizer", "Samples/organizer",
      "--format", "json",
    ])
    #expect(result.status == 1)  // our own launch-time regression fails the gate
    let json = try result.json()
    let organizer = try #require(json["organizer"] as? [String: Any])
    #expect(organizer["severity"] as? String == "info" && organizer["failsGate"] as? Bool == false)
    let insights = try #require(organizer["insights"] as? [[String: Any]])
    let agreement = Dictionary(uniqueKeysWithValues: insights.map { ($0["appleMetric"] as? String ?? "", $0) })
    #expect(agreement["LAUNCH launchTime"]?["agreement"] as? String == "both")
    #expect((agreement["LAUNCH launchTime"]?["verdicts"] as? [String])?.contains("p50 regression") == true)
    #expect(agreement["HANG hangRate"]?["agreement"] as? String == "only-apple")
    #expect(agreement["HANG hangRate"]?["verdicts"] as? [String] == ["rate inconclusive"])
    #expect(insights.count == 2)  // the trend for 3.10.0 and the app response's other versions are not the candidate's

    let github = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--organizer", "Samples/organizer",
      "--format", "github",
    ])
    #expect(github.stdout.contains("::warning title=Apple's Organizer::only-apple: HANG hangRate (hangRate)"))
  }

  @Test func aRuleFileCanFailTheGateOnApplesRegressions() throws {
    try withTemporaryDirectory { directory in
      func rules(_ extra: String) throws -> String {
        let path = directory.appendingPathComponent("rules-\(extra.count).yaml")
        try Data("rules:\n  - metric: memoryMetrics.peakMemoryUsage\n    statistic: p50\n\(extra)".utf8).write(to: path)
        return path.path
      }
      let arguments = [
        "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--organizer", "Samples/organizer",
      ]
      let informational = try CLIRunner.run(arguments + ["--rules", try rules("")])
      #expect(informational.status == 0, "\(informational.stdout)")
      #expect(informational.stdout.contains("Apple's regression insights for 3.9.0 (for information):"))
      let failing = try CLIRunner.run(
        arguments + ["--rules", try rules("organizer:\n  regressions: error\n"), "--format", "json"])
      #expect(failing.status == 1)
      let json = try failing.json()
      #expect(json["gate"] as? String == "fail")
      #expect((json["organizer"] as? [String: Any])?["failsGate"] as? Bool == true)
      let junit = try CLIRunner.run(
        arguments + ["--rules", try rules("organizer:\n  regressions: error\n"), "--format", "junit"])
      #expect(junit.stdout.contains(#"<testcase classname="metrics-report.organizer""#))
      #expect(junit.stdout.contains(#"<failure type="organizer" message="2 regressions">"#))
      let unknown = try CLIRunner.run(arguments + ["--rules", try rules("organizer:\n  regresions: error\n")])
      #expect(unknown.status == 2 && unknown.stderr.contains("organizer.regresions"), "\(unknown.stderr)")
    }
  }

  @Test func showReadsEverySavedResponse() throws {
    let result = try CLIRunner.run(["organizer", "show", "Samples/organizer"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("LAUNCH launchTime (ms) ↔ \(Self.launch)"))
    #expect(result.stdout.contains("goal good: 0 to 500"))
    #expect(result.stdout.contains("HANGS  62.0%  FeedKit: FeedStore.reload() + 212"))
    #expect(result.stdout.contains("Apple's trending up:"))
  }
}
