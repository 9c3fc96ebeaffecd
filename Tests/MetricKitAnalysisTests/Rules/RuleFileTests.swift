import Testing

@testable import MetricKitAnalysis

/// Rule files: every field, every error with its line, and the defaults round trip.
@Suite("Rule files")
struct RuleFileTests {
  @Test func everyField() throws {
    let yaml = """
      defaults:
        alpha: 0.01
        minPayloads: 30
        severity: warning
        polarity: lower-is-better
        maxIncrease: "7%"
      rules:
        - metric: applicationLaunchMetrics.histogrammedTimeToFirstDraw
          statistic: p90
          polarity: lower-is-better
          maxIncrease: "10%"
          maxIncreaseAbsolute: "25 ms"
          budget: "0.4 sec"
          severity: error
          minPayloads: 50
        - metric: memoryMetrics.peakMemoryUsage
          statistic: p95
          maxIncreaseAbsolute: "20000 kB"
          budget: 300
        - metric: hangRate
          statistic: rate
          budget: "2 s/h"
        - metric: signpost:Feed/LoadFeed
          statistic: mean
          polarity: higher-is-better
          maxIncrease: 0.2
      """
    let set = try RuleFileParser.parse(yaml, file: "rules.yml")
    #expect(set.alpha == 0.01)
    #expect(set.rules.count == 4)
    let launch = set.rules[0]
    #expect(launch.statistic == .percentile(Percentile(90)!))
    #expect(launch.maxIncrease == 0.1)
    #expect(launch.maxIncreaseAbsolute == 25)
    #expect(launch.budget == 400)
    #expect(launch.severity == .error)
    #expect(launch.minPayloads == 50)
    let memory = set.rules[1]
    #expect(memory.maxIncrease == 0.07)  // from defaults
    #expect(memory.maxIncreaseAbsolute == 20)  // MB
    #expect(memory.budget == 300)
    #expect(memory.severity == .warning)
    #expect(memory.minPayloads == 30)
    #expect(set.rules[2].budget == 2)
    #expect(set.rules[3].polarity == .higherIsBetter)
    #expect(set.rules[3].maxIncrease == 0.2)
  }

  @Test func jsonRuleFilesWork() throws {
    let json = #"{"rules": [{"metric": "cpuMetrics.cumulativeCPUTime", "statistic": "value", "budget": "2 min"}]}"#
    let set = try RuleFileParser.parse(json, file: "rules.json")
    #expect(set.rules[0].budget == 120)
    #expect(set.rules[0].statistic == .value)
  }

  @Test(
    arguments: [
      ("rules:\n  - metric: launchTime\n", 2, "rules[0].metric", "unknown metric 'launchTime'"),
      ("rules:\n  - metric: hangRate\n    statistic: p90\n", 3, "rules[0].statistic", "does not apply to hangRate"),
      ("rules:\n  - metric: hangRate\n    maxIncrease: 10\n", 3, "rules[0].maxIncrease", "ambiguous"),
      ("rules:\n  - metric: hangRate\n    maxIncrease: ten\n", 3, "rules[0].maxIncrease", "not a percentage"),
      (
        "rules:\n  - metric: memoryMetrics.peakMemoryUsage\n    budget: \"3 sec\"\n", 3, "rules[0].budget",
        "not in MB"
      ),
      ("rules:\n  - metric: hangRate\n    severity: fatal\n", 3, "rules[0].severity", "not one of error, warning"),
      ("rules:\n  - metric: hangRate\n    polarity: up\n", 3, "rules[0].polarity", "not one of"),
      ("rules:\n  - metric: hangRate\n    minPayloads: 1\n", 3, "rules[0].minPayloads", "whole number ≥ 2"),
      ("rules:\n  - metric: hangRate\n    maxIncrese: 5%\n", 3, "rules[0].maxIncrese", "unknown key"),
      ("rules:\n  - statistic: p90\n", 2, "rules[0].metric", "missing"),
      ("defaults:\n  alpha: 2\n", 2, "defaults.alpha", "between 0 and 1"),
      ("defaults:\n  beta: 2\n", 2, "defaults.beta", "unknown key"),
      ("rule:\n  - metric: hangRate\n", 1, "rule", "unknown key"),
      ("rules: [\n", 2, "", "not valid YAML"),
      ("- 1\n- 2\n", 1, "", "expected a mapping"),
    ] as [(String, Int, String, String)])
  func errorsNameFileLineAndKey(text: String, line: Int, key: String, message: String) {
    do {
      _ = try RuleFileParser.parse(text, file: "gate.yml")
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.file == "gate.yml")
      #expect(error.line == line, "\(error)")
      #expect(error.key == key, "\(error)")
      #expect(error.message.contains(message), "\(error)")
      #expect(error.description.hasPrefix("gate.yml:\(line): "))
    }
  }

  /// Found by the rule-file fuzzer: a file with defaults and no rules parsed, but printed back as
  /// something that did not. A file without rules is now an error, and an empty set prints as `[]`.
  @Test func aFileWithoutRulesIsAnError() throws {
    let text = "# comment\n\ndefaults:\n  alpha: 0.05\n "
    #expect(throws: RuleFileError.self) { try RuleFileParser.parse(text, file: "empty.yml") }
    do {
      _ = try RuleFileParser.parse(text, file: "empty.yml")
    } catch {
      #expect(error.description == "empty.yml: rules: the file defines no rules")
    }
    #expect(RuleFileParser.yaml(RuleSet(unchecked: 0.05, rules: [])).contains("rules: []"))
    // In code as in a file: a rule set without rules is refused.
    #expect(throws: RuleValidationError.self) { try RuleSet(rules: []) }
  }

  @Test func defaultsRoundTrip() throws {
    let text = RuleFileParser.yaml(.builtIn)
    let parsed = try RuleFileParser.parse(text, file: "defaults.yml")
    #expect(parsed == RuleSet.builtIn)
  }

  @Test func aRuleOnOneGroupMadeInCodeReadsBackFromItsFile() throws {
    let launch = try RegressionRule(metric: .histogrammedTimeToFirstDraw)
    let rules = try RuleSet(rules: [
      try launch.only(GroupFilter(key: .state(domain: "com.example.tabs"), value: "check\"out: {a}")),
      try launch.only(GroupFilter(key: .deviceType, value: "iPhone15,3")),
    ])
    #expect(
      rules.rules.map(\.group?.description) == ["state:com.example.tabs = check\"out: {a}", "deviceType = iPhone15,3"])
    #expect(try RuleFileParser.parse(RuleFileParser.yaml(rules), file: "groups.yml") == rules)
    // A diagnostic rule on one group is refused, in code as in a file.
    #expect(throws: RuleValidationError.self) {
      try RegressionRule(metric: .diagnostics(.crash)).only(GroupFilter(key: .deviceType, value: "x"))
    }
  }
}
