import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// What a matched comparison could not keep, match or cover never becomes confidence: strata past
/// the limit are left out (never compared as one), sparse strata with no counterpart count against
/// coverage, too much left out makes a clean verdict inconclusive, and payloads outside the window
/// count against coverage.
@Suite("Matched coverage")
struct MatchedCoverageTests {
  /// Payloads of one version on one device and OS: `count` of them, launches `slowness` times the
  /// profile's, on days drawn from `days`.
  struct Population {
    var version: String
    var device: String
    var os: String
    var count: Int
    var slowness = 1.0
    var days = 0...27
  }

  /// Writes the payloads of `populations`, drawn with `seed`, to one NDJSON file in `folder`.
  static func write(_ populations: [Population], to folder: URL, seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var lines: [String] = []
    var n = 0
    for population in populations {
      for _ in 0..<population.count {
        let profile = VersionProfile(
          version: population.version, build: "1", launchMedian: 400 * population.slowness, resumeMedian: 120,
          hangMedian: 350, peakMemoryMedian: 180, hitchMedian: 4)
        let day = population.days.lowerBound + Int(rng.next() % UInt64(population.days.count))
        let payload = SyntheticPayload.make(
          profile: profile, day: day, device: n, multipleVersions: false, rng: &rng, deviceType: population.device,
          osVersion: population.os)
        lines.append(SampleDump.compact(payload.json))
        n += 1
      }
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("dump.ndjson"))
  }

  /// The gate of `candidate` against `baseline` over a dump of `populations`, matched by default.
  static func gate(
    _ populations: [Population], baseline: String = "1.0.0", candidate: String = "2.0.0", seed: UInt64 = 11,
    overlapWindow: Bool = false, ruleSet: RuleSet = .builtIn,
    maximumLeftOut: Double = Stratification.default.maximumLeftOut
  ) throws -> ComparisonReport {
    try withTemporaryDirectory { folder in
      try write(populations, to: folder, seed: seed)
      var stratification = Stratification.default
      stratification.maximumLeftOut = maximumLeftOut
      let evaluator = RegressionEvaluator(ruleSet: ruleSet, stratification: stratification)
      var options = evaluator.aggregationOptions
      var aggregate = DumpAggregate(paths: [folder.path], options: options, threads: 2)
      if overlapWindow {
        // As `--window overlap` reads it: again, the strata only of the days both versions reported.
        options.window = aggregate.overlap(of: baseline, candidate)
        aggregate = DumpAggregate(paths: [folder.path], options: options, threads: 2)
      }
      return try ComparisonReport(
        gate: evaluator, aggregate: aggregate, baseline: .dump(version: baseline), candidate: .dump(version: candidate),
        grouping: nil, wholeVersions: true, top: 10)
    }
  }

  static func launchP50(_ report: ComparisonReport) throws -> RuleResult {
    try #require(
      report.results.first {
        $0.rule.metric == .histogrammedTimeToFirstDraw && $0.rule.statistic == .percentile(Percentile(50)!)
      })
  }

  /// 400 payloads a version on four iPhone strata, the same code on both.
  static let iPhones: [Population] = ["1.0.0", "2.0.0"].flatMap { version in
    [
      ("iPhone14,2", "iPhone OS 17.5.1 (21F90)"), ("iPhone14,2", "iPhone OS 18.1 (22B83)"),
      ("iPhone12,1", "iPhone OS 17.5.1 (21F90)"), ("iPhone12,1", "iPhone OS 18.1 (22B83)"),
    ].map { Population(version: version, device: $0.0, os: $0.1, count: 100) }
  }

  @Test func strataPastTheLimitAreLeftOutNeverComparedAsOne() throws {
    // 1,000 slow iPad payloads of the candidate, each in a stratum of its own: they come byte-wise
    // first, so the candidate keeps them and folds its iPhone strata into (other).
    let iPads = (0..<1_000).map {
      Population(version: "2.0.0", device: "iPad13,1", os: "iPadOS 17.\($0) (21A1)", count: 1, slowness: 2)
    }
    let report = try Self.gate(Self.iPhones + iPads)
    let matching = try #require(report.matching)
    #expect(!matching.strata.contains { $0.values.contains(GroupingKey.other) })
    // The candidate knows its strata only up to its last iPad one: the iPhone strata past it are set
    // aside on both sides, and the iPads have no counterpart.
    #expect(matching.candidateLeftOut.beyondLimit == 400 && matching.baselineLeftOut.beyondLimit == 400)
    #expect(matching.candidateLeftOut.unmatched == 1_000)
    #expect(matching.matchedBaselinePayloads == 0 && matching.matchedCandidatePayloads == 0)
    let launch = try Self.launchP50(report)
    #expect(launch.verdict == .insufficientData)
    #expect(!report.gateFails && report.nothingEvaluated)
    let lines = ComparisonRenderer.matchingLines(report).joined(separator: "\n")
    #expect(lines.contains("Left out of the candidate: 100% of its payloads (1400 of 1400)"), "\(lines)")
    #expect(lines.contains("400 past the strata kept apart a version"), "\(lines)")

    // Without the iPads, the same iPhones are matched in full and unchanged.
    let plain = try Self.gate(Self.iPhones)
    #expect(plain.matching?.baselineCoverage == 1 && plain.matching?.candidateCoverage == 1)
    #expect(try Self.launchP50(plain).verdict == .unchanged)
  }

  @Test func theCutKeepsOnlyStrataBothVersionsHoldInFull() {
    func side(_ version: String, _ keys: [[String]]) -> [[String]: VersionAggregate] {
      Dictionary(
        uniqueKeysWithValues: keys.map { key in
          var a = VersionAggregate(version: version)
          a.payloadCount = 10
          return (key, a)
        })
    }
    let other = [GroupingKey.other, GroupingKey.other]
    // The baseline folded past ["b", "2"]; the candidate did not fold.
    let strata = ComparableStrata(
      baseline: side("1", [["a", "1"], ["b", "2"], other]),
      candidate: side("2", [["a", "1"], ["b", "3"], ["c", "1"]]))
    #expect(Set(strata.baseline.keys) == [["a", "1"], ["b", "2"]])
    #expect(Set(strata.candidate.keys) == [["a", "1"]])
    #expect(strata.baselineBeyondLimit.payloadCount == 10 && strata.candidateBeyondLimit.payloadCount == 20)
    // Nothing folded: nothing cut.
    let whole = ComparableStrata(baseline: side("1", [["z", "9"]]), candidate: side("2", [["a", "1"]]))
    #expect(whole.baseline.count == 1 && whole.candidate.count == 1 && whole.baselineBeyondLimit.payloadCount == 0)
  }

  @Test func sparseStrataSharingNothingAreNotCoveredAndSharingAFamilyArePooled() throws {
    // Two payloads on each of fifteen devices of as many families, no device and no OS in common:
    // every stratum too sparse at every resolution below the top, and nothing to compare.
    let apart =
      (10..<25).map { Population(version: "1.0.0", device: "iPhone\($0),1", os: "iPhone OS 16.\($0 % 8)", count: 2) }
      + (10..<25).map {
        Population(version: "2.0.0", device: "iPad\($0),1", os: "iPadOS 18.\($0 % 8)", count: 2, slowness: 2)
      }
    let report = try Self.gate(apart)
    let matching = try #require(report.matching)
    #expect(matching.baselineCoverage == 0 && matching.candidateCoverage == 0)
    #expect(try Self.launchP50(report).verdict == .insufficientData)
    #expect(!report.gateFails)
    // At 40 a stratum, the same populations: 0% too.
    let dense = try Self.gate(
      apart.map {
        var p = $0
        p.count = 40
        return p
      })
    #expect(dense.matching?.baselineCoverage == 0 && dense.matching?.candidateCoverage == 0)

    // Two payloads a version on each of ten devices of ten families, on neighbouring OS minors: no
    // stratum reaches 5 of a version below the top, and each shares its device and OS major with the
    // other version's: compared as one sample, and named so.
    let family = ["1.0.0", "2.0.0"].flatMap { version in
      (10..<20).map {
        Population(
          version: version, device: "iPhone\($0),1", os: "iPhone OS 17.\(version == "1.0.0" ? 4 : 5)", count: 2)
      }
    }
    let pooled = try Self.gate(family)
    let m = try #require(pooled.matching)
    #expect(m.isPooled && m.baselineCoverage == 1 && m.candidateCoverage == 1)
    let lines = ComparisonRenderer.matchingLines(pooled).joined(separator: "\n")
    #expect(lines.hasPrefix("Compared pooled: no stratum of the same devices and OS held 5 payloads"), "\(lines)")
  }

  @Test func mostOfTheCandidateLeftOutIsInconclusiveAndSaysHowItDiffers() throws {
    // 75% of the candidate on an iPad the baseline barely has, 5× slower; the matched 25% unchanged.
    let populations = [
      Population(version: "1.0.0", device: "iPhone14,2", os: "iPhone OS 17.5.1 (21F90)", count: 400),
      Population(version: "1.0.0", device: "iPad13,1", os: "iPadOS 17.5.1 (21F90)", count: 2, slowness: 5),
      Population(version: "2.0.0", device: "iPhone14,2", os: "iPhone OS 17.5.1 (21F90)", count: 100),
      Population(version: "2.0.0", device: "iPad13,1", os: "iPadOS 17.5.1 (21F90)", count: 300, slowness: 5),
    ]
    let report = try Self.gate(populations)
    let matching = try #require(report.matching)
    #expect(matching.candidateCoverage == 0.25 && matching.leftOutTooMuch)
    #expect(matching.candidateLeftOut.unmatched == 300)
    #expect(matching.candidateLeftOut.largest.first?.values == ["iPad13,1", "iPadOS 17.5"])
    let launch = try Self.launchP50(report)
    #expect(launch.verdict == .inconclusive)
    // How what was left out differs: its p50, against the matched candidate's, about 5×.
    let leftOut = try #require(launch.matching?.leftOutCandidate)
    let compared = try #require(launch.candidate)
    #expect(leftOut / compared > 3.5 && leftOut / compared < 7, "\(leftOut) vs \(compared)")
    let reason = VerdictReason.text(launch, alpha: report.alpha, decision: report.decision)
    #expect(reason.contains("matching left out 75% of the candidate's payloads, more than the 50%"), "\(reason)")
    let json = ComparisonRenderer.render(report, as: .json)
    #expect(json.contains("\"tooMuch\":true") || json.contains("\"tooMuch\": true"))
    #expect(ComparisonRenderer.render(report, as: .text).contains("not compared: 75% of the candidate's payloads"))
    #expect(!report.gateFails)

    // A rule file that fails on inconclusive verdicts fails this gate.
    var strict = RuleSet.builtIn
    strict.failsOnInconclusive = true
    #expect(try Self.gate(populations, ruleSet: strict).gateFails)

    // A team that accepts more left out says so (`--max-left-out 0.8`): the matched quarter decides.
    let lenient = try Self.gate(populations, maximumLeftOut: 0.8)
    #expect(lenient.matching?.leftOutTooMuch == false)
    #expect(try Self.launchP50(lenient).verdict == .unchanged)
  }

  @Test func payloadsOutsideTheWindowCountAgainstCoverage() throws {
    // The baseline on days 0–27, the candidate on days 20–27: the overlap window holds 8 of the
    // baseline's 28 days.
    let populations = [
      Population(version: "1.0.0", device: "iPhone14,2", os: "iPhone OS 17.5.1 (21F90)", count: 560),
      Population(version: "2.0.0", device: "iPhone14,2", os: "iPhone OS 17.5.1 (21F90)", count: 200, days: 20...27),
    ]
    let report = try Self.gate(populations, overlapWindow: true)
    let matching = try #require(report.matching)
    #expect(matching.candidateCoverage == 1)
    // Derived apart: the payloads of the baseline dated inside the window are those compared.
    let inside = matching.matchedBaselinePayloads
    #expect(matching.baselineLeftOut.outsideStrata == 560 - inside)
    #expect(matching.baselineCoverage == Double(inside) / 560)
    #expect(inside > 100 && inside < 220, "\(inside)")
    let launch = try Self.launchP50(report)
    #expect(launch.verdict == .inconclusive, "\(launch.verdict)")
    #expect(ComparisonRenderer.matchingLines(report).contains { $0.contains("outside the window") })
  }
}
