import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The nesting bound of rule files: real files pass, deep ones stop with their line.
@Suite("Rule file nesting")
struct RuleFileNestingTests {
  @Test func theNestingBoundPassesRealRuleFilesAndStopsDeepOnes() throws {
    #expect(RuleFileNesting.firstLineTooDeep(RuleFileParser.yaml(.builtIn)) == nil)
    let quoted = "rules:\n  - metric: \"signpost:[[[[[[/{{{{\"  # ]]]] [[[[\n    statistic: 'p90 [[['\n"
    #expect(RuleFileNesting.firstLineTooDeep(quoted, maximum: 8) == nil)
    #expect(RuleFileNesting.firstLineTooDeep("a: " + String(repeating: "[", count: 70)) == 1)
    #expect(RuleFileNesting.firstLineTooDeep("x: 1\n" + String(repeating: "- ", count: 70) + "y") == 2)
    #expect(throws: RuleFileError.self) { try RuleFileParser.parse(String(repeating: "[", count: 100_000), file: "f") }
  }
}
