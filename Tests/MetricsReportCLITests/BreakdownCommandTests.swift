import Foundation
import Testing

/// `summary --by`: options, formats and the JSON contract.
@Suite("metrics-report summary --by")
struct BreakdownCommandTests {
  @Test func everyFormatNamesTheGroup() throws {
    let json = try CLIRunner.run(["summary", "Samples/dump", "--by", "deviceType", "--format", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    let versions = try #require(try json.json()["versions"] as? [[String: Any]])
    #expect(versions.allSatisfy { ($0["by"] as? [String: String])?["deviceType"] != nil })
    let plain = try #require(
      try CLIRunner.run(["summary", "Samples/dump", "--format", "json"]).json()["versions"] as? [[String: Any]])
    for v in plain {
      let groups = versions.filter { $0["version"] as? String == v["version"] as? String }
      #expect(groups.reduce(0) { $0 + ($1["payloads"] as? Int ?? 0) } == v["payloads"] as? Int)
    }
    let text = try CLIRunner.run(["summary", "Samples/dump", "--by", "osVersion:major", "--app-version", "3.9.0"])
    #expect(text.stdout.contains("Version 3.9.0 — osVersion:major iPhone OS 1"), "\(text.stdout.prefix(400))")
    let csv = try CLIRunner.run(["summary", "Samples/dump", "--by", "deviceType", "--format", "csv", "--top", "1"])
    #expect(csv.stdout.hasPrefix("version,deviceType,metric,"))
    #expect(csv.stdout.contains(",(other),"))
    let markdown = try CLIRunner.run(["summary", "Samples/dump", "--by", "build", "--format", "markdown"])
    #expect(markdown.stdout.contains("## 3.9.0 · build 391 ("))
    #expect(try CLIRunner.run(["summary", "Samples/dump", "--by", "device"]).status == 64)
    #expect(try CLIRunner.run(["summary", "Samples/dump", "--by", "deviceType", "--top", "0"]).status == 64)
  }
}

/// `compare --by`: results per group, labelled in every format.
@Suite("metrics-report compare --by")
struct GroupedCompareCommandTests {
  @Test func resultsCarryTheirGroup() throws {
    let r = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--by", "deviceType",
      "--min-payloads", "10", "--format", "json",
    ])
    #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
    let results = try #require(try r.json()["results"] as? [[String: Any]])
    let grouped = results.filter { $0["by"] != nil }
    #expect(Set(grouped.compactMap { ($0["by"] as? [String: String])?["deviceType"] }).count == 3)
    // Diagnostic rules are evaluated on the whole versions.
    #expect(
      results.filter { ($0["metric"] as? String)?.hasPrefix("diagnostics.") == true }.allSatisfy { $0["by"] == nil })
    let text = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--by", "deviceType", "--top", "1",
      "--min-payloads", "10",
    ])
    #expect(text.stdout.contains("[deviceType (other)]"))
    #expect(
      try CLIRunner.run(["compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--by", "device"])
        .status == 64)
  }
}
