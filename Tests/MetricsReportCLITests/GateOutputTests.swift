import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// What `compare`'s CI outputs say is what the gate says: a rule file of warnings passes, JUnit fails
/// exactly the failing rules, Markdown names each row's group, GitHub's notice breaks lines the way
/// annotations do, and an absent version is told from a misspelt one.
@Suite("metrics-report compare: CI outputs")
struct GateOutputTests {
  static let versions = ["--baseline", "3.8.0", "--candidate", "3.9.0"]

  /// A rule file of `text` in a temporary folder, passed to `body`.
  static func withRules<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
    try withTemporaryDirectory { dir in
      let rules = dir.appendingPathComponent("rules.yml")
      try Data(text.utf8).write(to: rules)
      return try body(rules.path)
    }
  }

  @Test func aRuleFileOfWarningsOnlyPassesWithTheWarningReported() throws {
    // The samples' launch p50 regresses (the built-in gate fails on it); as a warning it only reports.
    let rules = """
      defaults:
        severity: warning
      rules:
        - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw
          statistic: p50
          maxIncrease: "5%"
      """
    try Self.withRules(rules) { path in
      let text = try CLIRunner.run(["compare", "Samples/dump"] + Self.versions + ["--rules", path])
      #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
      #expect(text.stdout.contains("Gate: PASS — the rules only warn"), "\(text.stdout)")
      #expect(!text.stderr.contains("nothing to evaluate"))
      let json = try CLIRunner.run(
        ["compare", "Samples/dump"] + Self.versions + ["--rules", path, "--format", "json"])
      let object = try json.json()
      #expect(object["gate"] as? String == "pass")
      let results = try #require(object["results"] as? [[String: Any]])
      #expect(results.map { $0["verdict"] as? String } == ["regression"])
    }
  }

  @Test func junitFailuresAreExactlyTheGatesFailingRules() throws {
    // One error rule and one warning rule, both regressed: one failure, the warning reported in its case.
    let rules = """
      rules:
        - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw
          statistic: p50
          maxIncrease: "5%"
        - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw
          statistic: p90
          maxIncrease: "5%"
          severity: warning
      """
    try Self.withRules(rules) { path in
      let json = try CLIRunner.run(
        ["compare", "Samples/dump"] + Self.versions + ["--rules", path, "--format", "json"])
      let results = try #require(try json.json()["results"] as? [[String: Any]])
      #expect(results.map { $0["verdict"] as? String } == ["regression", "regression"])
      let junit = try CLIRunner.run(
        ["compare", "Samples/dump"] + Self.versions + ["--rules", path, "--format", "junit"])
      #expect(junit.status == 1)
      let document = try XMLDocument(xmlString: junit.stdout)
      #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
      let suite = try #require(try document.nodes(forXPath: "/testsuites").first as? XMLElement)
      #expect(suite.attribute(forName: "failures")?.stringValue == "1")
      let warned = try document.nodes(
        forXPath: "//testcase[@name='applicationLaunchMetrics.histogrammedTimeToFirstDraw p90']/system-out")
      #expect(warned.first?.stringValue?.hasPrefix("regression (warning: does not fail the gate)") == true)
    }
  }

  @Test func markdownByGroupNamesEachRowsGroup() throws {
    let markdown = try CLIRunner.run(
      ["compare", "Samples/dump"] + Self.versions + ["--by", "deviceType", "--top", "2", "--format", "markdown"])
    let rows = markdown.stdout.split(separator: "\n").filter { $0.hasPrefix("| ") }
    let header = try #require(rows.first)
    #expect(header.hasPrefix("| | Metric | Statistic | deviceType | Baseline |"), "\(header)")
    // Each metric's rows: one a group (the samples' three devices: two and the rest), each naming it.
    let launch = rows.filter { $0.contains("| applicationLaunchMetrics.histogrammedTimeToFirstDraw | p50 |") }
    let groups = launch.map {
      $0.split(separator: "|", omittingEmptySubsequences: false)[4].trimmingCharacters(in: .whitespaces)
    }
    #expect(groups.count == 3, "\(launch)")
    #expect(Set(groups).count == groups.count && groups.contains("(other)") && !groups.contains(""), "\(groups)")
  }

  @Test func githubNoticeBreaksLinesAsAnnotationsDo() throws {
    let github = try CLIRunner.run(["compare", "Samples/dump"] + Self.versions + ["--format", "github"])
    let notice = try #require(
      github.stdout.split(separator: "\n").last { $0.hasPrefix("::notice title=metrics-report gate") })
    #expect(notice.contains("failing rules%0AMatched within the same devices and OS"), "\(notice)")
    #expect(!notice.contains("\\n"), "\(notice)")
  }

  @Test func aVersionWithoutItsPatchIsToldTheNearestAndTheVersionsHeld() throws {
    let run = try CLIRunner.run(["compare", "Samples/dump", "--baseline", "3.8", "--candidate", "3.9.0"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("no payloads for version 3.8 (3.8: did you mean 3.8.0?)"), "\(run.stderr)")
    #expect(run.stderr.contains("the inputs hold versions 3.8.0, 3.9.0"), "\(run.stderr)")
  }
}
