import Foundation
import PayloadSynthesis
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `metrics-report compare`, `snapshot`, `merge` and `rules`, run as a built binary.
@Suite("metrics-report compare")
struct CompareCommandTests {
  /// A dump with a baseline and a candidate drawn from the given profiles.
  static func dump(baseline: VersionProfile, candidate: VersionProfile, payloads: Int, seed: UInt64) throws -> URL {
    let dir = try TestDirectories.makeTemporary()
    _ = try SampleDump.write(
      to: dir, seed: seed, payloadsPerVersion: payloads, profiles: [baseline, candidate], malformed: false)
    return dir
  }

  static func profile(_ version: String, launch: Double = 420, hang: Double = 350) -> VersionProfile {
    VersionProfile(
      version: version, build: "1", launchMedian: launch, resumeMedian: 120, hangMedian: hang, peakMemoryMedian: 180,
      hitchMedian: 4)
  }

  static func flagged(_ json: [String: Any]) -> Set<String> {
    let results = json["results"] as? [[String: Any]] ?? []
    return Set(results.filter { $0["verdict"] as? String == "regression" }.compactMap { $0["metric"] as? String })
  }

  @Test func regressingSamplesExitOneAndNameTheMetric() throws {
    let result = try CLIRunner.run(["compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("Gate: FAIL — applicationLaunchMetrics.histogrammedTimeToFirstDraw p50"))
    let json = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json",
    ])
    #expect(json.status == 1)
    let object = try json.json()
    #expect(object["gate"] as? String == "fail")
    #expect(object["baseline"] as? String == "3.8.0")
    let results = try #require(object["results"] as? [[String: Any]])
    #expect(results.count == 13)
    for key in [
      "metric", "statistic", "unit", "baseline", "candidate", "change", "pValue", "qValue", "payloads", "verdict",
      "severity",
    ] {
      #expect(results.allSatisfy { $0[key] != nil }, "\(key)")
    }
    #expect(Self.flagged(object).contains("applicationLaunchMetrics.histogrammedTimeToFirstDraw"))
  }

  @Test func eachVerdictSaysWhyAndEachRuleItsThreshold() throws {
    // Pooled (the samples' versions share one device mix, so matching moves the numbers a little).
    let pooled = try #require(
      try CLIRunner.run([
        "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json", "--stratify",
        "none",
      ]).json()["results"] as? [[String: Any]])
    func reason(_ results: [[String: Any]], _ metric: String, _ statistic: String) -> String? {
      results.first { $0["metric"] as? String == metric && $0["statistic"] as? String == statistic }?["reason"]
        as? String
    }
    #expect(
      reason(pooled, "applicationLaunchMetrics.histogrammedTimeToFirstDraw", "p50")
        == "significant (q = 0.000604 < α 0.05) and +8.7% is past +5%")
    #expect(
      reason(pooled, "applicationLaunchMetrics.histogrammedApplicationResumeTime", "p90")
        == "significant (q = 0.0364 < α 0.05), but +8.1% is within +10%")
    // Hang rate +32.9% [−7.3, +90.5] against +10%: the data cannot tell.
    #expect(
      reason(pooled, "hangRate", "rate")
        == "not decided (q = 0.121): the 95% interval holds changes both ways, past +10%, and is wider than the band between the thresholds"
    )
    let result = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json",
    ])
    let results = try #require(try result.json()["results"] as? [[String: Any]])
    func reason(_ metric: String, _ statistic: String) -> String? { reason(results, metric, statistic) }
    // Each from the result's own q-value, change and thresholds (printed beside them below).
    #expect(
      reason("applicationLaunchMetrics.histogrammedTimeToFirstDraw", "p50")
        == "significant (q = 7.71e-05 < α 0.05) and +9.2% is past +5%")
    #expect(
      reason("applicationLaunchMetrics.histogrammedApplicationResumeTime", "p90")
        == "not significant (q = 0.104 ≥ α 0.05)")
    #expect(
      reason("diagnostics.crash", "rate") == "no diagnostics for one of the versions, or fewer than 20 payloads")
    for r in results {
      let q = r["verdict"] as? String == "improvement" ? r["qValueImprovement"] : r["qValue"]
      guard let q = q as? Double, let text = r["reason"] as? String else { continue }
      #expect(text.contains(String(format: "q = %.3g", q)) || !text.contains("q ="), "\(text) vs \(q)")
    }
    let text = try CLIRunner.run(["compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0"]).stdout
    #expect(text.contains("threshold"))
    #expect(text.contains("+10% and +0.1000 per 1000 h"))  // terminations: relative and absolute thresholds
    #expect(text.contains("new ≥ 3×"))
    // The confident decision says when the interval, not the point, kept a change from a verdict.
    let confident = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--decision", "confident", "--format",
      "json",
    ])
    let confidentResults = try #require(try confident.json()["results"] as? [[String: Any]])
    for r in confidentResults where r["verdict"] as? String == "regression" {
      #expect((r["reason"] as? String)?.hasSuffix(", the whole 95% interval too") == true)
    }
  }

  @Test func improvingSamplesPass() throws {
    let result = try CLIRunner.run(["compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.10.0"])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("Gate: PASS"))
  }

  @Test func sameDistributionPassesAndARealRegressionIsFlaggedExactly() throws {
    let clean = try Self.dump(baseline: Self.profile("1.0"), candidate: Self.profile("1.1"), payloads: 200, seed: 5)
    defer { try? FileManager.default.removeItem(at: clean) }
    let pass = try CLIRunner.run(["compare", clean.path, "--baseline", "1.0", "--candidate", "1.1", "--format", "json"])
    #expect(pass.status == 0)
    #expect(Self.flagged(try pass.json()).isEmpty)

    // Launch ~12% slower, hangs ~30% longer.
    let worse = try Self.dump(
      baseline: Self.profile("1.0"), candidate: Self.profile("1.1", launch: 470, hang: 455), payloads: 200, seed: 6)
    defer { try? FileManager.default.removeItem(at: worse) }
    let fail = try CLIRunner.run(["compare", worse.path, "--baseline", "1.0", "--candidate", "1.1", "--format", "json"])
    #expect(fail.status == 1)
    let flagged = Self.flagged(try fail.json())
    #expect(flagged.contains("applicationLaunchMetrics.histogrammedTimeToFirstDraw"))
    #expect(flagged.contains("applicationResponsivenessMetrics.histogrammedApplicationHangTime"))
    #expect(
      flagged.isSubset(of: [
        "applicationLaunchMetrics.histogrammedTimeToFirstDraw",
        "applicationResponsivenessMetrics.histogrammedApplicationHangTime", "hangRate",
      ]))

    // The rules are evaluated in parallel: the report is the same, byte for byte, on any number of
    // threads, with and without groups.
    for by in [[], ["--by", "deviceType"]] {
      let outputs = try ["1", "3"].map { threads in
        try CLIRunner.run(
          ["compare", worse.path, "--baseline", "1.0", "--candidate", "1.1", "--format", "json", "--threads", threads]
            + by
        ).stdout
      }
      #expect(outputs[0] == outputs[1], "\(by)")
      #expect(outputs[0].contains("\"regression\""), "\(by)")
    }
  }

  @Test func absentVersionOrBadRulesExitTwo() throws {
    let absent = try CLIRunner.run(["compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "9.9"])
    #expect(absent.status == 2)
    #expect(absent.stderr.contains("no payloads for version 9.9"))
    try withTemporaryDirectory { dir in
      let rules = dir.appendingPathComponent("rules.yml")
      try Data("rules:\n  - metric: hangRate\n    statistic: p90\n".utf8).write(to: rules)
      let bad = try CLIRunner.run([
        "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--rules", rules.path,
      ])
      #expect(bad.status == 2)
      #expect(bad.stderr.contains("rules.yml:3: rules[0].statistic"))
      #expect(try CLIRunner.run(["compare", "Samples/dump", "--candidate", "3.9.0"]).status == 64)
      for alpha in ["2", "0x0.1", "inf", "nan"] {
        let run = try CLIRunner.run([
          "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--alpha", alpha,
        ])
        #expect(run.status == 64, "--alpha \(alpha)")
      }
      for share in ["1.5", "-0.1", "0x0.1", "nan"] {
        let run = try CLIRunner.run([
          "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--max-left-out", share,
        ])
        #expect(run.status == 64, "--max-left-out \(share)")
      }
    }
  }

  @Test func maxLeftOutDecidesWhenWhatWasLeftOutMakesACleanVerdictInconclusive() throws {
    try withTemporaryDirectory { dir in
      // Over the overlap window, about 70% of each version's payloads are outside it: left out.
      try RolloutScenario(.osUpdate).write(to: dir, seed: 2024)
      func verdict(_ options: [String]) throws -> String? {
        let run = try CLIRunner.run(
          [
            "compare", dir.path, "--baseline", "6.1.0", "--candidate", "6.2.0", "--window", "overlap", "--format",
            "json",
          ]
            + options)
        let results = try #require(try run.json()["results"] as? [[String: Any]])
        return results.first { $0["metric"] as? String == "applicationLaunchMetrics.histogrammedTimeToFirstDraw" }?[
          "verdict"] as? String
      }
      #expect(try verdict([]) == "inconclusive")
      #expect(try verdict(["--max-left-out", "0.8"]) == "unchanged")
    }
  }

  @Test func junitParsesWithTheRightFailureCount() throws {
    let result = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "junit",
    ])
    #expect(result.status == 1)
    let document = try XMLDocument(xmlString: result.stdout)
    let cases = try document.nodes(forXPath: "//testcase")
    let failures = try document.nodes(forXPath: "//testcase/failure")
    #expect(cases.count == 13)
    #expect(failures.count == 3)
    let suite = try #require(try document.nodes(forXPath: "/testsuites").first as? XMLElement)
    #expect(suite.attribute(forName: "failures")?.stringValue == "3")
  }

  @Test func githubAnnotationsAndMarkdown() throws {
    let github = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "github",
    ])
    let errors = github.stdout.split(separator: "\n").filter { $0.hasPrefix("::error title=regression%3A ") }
    #expect(errors.count == 3)
    let markdown = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "markdown",
    ])
    #expect(markdown.stdout.hasPrefix("### ❌ MetricKit gate: fail — 3.9.0 vs 3.8.0"))
    #expect(markdown.stdout.contains("| ❌ | applicationLaunchMetrics.histogrammedTimeToFirstDraw | p90 |"))
  }

  /// Every format shows each rule's change with its 95% interval, the same numbers in each.
  @Test func everyFormatShowsTheChangeInterval() throws {
    func run(_ format: String, _ extra: [String] = []) throws -> String {
      try CLIRunner.run(
        ["compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", format] + extra
      ).stdout
    }
    let json = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json",
    ]).json()
    #expect(json["decision"] as? String == "significant")
    let results = try #require(json["results"] as? [[String: Any]])
    let p50 = try #require(results.first { $0["statistic"] as? String == "p50" })
    let interval = try #require(p50["changeInterval"] as? [Double])
    let change = try #require(p50["change"] as? Double)
    #expect(interval.count == 2 && interval[0] <= change && change <= interval[1])
    // Every reported change lies inside its interval (placed around it for per-payload intervals).
    for r in results {
      guard let c = r["change"] as? Double, let i = r["changeInterval"] as? [Double] else { continue }
      #expect(i[0] <= c && c <= i[1], "\(r["metric"] ?? "") \(r["statistic"] ?? "")")
    }
    #expect(results.filter { $0["changeInterval"] is [Double] }.count >= 10)
    #expect(p50["test"] as? String == "van-elteren")
    #expect(results.first { $0["metric"] as? String == "hangRate" }?["test"] as? String == "standardized-rate")
    let cell = String(format: "↑ %+.1f%% [%+.1f, %+.1f]", change * 100, interval[0] * 100, interval[1] * 100)
    #expect(try run("text").contains(cell), "\(cell)")
    #expect(try run("markdown").contains("| \(cell) |"))
    #expect(try run("junit").contains(cell))
    #expect(try run("github").contains(cell.replacingOccurrences(of: "%", with: "%25")))  // escaped as GitHub asks
    let om = try run("openmetrics")
    #expect(om.contains("metrickit_gate_rule_change_interval_ratio{") && om.contains(",bound=\"lower\"} "))
    // --decision confident: a launch rule regresses only if its whole interval is past +5%.
    let confident = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json", "--decision",
      "confident",
    ]).json()
    func launch(_ json: [String: Any]) -> [[String: Any]] {
      (json["results"] as? [[String: Any]] ?? []).filter {
        $0["metric"] as? String == "applicationLaunchMetrics.histogrammedTimeToFirstDraw"
      }
    }
    let significant = launch(json).map { $0["verdict"] as? String }
    #expect(significant == ["regression", "regression"])
    let expected = launch(json).map { r -> String? in
      guard let lower = (r["changeInterval"] as? [Double])?.first else { return nil }
      return lower > 0.05 ? "regression" : "unchanged"
    }
    #expect(launch(confident).map { $0["verdict"] as? String } == expected)
    #expect(expected.contains("unchanged"))  // the sample's intervals reach below +5%
    #expect(confident["decision"] as? String == "confident")
  }

  @Test func snapshotsMergeToTheSinglePassResult() throws {
    try withTemporaryDirectory { dir in
      let whole = dir.appendingPathComponent("whole.json").path
      #expect(
        try CLIRunner.run(["snapshot", "Samples/dump/v3.8.0", "--app-version", "3.8.0", "-o", whole]).status == 0)
      // Three disjoint shards of the same dump: single files, arrays, and the rest.
      let files = try FileManager.default.contentsOfDirectory(
        atPath: TestDirectories.packageRoot.appendingPathComponent("Samples/dump/v3.8.0").path
      ).sorted()
      let shards = [
        files.filter { $0.hasPrefix("payload-") }, files.filter { $0.hasPrefix("batch-") },
        files.filter { $0.hasPrefix("stream-") },
      ]
      #expect(shards.map(\.count).reduce(0, +) == files.count)
      var parts: [String] = []
      for (i, shard) in shards.enumerated() {
        let out = dir.appendingPathComponent("part\(i).json").path
        let result = try CLIRunner.run(
          ["snapshot"] + shard.map { "Samples/dump/v3.8.0/\($0)" } + ["--app-version", "3.8.0", "-o", out])
        #expect(result.status == 0)
        parts.append(out)
      }
      let merged = dir.appendingPathComponent("merged.json").path
      #expect(try CLIRunner.run(["merge"] + parts.reversed() + ["-o", merged]).status == 0)
      let a = try String(contentsOfFile: whole, encoding: .utf8)
      let b = try String(contentsOfFile: merged, encoding: .utf8)
      #expect(CLIRunner.withoutShards(a) == CLIRunner.withoutShards(b))
      #expect(CLIRunner.shardCount(a) == 1 && CLIRunner.shardCount(b) == parts.count)
      #expect(a.count > 10_000)

      // compare against the snapshot gives the same verdicts as against the dump.
      let viaSnapshot = try CLIRunner.run([
        "compare", "Samples/dump", "--baseline-file", merged, "--candidate", "3.9.0", "--format", "json",
      ])
      let viaDump = try CLIRunner.run([
        "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json",
      ])
      #expect(viaSnapshot.status == 1)
      let r1 = try #require(try viaSnapshot.json()["results"] as? [[String: Any]])
      let r2 = try #require(try viaDump.json()["results"] as? [[String: Any]])
      #expect(r1.map { $0["verdict"] as? String } == r2.map { $0["verdict"] as? String })
      #expect(r1.map { $0["qValue"] as? Double } == r2.map { $0["qValue"] as? Double })
      #expect(r1.map { $0["baseline"] as? Double } == r2.map { $0["baseline"] as? Double })

      let otherVersion = dir.appendingPathComponent("other.json").path
      _ = try CLIRunner.run(["snapshot", "Samples/dump", "--app-version", "3.9.0", "-o", otherVersion])
      // Both sides from snapshots: the same verdicts again, no dump needed.
      let bothSnapshots = try CLIRunner.run([
        "compare", "--baseline-file", merged, "--candidate-file", otherVersion, "--format", "json",
      ])
      #expect(bothSnapshots.status == 1)
      let r3 = try #require(try bothSnapshots.json()["results"] as? [[String: Any]])
      #expect(r3.map { $0["qValue"] as? Double } == r2.map { $0["qValue"] as? Double })
      #expect(r3.map { $0["candidate"] as? Double } == r2.map { $0["candidate"] as? Double })
      // Snapshots of two versions merge per version into one file of two documents, from which compare
      // takes the version it is told.
      let two = dir.appendingPathComponent("two.json").path
      let both = try CLIRunner.run(["merge", whole, otherVersion, "-o", two])
      #expect(both.status == 0, "\(both.stderr)")
      #expect(try String(contentsOfFile: two, encoding: .utf8).components(separatedBy: "\"kind\"").count == 3)
      let ambiguous = try CLIRunner.run(["compare", "--baseline-file", two, "--candidate-file", otherVersion])
      #expect(ambiguous.status == 2 && ambiguous.stderr.contains("holds snapshots of 2 versions"))
      let picked = try CLIRunner.run([
        "compare", "--baseline-file", two, "--baseline", "3.8.0", "--candidate-file", two, "--candidate", "3.9.0",
        "--format", "json",
      ])
      #expect(picked.status == 1)
      let r4 = try #require(try picked.json()["results"] as? [[String: Any]])
      #expect(r4.map { $0["qValue"] as? Double } == r2.map { $0["qValue"] as? Double })
    }
  }

  @Test func snapshotsFromStandardInputEqualSnapshotsFromFiles() throws {
    let directory = TestDirectories.packageRoot.appendingPathComponent("Samples/dump/v3.9.0")
    let shards = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".ndjson") }
      .sorted()
    #expect(shards.count >= 2)
    try withTemporaryDirectory { dir in
      // One snapshot per shard piped in, as Spark's RDD.pipe or xargs -P would run them, then merge.
      var parts: [String] = []
      for (i, shard) in shards.enumerated() {
        let out = dir.appendingPathComponent("part\(i).json").path
        let data = try Data(contentsOf: directory.appendingPathComponent(shard))
        let result = try CLIRunner.run(["snapshot", "--stdin", "--app-version", "3.9.0", "-o", out], input: data)
        #expect(result.status == 0, "\(result.stderr)")
        parts.append(out)
      }
      let merged = try CLIRunner.run(["merge"] + parts)
      let direct = try CLIRunner.run(
        ["snapshot"] + shards.map { "Samples/dump/v3.9.0/\($0)" } + ["--app-version", "3.9.0"])
      func withoutInputs(_ text: String) throws -> [String: Any] {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        object["inputs"] = nil
        object["shards"] = nil
        return object
      }
      let a = try withoutInputs(merged.stdout)
      let b = try withoutInputs(direct.stdout)
      #expect(NSDictionary(dictionary: a).isEqual(to: b))
      #expect((a["payloads"] as? Int ?? 0) > 5)
    }
  }

  @Test func rulesPrintDefaultsAndCheck() throws {
    let printed = try CLIRunner.run(["rules", "--print-defaults"])
    #expect(printed.status == 0)
    #expect(printed.stdout.contains("metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw"))
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("rules.yml")
      try Data(printed.stdout.utf8).write(to: file)
      let check = try CLIRunner.run(["rules", "--check", file.path])
      #expect(check.status == 0)
      #expect(check.stdout.contains("13 rules"))
    }
  }
}
