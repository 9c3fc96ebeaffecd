import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Matched comparisons: strata coarsened as documented, and the default gate right on rollouts whose
/// device mix, OS and days differ between the versions (where the pooled gate is wrong).
@Suite("Matched comparisons")
struct MatchedComparisonTests {
  private func side(_ version: String, _ counts: [[String]: Int]) -> [[String]: VersionAggregate] {
    counts.mapValues { n in
      var a = VersionAggregate(version: version)
      a.payloadCount = n
      return a
    }
  }

  @Test func sparseStrataClimbTheLadderAndOneVersionsStrataAreLeftOut() {
    let stratification = Stratification(dimensions: [.deviceType, .osVersion], minimumPayloads: 10)
    // 17.4 and 17.3 of one model are sparse apart and enough together (17); iPhone10,1 on 16.7 is the
    // baseline's alone, and iPhone14,2 almost (27% of the baseline against 3% of the candidate: left
    // out, not merged into a parent whose mix it would tilt); iPhone13,2 is sparse at every step and
    // meets at the top, where the candidate's iPad, which shares no stratum below the top with the
    // baseline, is left out.
    let baseline = side(
      "1",
      [
        ["iPhone12,1", "iPhone OS 17.5"]: 20, ["iPhone12,1", "iPhone OS 17.4"]: 4, ["iPhone12,1", "iPhone OS 17.3"]: 7,
        ["iPhone10,1", "iPhone OS 16.7"]: 30, ["iPhone13,2", "iPhone OS 18.1"]: 5,
        ["iPhone14,2", "iPhone OS 18.1"]: 25,
      ])
    let candidate = side(
      "2",
      [
        ["iPhone12,1", "iPhone OS 17.5"]: 20, ["iPhone12,1", "iPhone OS 17.4"]: 3, ["iPhone12,1", "iPhone OS 17.3"]: 8,
        ["iPhone13,2", "iPhone OS 18.1"]: 2, ["iPad8,1", "iPadOS 17.1"]: 3, ["iPhone14,2", "iPhone OS 18.1"]: 1,
      ])
    let matched = MatchedStrata(stratification, baseline: baseline, candidate: candidate)
    #expect(
      matched.strata.map(\.values) == [
        ["iPhone12,1", "iPhone OS 17.5"], ["iPhone12,1", "iPhone OS 17"], ["*", "*"],
      ])
    #expect(matched.strata.map(\.baseline.payloadCount) == [20, 11, 5])
    #expect(matched.strata.map(\.candidate.payloadCount) == [20, 11, 2])
    let weights: [Double] = [40.0 / 69, 22.0 / 69, 7.0 / 69]
    #expect(matched.strata.map(\.weight) == weights)
    #expect(matched.baselineOnlyStrata == 2 && matched.candidateOnlyStrata == 1)
    // Left out: the baseline's iPhone10,1 and iPhone14,2 (30 + 25), the candidate's iPhone14,2 (1) and iPad (3).
    #expect(matched.baselineLeftOut.unmatched == 55 && matched.candidateLeftOut.unmatched == 4)
    #expect(
      matched.candidateLeftOut.largest.map(\.values) == [
        ["iPad8,1", "iPadOS 17.1"], ["iPhone14,2", "iPhone OS 18.1"],
      ])
    let coverage: (Double, Double) = (36.0 / 91, 33.0 / 37)
    #expect(matched.baselineCoverage == coverage.0 && matched.candidateCoverage == coverage.1)
    #expect(
      MatchedStrata.label(["iPhone12,1", "*"]) == "iPhone12,1" && MatchedStrata.label(["*", "*"]) == "(the rest)")
  }

  @Test func fieldsCoarsenAsDocumented() {
    #expect(Stratification.minor("iPhone OS 17.5.1 (21F90)") == "iPhone OS 17.5")
    #expect(Stratification.minor("iPhone OS 18 (22A1)") == "iPhone OS 18")
    #expect(Stratification.coarsened(.deviceType, "iPhone12,1", level: 1) == "iPhone12")
    #expect(Stratification.coarsened(.deviceType, "iPhone12,1", level: 2) == "*")
    #expect(Stratification.coarsened(.osVersion, "iPhone OS 17.5", level: 1) == "iPhone OS 17")
    #expect(Stratification.coarsened(.regionFormat, "US", level: 1) == "*")
    #expect(Stratification.default.ladder == [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2]])
    #expect(Stratification(parsing: "none")?.isStratified == false)
    #expect(Stratification(parsing: "regionFormat,deviceType")?.dimensions == [.regionFormat, .deviceType])
    #expect(Stratification(parsing: "deviceType,deviceType") == nil && Stratification(parsing: "color") == nil)
  }

  /// The gate over a rollout dump drawn with `seed`, matched by `stratification` (within each group of
  /// `grouping`, when given).
  static func gate(
    _ situation: RolloutScenario.Situation, seed: UInt64, stratification: Stratification = .default,
    window: ClosedRange<CalendarDay>? = nil, grouping: GroupingKey? = nil
  ) throws -> ComparisonReport {
    try withTemporaryDirectory { folder in
      try RolloutScenario(situation, payloadsPerVersion: 400).write(to: folder, seed: seed)
      let evaluator = RegressionEvaluator(stratification: stratification)
      var options = evaluator.aggregationOptions
      options.window = window
      options.grouping = grouping
      let aggregate = DumpAggregate(paths: [folder.path], options: options, threads: 2)
      return try ComparisonReport(
        gate: evaluator, aggregate: aggregate, baseline: .dump(version: RolloutScenario.baseline),
        candidate: .dump(version: RolloutScenario.candidate), grouping: grouping, wholeVersions: grouping == nil,
        top: 10)
    }
  }

  @Test func groupsAreMatchedInsideThemselves() throws {
    let report = try Self.gate(.familyRegression, seed: 9007, grouping: .deviceType)
    let launch = report.results.filter {
      $0.rule.metric == .histogrammedTimeToFirstDraw && $0.rule.statistic == .percentile(Percentile(50)!)
    }
    #expect(launch.count == RolloutScenario.devices.count)
    for result in launch {
      let group = try #require(result.by?.value)
      // Within one device's group, the strata are the OS versions it runs (iOS 16 up to its newest).
      let device = try #require(RolloutScenario.devices.first { $0.model == group })
      #expect(result.matching?.strata == device.newestOS - 15, "\(group)")
      #expect((result.verdict == .regression) == group.hasPrefix("iPhone12,"), "\(group): \(result.verdict)")
    }
  }

  /// Seeds no threshold or default was tuned on.
  static let seeds: [UInt64] = [9001, 9002, 9003]

  @Test(arguments: RolloutScenario.Situation.allCases)
  func theDefaultGateIsRightWhereThePooledOneIsFooled(_ situation: RolloutScenario.Situation) throws {
    let scenario = RolloutScenario(situation)
    for seed in Self.seeds {
      let report = try Self.gate(situation, seed: seed)
      #expect(report.gateFails == scenario.isRegression, "\(situation) seed \(seed): \(report.gate)")
      #expect(report.matching != nil && report.unmatchedReason == nil)
    }
    let pooled = try Self.gate(situation, seed: Self.seeds[0], stratification: .none)
    #expect(pooled.matching == nil)
    switch situation {
    case .deviceMix, .osUpdate, .maskedRegression:
      // The confounded verdict, and the sentence that says why.
      #expect(pooled.gateFails != scenario.isRegression, "\(situation): pooled \(pooled.gate)")
      let matched = try Self.gate(situation, seed: Self.seeds[0])
      let launch = try #require(
        matched.results.first { $0.rule.metric == .histogrammedTimeToFirstDraw && $0.rule.statistic.percentile != nil })
      let sentence = try #require(VerdictReason.disagreement(launch))
      #expect(sentence.contains("pooled, applicationLaunchMetrics.histogrammedTimeToFirstDraw"), "\(sentence)")
      #expect(sentence.contains("within the same devices and OS"), "\(sentence)")
    case .plain, .familyRegression:
      #expect(pooled.gateFails == scenario.isRegression)
    }
  }

  @Test func theMaskingBumpShowsInCoverageAndTheRegressionIsPlaced() throws {
    let report = try Self.gate(.maskedRegression, seed: 9004)
    let matching = try #require(report.matching)
    // The baseline's payloads on iOS 16 have no counterpart: about a third of it (weights 3:2:1:1:1:1,
    // OS drawn among those each device runs) is left out; all of the candidate is matched.
    #expect(matching.candidateCoverage == 1)
    #expect(matching.baselineCoverage > 0.3 && matching.baselineCoverage < 0.6, "\(matching.baselineCoverage)")
    #expect(matching.baselineOnlyStrata >= 3)
    let launch = try #require(report.results.first { $0.rule.metric == .histogrammedTimeToFirstDraw })
    #expect(launch.verdict == .regression)
    #expect(abs(launch.change! - 0.15) < 0.05, "\(launch.change!)")
    #expect(launch.matching?.contributions.isEmpty == false)
  }

  @Test func aFamilysRegressionIsFoundWhereItIs() throws {
    let report = try Self.gate(.familyRegression, seed: 9005)
    let launch = try #require(report.results.first { $0.rule.metric == .histogrammedTimeToFirstDraw })
    #expect(launch.verdict == .regression)
    let first = try #require(launch.matching?.contributions.first)
    #expect(first.values[0].hasPrefix("iPhone12,"), "\(first.label)")
  }

  @Test func anOverlapWindowKeepsOnlyTheDaysBothVersionsRan() throws {
    // Baseline days 0–23, candidate 17–39: the window is 17–23.
    let all = try Self.gate(.osUpdate, seed: 9006)
    let start = CalendarDay(daysSinceEpoch: 1_700_000_000 / 86_400 + 17)
    let end = CalendarDay(daysSinceEpoch: 1_700_000_000 / 86_400 + 23)
    let windowed = try Self.gate(.osUpdate, seed: 9006, window: start...end)
    let (a, w) = (try #require(all.matching), try #require(windowed.matching))
    #expect(w.matchedBaselinePayloads < a.matchedBaselinePayloads / 2)
    #expect(w.matchedCandidatePayloads < a.matchedCandidatePayloads / 2)
    #expect(!windowed.gateFails)
  }

  @Test func aWideIntervalIsInconclusiveAndARuleFileCanFailOnIt() throws {
    var result = RuleResult(
      rule: RegressionRule(unchecked: .hangRate, statistic: .rate, maxIncrease: 0.10), baseline: 1.26,
      candidate: 1.67, baselineBounds: nil, candidateBounds: nil, baselinePayloads: 56, candidatePayloads: 56,
      test: nil, qValue: 0.108, improvementQValue: 0.9, verdict: .unchanged, budgetExceeded: nil)
    result.changeInterval = -0.073...0.905
    #expect(result.intervalIsInconclusive)
    result.changeInterval = -0.009...0.059  // within the band's width: noise near a threshold
    #expect(!result.intervalIsInconclusive)
    result.changeInterval = 0.039...0.125  // worse, not better: not open both ways
    #expect(!result.intervalIsInconclusive)
    result.verdict = .inconclusive
    #expect(!result.failsGate && result.failsGate(failingVerdicts: [.inconclusive]))
    let rules = try RuleFileParser.parse(
      "verdicts:\n  inconclusive: fail\nrules:\n  - metric: hangRate\n    statistic: rate\n", file: "r.yaml")
    #expect(rules.failsOnInconclusive && !rules.failsOnInsufficientData)
    #expect(throws: RuleFileError.self) {
      try RuleFileParser.parse("verdicts:\n  inconclusive: maybe\nrules:\n  - metric: hangRate\n", file: "r.yaml")
    }
  }
}
