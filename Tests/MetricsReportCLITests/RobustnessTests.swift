import Foundation
import PayloadSynthesis
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Hostile and broken inputs: nothing crashes, nothing is lost, nothing injects into reports.
@Suite("Robustness")
struct RobustnessTests {
  static func goodPayloads(_ n: Int, seed: UInt64 = 4) -> [String] {
    var rng = SplitMix64(seed: seed)
    return (0..<n).map {
      SyntheticPayload.make(
        profile: VersionProfile.standard[0], day: $0, device: $0, multipleVersions: false, rng: &rng
      ).json
    }
  }

  @Test func aDirectoryOfBrokenFilesLosesNothingElse() throws {
    let dir = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = Self.goodPayloads(6)
    func write(_ name: String, _ data: Data) throws { try data.write(to: dir.appendingPathComponent(name)) }
    for (i, json) in good.prefix(4).enumerated() { try write("good-\(i).json", Data(json.utf8)) }
    try write("good-double.json.gz", try SampleDump.gzip(try SampleDump.gzip(Data(good[4].utf8))))
    try write("good-lines.ndjson", Data((SampleDump.compact(good[5]) + "\n\n").utf8))
    let bad: [(String, Data, String)] = [
      ("truncated.json", Data(good[0].prefix(500).utf8), "invalid JSON"),
      ("empty.json", Data(), "empty file"),
      ("binary.json", Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }), "invalid JSON"),
      (
        "wrong-type.json", Data(#"{"appVersion": "1", "memoryMetrics": {"peakMemoryUsage": 12}}"#.utf8),
        "measurement string"
      ),
      (
        "unknown-unit.json", Data(#"{"appVersion": "1", "gpuMetrics": {"cumulativeGPUTime": "3 eons"}}"#.utf8),
        "unknown unit"
      ),
      (
        "negative-count.json",
        Data(
          #"{"appVersion": "1", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramValue": {"0": {"bucketStart": "1 ms", "bucketEnd": "2 ms", "bucketCount": -3}}}}}"#
            .utf8), "negative count"
      ),
      (
        "deep.json",
        Data(
          ("{\"appVersion\": \"1\", \"x\": " + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "}").utf8),
        "too deep"
      ),
      ("fake.json.gz", Data([0x1f, 0x8b, 0x08, 0x00] + Array("not really gzip".utf8)), "gzip"),
      ("crash.json", Data("Incident Identifier: 7E4A…\nCrashReporter Key: abc\n".utf8), "invalid JSON"),
      (
        "huge-count.json",
        Data(#"{"appVersion": "1", "cpuMetrics": {"cumulativeCPUTime": "99999999999999999999 sec"}}"#.utf8),
        "number too large"
      ),
    ]
    for (name, data, _) in bad { try write(name, data) }

    let result = try CLIRunner.run(["summary", dir.path, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try result.json()
    let inputs = try #require(json["inputs"] as? [String: Any])
    #expect(inputs["payloads"] as? Int == 6)
    #expect(inputs["counted"] as? Int == 6)
    let rejected = try #require(inputs["rejected"] as? [[String: Any]])
    #expect(rejected.count == bad.count)
    for (name, _, reason) in bad {
      let entry = rejected.first { ($0["path"] as? String)?.hasSuffix("/" + name) == true }
      #expect((entry?["reason"] as? String)?.contains(reason) == true, "\(name): \(entry?["reason"] ?? "not listed")")
      #expect(result.stderr.contains(name))
    }
    let accounting = try #require(inputs["accounting"] as? [String: Int])
    #expect(accounting["read"] == 6 + bad.count)
    #expect(
      accounting["read"] == accounting["counted"]! + accounting["excluded"]! + accounting["rejected"]! + accounting[
        "otherDocuments"]!)
    #expect(try CLIRunner.run(["summary", dir.path, "--strict"]).status == 2)
    // A tighter limit is a reason, not a crash.
    let limited = try CLIRunner.run(["summary", dir.path, "--format", "json", "--max-file-bytes", "1000"])
    #expect(limited.status == 0)
    #expect(limited.stdout.contains("over the 1000-byte limit"))
  }

  @Test func accountingIdentityHoldsOnEveryTestDump() throws {
    var dumps = ["Samples/dump", "Samples/dump/v3.9.0"]
    let shared = CLIRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/public")
    if FileManager.default.fileExists(atPath: shared.path) { dumps.append(shared.path) }
    for dump in dumps {
      let result = try CLIRunner.run(["summary", dump, "--format", "json"])
      let inputs = try #require(try result.json()["inputs"] as? [String: Any])
      let a = try #require(inputs["accounting"] as? [String: Int])
      #expect(a["read"] == a["counted"]! + a["excluded"]! + a["rejected"]! + a["otherDocuments"]!, "\(dump)")
      #expect(a["rejected"] == (inputs["rejected"] as? [Any])?.count)
      #expect(result.stdout.contains("\"counted\": \(a["counted"]!)"))
    }
  }

  /// Strings from payloads and rule files come out inert in every format.
  @Test func hostileSignpostNamesAreEscapedInEveryFormat() throws {
    let dir = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let name = "<script>alert(1)</script>"
    let category = "a|b\n=cmd"
    var lines: [String] = []
    for (i, json) in Self.goodPayloads(25).enumerated() {
      let hostile = json.replacingOccurrences(of: "\"LoadFeed\"", with: "\"\(name)\"")
        .replacingOccurrences(of: "\"Feed\"", with: "\"a|b\\n=cmd\"")
      lines.append(SampleDump.compact(hostile))
      let other = json.replacingOccurrences(of: "\"3.8.0\"", with: "\"3.9.0\"")
      lines.append(
        SampleDump.compact(
          other.replacingOccurrences(of: "\"LoadFeed\"", with: "\"\(name)\"").replacingOccurrences(
            of: "\"Feed\"", with: "\"a|b\\n=cmd\"")))
      _ = i
    }
    let dump = dir.appendingPathComponent("dump.ndjson")
    try Data(lines.joined(separator: "\n").utf8).write(to: dump)
    let metric = "signpost:\(category)/\(name)"

    let markdown = try CLIRunner.run(["summary", dump.path, "--format", "markdown"])
    #expect(markdown.status == 0)
    #expect(!markdown.stdout.contains("<script>"))
    #expect(markdown.stdout.contains("&lt;script&gt;"))
    let header = try #require(markdown.stdout.split(separator: "\n").first { $0.hasPrefix("| Metric") })
    let separators = header.filter { $0 == "|" }.count
    let rows = markdown.stdout.split(separator: "\n").filter { $0.hasPrefix("| signpost") }
    #expect(rows.count == 2)
    for row in rows {
      // Every row has as many unescaped cell separators as the header.
      #expect(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == separators, "\(row)")
    }

    let csv = try CLIRunner.run(["summary", dump.path, "--format", "csv"])
    // The field is quoted (it holds a line break), so a CSV reader keeps it whole.
    #expect(csv.stdout.contains("\"signpost:a|b\n=cmd/<script>alert(1)</script>\""))

    let json = try CLIRunner.run(["summary", dump.path, "--format", "json"])
    #expect(!json.stdout.contains("<script>"))
    let parsed = try json.json()
    let metrics = ((parsed["versions"] as? [[String: Any]])?.first?["metrics"] as? [[String: Any]]) ?? []
    #expect(metrics.contains { $0["metric"] as? String == metric })

    let text = try CLIRunner.run(["summary", dump.path])
    #expect(!text.stdout.contains("a|b\n=cmd"))  // control characters shown as ?

    // Rule files name the metric: JUnit, Markdown and GitHub output stay inert.
    let rules = dir.appendingPathComponent("rules.json")
    let ruleJSON = try JSONSerialization.data(withJSONObject: [
      "rules": [["metric": metric, "statistic": "p90", "minPayloads": 5]]
    ])
    try ruleJSON.write(to: rules)
    for format in ["junit", "markdown", "github"] {
      let result = try CLIRunner.run([
        "compare", dump.path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--rules", rules.path, "--format", format,
      ])
      #expect(result.status == 0, "\(format): \(result.stderr)")
      #expect(!result.stdout.contains("<script>"), "\(format)")
      if format == "junit" { _ = try XMLDocument(xmlString: result.stdout) }
      if format == "github" {
        #expect(
          result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("::") }, "no line can start a new command")
      }
    }
  }
}
