import Foundation
import PayloadSynthesis
import TestSupport
import Testing

/// `metrics-report summary`, run as a built binary on Samples/ and on fresh dumps.
@Suite("metrics-report summary")
struct SummaryCommandTests {
  @Test func jsonOnSamplesFollowsTheContract() throws {
    let result = try CLIRunner.run(["summary", "Samples/dump", "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try result.json()
    #expect(json["schemaVersion"] as? Int == 1)
    let inputs = try #require(json["inputs"] as? [String: Any])
    #expect(inputs["files"] as? Int == 112)
    #expect(inputs["payloads"] as? Int == 180)
    #expect(inputs["counted"] as? Int == 168)
    let excluded = try #require(inputs["excluded"] as? [String: Int])
    #expect(excluded == ["multipleAppVersions": 12, "version": 0, "filter": 0])
    let rejected = try #require(inputs["rejected"] as? [[String: Any]])
    #expect(rejected.count == 4)
    #expect(rejected.allSatisfy { ($0["path"] as? String)?.hasPrefix("Samples/dump/malformed/") == true })
    #expect(rejected.allSatisfy { !(($0["reason"] as? String) ?? "").isEmpty })
    // Rejections are listed on stderr too.
    #expect(result.stderr.components(separatedBy: "rejected: ").count - 1 == 4)

    let versions = try #require(json["versions"] as? [[String: Any]])
    #expect(versions.map { $0["version"] as? String } == ["3.8.0", "3.9.0", "3.10.0"])
    #expect(versions.map { $0["payloads"] as? Int }.reduce(0) { $0 + ($1 ?? 0) } == 168)
    let metrics = try #require(versions[1]["metrics"] as? [[String: Any]])
    let launch = try #require(
      metrics.first { $0["metric"] as? String == "applicationLaunchMetrics.histogrammedTimeToFirstDraw" })
    #expect(launch["unit"] as? String == "ms")
    for key in ["count", "mean", "p50", "p90", "p95", "p99", "bounds"] { #expect(launch[key] != nil, "\(key)") }
    let bounds = try #require(launch["bounds"] as? [String: [Double]])
    let p90 = try #require(launch["p90"] as? Double)
    #expect(bounds["p90"]![0] <= p90 && p90 <= bounds["p90"]![1])
    let memory = try #require(metrics.first { $0["metric"] as? String == "memoryMetrics.peakMemoryUsage" })
    #expect(memory["unit"] as? String == "MB")
    #expect(memory["count"] as? Int == 56)
    let hang = try #require(metrics.first { $0["metric"] as? String == "hangRate" })
    #expect(hang["unit"] as? String == "s/h")
    #expect((hang["value"] as? Double ?? 0) > 0)
    #expect(!result.stdout.contains("NaN") && !result.stdout.contains("nan"))
  }

  @Test func threadsHelpSaysAllCoresNotThisMachinesCount() throws {
    let help = try CLIRunner.run(["summary", "--help"])
    #expect(help.status == 0)
    let line = help.stdout.split(separator: "\n").first { $0.contains("--threads") }.map(String.init) ?? ""
    #expect(line.contains("--threads <n>"), "\(help.stdout)")
    #expect(help.stdout.components(separatedBy: "(default: all cores)").count == 2, "\(help.stdout)")
    #expect(!help.stdout.contains("(default: \(ProcessInfo.processInfo.activeProcessorCount))"), "\(help.stdout)")
    let zero = try CLIRunner.run(["summary", "Samples/dump", "--threads", "0"])
    #expect(zero.status == 64 && zero.stderr.contains("--threads takes a number from 1 to 256."), "\(zero.stderr)")
  }

  @Test func jsonMatchesTheGoldenFile() throws {
    let result = try CLIRunner.run(["summary", "Samples/dump", "--format", "json"])
    try CLIRunner.expectGolden(result.stdout, "samples-summary.json")
  }

  @Test func textMarkdownAndCSV() throws {
    let text = try CLIRunner.run(["summary", "Samples/dump", "--metric", "applicationLaunchMetrics.*"])
    #expect(text.status == 0)
    #expect(text.stdout.contains("Version 3.9.0 — 56 payloads"))
    #expect(text.stdout.contains("applicationLaunchMetrics.histogrammedTimeToFirstDraw"))
    #expect(!text.stdout.contains("memoryMetrics"))
    #expect(text.stdout.contains("excluded: 12 multipleAppVersions; 4 rejected"))

    let markdown = try CLIRunner.run(["summary", "Samples/dump", "--format", "markdown", "--percentiles", "50,99.9"])
    #expect(markdown.stdout.contains("| Metric | Unit | Count | mean | p50 | p99.9 |"))
    #expect(markdown.stdout.contains("## 3.10.0 (56 payloads)"))

    let csv = try CLIRunner.run([
      "summary", "Samples/dump", "--format", "csv", "--metric", "hangRate", "--metric", "memoryMetrics.peakMemoryUsage",
    ])
    let lines = csv.stdout.split(separator: "\n")
    #expect(lines.first == "version,metric,unit,count,payloads,mean,p50,p90,p95,p99,value")
    #expect(lines.count == 1 + 3 * 2)
  }

  @Test func outputFileAndFilters() throws {
    try withTemporaryDirectory { dir in
      let out = dir.appendingPathComponent("report.json").path
      let result = try CLIRunner.run([
        "summary", "Samples/dump", "--format", "json", "-o", out, "--app-version", "3.9.0",
        "--include-multiple-versions",
      ])
      #expect(result.status == 0)
      #expect(result.stdout.isEmpty)
      let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
      let inputs = json?["inputs"] as? [String: Any]
      let excluded = inputs?["excluded"] as? [String: Int]
      #expect(excluded?["version"] == 120)
      #expect(excluded?["multipleAppVersions"] == 0)
      let versions = json?["versions"] as? [[String: Any]]
      #expect(versions?.count == 1)
      #expect(versions?.first?["payloads"] as? Int == 60)  // 56 + 4 attributed to their latest version
    }
  }

  @Test func exitCodes() throws {
    #expect(try CLIRunner.run(["summary", "Samples/dump", "--app-version", "9.9.9"]).status == 2)
    let strict = try CLIRunner.run(["summary", "Samples/dump", "--strict"])
    #expect(strict.status == 2)
    #expect(strict.stderr.contains("--strict"))
    #expect(try CLIRunner.run(["summary", "Samples/dump/v3.9.0", "--strict", "--format", "json"]).status == 0)
    #expect(try CLIRunner.run(["summary", "no/such/dir"]).status == 64)
    #expect(try CLIRunner.run(["summary", "Samples/dump", "--percentiles", "0,50"]).status == 64)
    #expect(try CLIRunner.run(["summary", "Samples/dump", "--metric", "launchTime"]).status == 64)
    #expect(try CLIRunner.run(["summary", "Samples/dump", "--estimator", "median"]).status == 64)
    #expect(try CLIRunner.run(["summary"]).status == 64)
    #expect(try CLIRunner.run(["summary", "Samples/dump", "--utc-offset", "CET"]).status == 64)
  }

  /// A fresh dump with its own seed: counted exactly, malformed files listed, exit 0.
  @Test func freshDumpEndToEnd() throws {
    try withTemporaryDirectory { dir in
      let dump = try SampleDump.write(to: dir, seed: 31_337, payloadsPerVersion: 25)
      let result = try CLIRunner.run(["summary", dir.path, "--format", "json"])
      #expect(result.status == 0)
      let inputs = try #require(try result.json()["inputs"] as? [String: Any])
      #expect(inputs["payloads"] as? Int == dump.payloads.count)
      #expect(inputs["counted"] as? Int == dump.payloads.filter { !$0.multipleVersions }.count)
      #expect((inputs["rejected"] as? [Any])?.count == dump.malformedFiles.count)
    }
  }
}

extension SummaryCommandTests {
  /// `aws s3 cp s3://…/dump.ndjson.gz - | metrics-report summary --stdin`: gzip on standard input is
  /// recognized by its first bytes and inflated as it comes (ISA-L), to the very numbers of the
  /// plain NDJSON; a cut gzip stream is a rejection that says so.
  @Test func gzipOnStandardInputReadsAsThePlainNDJSON() throws {
    let directory = TestDirectories.packageRoot.appendingPathComponent("Samples/dump/v3.9.0")
    let shards = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".ndjson") }
      .sorted()
    let plain = try shards.reduce(Data()) { $0 + (try Data(contentsOf: directory.appendingPathComponent($1))) }
    #expect(plain.count > 10_000)
    // Two members, as `cat a.gz b.gz` makes.
    let half = plain.count / 2
    let cut = plain[..<half].lastIndex(of: UInt8(ascii: "\n"))! + 1
    let gzipped = try SampleDump.gzip(plain[..<cut]) + SampleDump.gzip(plain[cut...])
    let fromPlain = try CLIRunner.run(["summary", "--stdin", "--format", "json"], input: plain)
    let fromGzip = try CLIRunner.run(["summary", "--stdin", "--format", "json"], input: gzipped)
    #expect(fromPlain.status == 0, "\(fromPlain.stderr)")
    #expect(fromGzip.status == 0, "\(fromGzip.stderr)")
    #expect(try fromGzip.json()["versions"] as? [[String: Any]] != nil)
    #expect(fromGzip.stdout == fromPlain.stdout)

    let truncated = try CLIRunner.run(
      ["summary", "--stdin", "--format", "json"], input: gzipped.prefix(gzipped.count - 100))
    #expect(truncated.stderr.contains("<stdin>: truncated gzip stream"), "\(truncated.stderr)")
  }

  @Test func pastAThousandUnknownKeysTheSameNamesAreListedOnEveryRun() throws {
    try withTemporaryDirectory { dir in
      // 30 payloads of 60 names each: 1,800 names, past the 1,000 listed.
      let dump = dir.appendingPathComponent("dump")
      try FileManager.default.createDirectory(at: dump, withIntermediateDirectories: true)
      for f in 0..<30 {
        let members = (0..<60).map { "\"unknown\(String(format: "%04d", f * 60 + $0))\": 1" }.joined(separator: ", ")
        try Data("{\"appVersion\": \"1.0\", \(members)}".utf8).write(to: dump.appendingPathComponent("p\(f).json"))
      }
      let cache = dir.appendingPathComponent("cache").path
      var outputs: Set<String> = []
      for extra in [
        ["--threads", "1"], ["--threads", "1"], ["--threads", "2"], ["--cache", cache], ["--cache", cache],
      ] {
        let result = try CLIRunner.run(["summary", dump.path, "--format", "json"] + extra)
        let json = try result.json()
        let unknown = try #require((json["inputs"] as? [String: Any])?["unknownKeys"] as? [String: Int])
        // The byte-wise first thousand names, each counted once; the other 800 together.
        #expect(unknown.count == 1_001)
        #expect(unknown["unknown0999"] == 1 && unknown["unknown1000"] == nil && unknown["(other unknown keys)"] == 800)
        outputs.insert(result.stdout)
      }
      #expect(outputs.count == 1)
    }
  }

  @Test func anOutputFileInAFolderThatDoesNotExistYetGetsItsFolder() throws {
    try withTemporaryDirectory { dir in
      let nested = dir.appendingPathComponent("gates/2026/summary.txt")
      let result = try CLIRunner.run(["summary", "Samples/dump", "-o", nested.path])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        try String(contentsOf: nested, encoding: .utf8) == (try CLIRunner.run(["summary", "Samples/dump"])).stdout)
      // A file where a folder would go is an error, naming it.
      try Data("x".utf8).write(to: dir.appendingPathComponent("file"))
      let blocked = try CLIRunner.run(["summary", "Samples/dump", "-o", dir.appendingPathComponent("file/a.txt").path])
      #expect(blocked.status == 2 && blocked.stderr.contains("cannot make the folder"), "\(blocked.stderr)")
    }
  }
}
