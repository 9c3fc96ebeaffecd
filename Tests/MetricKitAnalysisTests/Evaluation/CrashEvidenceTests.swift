import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// A stability rule's crash evidence: the versions' crash reports per device-day against the
/// terminations' change, and the signatures that grew.
@Suite("Crash evidence of stability rules")
struct CrashEvidenceTests {
  /// `count` crash diagnostics of one signature, told apart by their signal.
  private static func crashes(_ count: Int, signal: Int, into aggregate: inout DiagnosticAggregate) {
    var d = Diagnostic(kind: .crash)
    d.exceptionType = 1
    d.signal = signal
    for _ in 0..<count { aggregate.add(d, begin: nil, end: nil, options: DiagnosticOptions()) }
  }

  private static func termination(
    _ folder: URL, baselineCrashes: [(count: Int, signal: Int)], candidateCrashes: [(count: Int, signal: Int)]
  ) throws -> (RuleResult, (baseline: Int, candidate: Int)) {
    try StabilityScenario(.regression, payloadsPerVersion: 6_000).write(to: folder, seed: 7011)
    let evaluator = RegressionEvaluator()
    let aggregate = DumpAggregate(paths: [folder.path], options: evaluator.aggregationOptions, threads: 2)
    let b = try #require(aggregate.versions[StabilityScenario.baseline])
    let c = try #require(aggregate.versions[StabilityScenario.candidate])
    var bd = DiagnosticAggregate(version: b.version)
    var cd = DiagnosticAggregate(version: c.version)
    for s in baselineCrashes { crashes(s.count, signal: s.signal, into: &bd) }
    for s in candidateCrashes { crashes(s.count, signal: s.signal, into: &cd) }
    let results = evaluator.evaluate(baseline: b, candidate: c, baselineDiagnostics: bd, candidateDiagnostics: cd)
    return (try #require(results.first { $0.rule.metric == .terminationRate }), (b.payloadCount, c.payloadCount))
  }

  @Test func reportsThatRiseWithTheTerminationsAgreeAndNameTheNewSignature() throws {
    try withTemporaryDirectory { folder in
      // SIGSEGV on both sides; SIGABRT new in the candidate.
      let (result, days) = try Self.termination(
        folder, baselineCrashes: [(40, 11)], candidateCrashes: [(40, 11), (35, 6)])
      let e = try #require(result.crashEvidence)
      #expect(e.baselineReports == 40 && e.candidateReports == 75)
      let expected = (75.0 / Double(days.candidate)) / (40.0 / Double(days.baseline)) - 1
      #expect(abs(try #require(e.change) - expected) < 1e-12)
      #expect(
        e.agrees == true, "reports +\(expected) against terminations \(String(describing: result.changeInterval))")
      // Only the new signature grew beyond the baseline's rate (equal device-days: 40 is no growth).
      #expect(days.baseline == days.candidate)
      #expect(e.signatures.count == 1 && e.signatures[0].isNew && e.signatures[0].group.count == 35)
      #expect(e.signatures[0].group.signature.text.contains("SIGABRT"))
      let text = ComparisonRenderer.crashEvidenceText(e)
      #expect(text.hasPrefix("crash reports 6.67 → 12.5 per 1000 device-days, ↑ +87.5% ["), "\(text)")
      #expect(text.contains(", agreeing; behind it: ") && text.contains("(×35, new)"))
    }
  }

  @Test func fallingReportsUnderRisingTerminationsDoNotAgree() throws {
    try withTemporaryDirectory { folder in
      let (result, _) = try Self.termination(folder, baselineCrashes: [(300, 11)], candidateCrashes: [(200, 11)])
      let e = try #require(result.crashEvidence)
      let rate = try #require(result.changeInterval)
      let reports = try #require(e.changeInterval)
      // The termination rate rose 80%; the reports fell by a third.
      #expect(rate.lowerBound > reports.upperBound, "\(rate) against \(reports)")
      #expect(e.agrees == false && e.signatures.isEmpty)
      #expect(ComparisonRenderer.crashEvidenceText(e).contains("not agreeing with the terminations"))
    }
  }

  @Test func withoutDiagnosticsThereIsNoEvidence() throws {
    try withTemporaryDirectory { folder in
      try StabilityScenario(.plain, payloadsPerVersion: 600).write(to: folder, seed: 7012)
      let evaluator = RegressionEvaluator()
      let aggregate = DumpAggregate(paths: [folder.path], options: evaluator.aggregationOptions, threads: 2)
      let results = evaluator.evaluate(
        baseline: try #require(aggregate.versions[StabilityScenario.baseline]),
        candidate: try #require(aggregate.versions[StabilityScenario.candidate]))
      #expect(results.allSatisfy { $0.crashEvidence == nil })
    }
  }
}
