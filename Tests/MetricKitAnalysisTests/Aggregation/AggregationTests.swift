import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Filtering, the collection recipe, aggregation and the summary against ground truth.
@Suite("Aggregation and summary")
struct AggregationTests {
  private func payload(
    _ version: String, multiple: Bool = false, launch: [(Int, Int, Int)], hang: [(Int, Int, Int)]? = nil,
    foreground: String? = nil, build: String = "1", device: String = "iPhone14,2",
    end: String = "2024-05-01 23:59:00 +0000"
  ) throws -> MetricPayload {
    var sections = [
      #""applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": \#(Support.histogramJSON(launch))}"#,
      #""metaData": {"appBuildVersion": "\#(build)", "deviceType": "\#(device)", "osVersion": "iPhone OS 17.5 (21F79)"}"#,
      #""timeStampEnd": "\#(end)""#,
    ]
    if multiple { sections.append(#""multipleAppVersions": "1""#) }
    if let hang {
      sections.append(
        #""applicationResponsivenessMetrics": {"histogrammedAppHangTime": \#(Support.histogramJSON(hang))}"#)
    }
    if let foreground { sections.append(#""applicationTimeMetrics": {"cumulativeForegroundTime": "\#(foreground)"}"#) }
    return try Support.metricPayload("{\"appVersion\": \"\(version)\", " + sections.joined(separator: ", ") + "}")
  }

  @Test func theFamiliarRecipeSkipsMultiVersionPayloads() throws {
    let payloads = [
      try payload("3.9.0", launch: [(100, 200, 1), (200, 300, 3)]),
      try payload("3.9.0", launch: [(100, 200, 4)]),
      try payload("3.9.0", multiple: true, launch: [(5000, 6000, 100)]),
      try payload("3.8.0", launch: [(900, 1000, 9)]),
    ]
    // Blog recipe: Σ count × bucketEnd ÷ Σ count = (200 + 900 + 800) / 8.
    let recipe = payloads.average(for: \.applicationLaunchMetrics, applicationVersion: "3.9.0", estimator: .bucketEnd)
    let expectedRecipe: Double = 1900.0 / 8.0
    #expect(recipe?.value == expectedRecipe)
    #expect(recipe?.unit == UnitDuration.milliseconds)
    // By hand under uniform buckets (the reports' default, monotone, is tested in InterpolationTests).
    let midpoint = try #require(
      payloads.average(for: \.applicationLaunchMetrics, applicationVersion: "3.9.0", interpolation: .uniform))
    let expectedMidpoint: Double = (150.0 + 750.0 + 600.0) / 8.0
    #expect(midpoint.value == expectedMidpoint)
    #expect(midpoint.unit == .milliseconds)
    #expect(payloads.average(for: \.applicationResponsivenessMetrics, applicationVersion: "3.9.0") == nil)
    let p = payloads.percentiles(
      for: \.applicationLaunchMetrics, applicationVersion: "3.9.0", [Percentile(50)!], interpolation: .uniform)
    // Merged: 5 in [100, 200), 3 in [200, 300); the 4th of 8 is 4/5 into the first bucket.
    #expect(p.first?.value == Measurement(value: 180, unit: UnitDuration.milliseconds))
    #expect(p.first?.lowerBound.value == 100 && p.first?.upperBound.value == 200)
    // 1 in [100, 200), 3 in [200, 300): the 2nd of 4 is 1/3 into the second bucket.
    let firstMedian: Double = 200.0 + 100.0 / 3.0
    #expect(abs((payloads[0].applicationLaunchMetrics?.percentile(50)?.value ?? 0) - firstMedian) < 1e-9)
    let measured = try #require(payloads[0].applicationLaunchMetrics?.measuredPercentile(50))
    #expect(measured.lowerBound.value == 200 && measured.upperBound.value == 300)
    #expect(payloads[1].applicationLaunchMetrics?.histogrammedTimeToFirstDraw?.average?.value == 150)
    #expect(payloads.groupedByApplicationVersion().mapValues(\.count) == ["3.9.0": 2, "3.8.0": 1])
    #expect(payloads.groupedByApplicationVersion(includingMultipleVersions: true)["3.9.0"]?.count == 3)
  }

  @Test func filtersCountEveryExclusionByReason() throws {
    var filter = PayloadFilter()
    filter.applicationVersions = ["3.9.0"]
    filter.deviceTypes = ["iPhone14,2"]
    filter.osVersionPrefixes = ["iPhone OS 17"]
    filter.since = try TimestampParser().parse("2024-05-01 00:00:00 +0000").date
    let cases: [(MetricPayload, ExclusionReason?)] = [
      (try payload("3.9.0", launch: [(1, 2, 1)]), nil),
      (try payload("3.9.0", multiple: true, launch: [(1, 2, 1)]), .multipleAppVersions),
      (try payload("3.8.0", launch: [(1, 2, 1)]), .version),
      (try payload("3.9.0", launch: [(1, 2, 1)], device: "iPad8,1"), .filter),
      (try payload("3.9.0", launch: [(1, 2, 1)], end: "2024-04-30 23:59:00 +0000"), .filter),
    ]
    for (p, reason) in cases { #expect(filter.exclusion(of: p) == reason) }
    filter.includeMultipleVersions = true
    #expect(filter.exclusion(of: cases[1].0) == nil)
    filter.buildVersions = ["2"]
    #expect(filter.exclusion(of: cases[0].0) == .filter)
  }

  @Test func hangRateIsPooledSecondsPerForegroundHour() throws {
    var aggregate = VersionAggregate(version: "1")
    // 10 hangs at the midpoint of [0, 100) = 500 ms; 1800 s foreground.
    aggregate.add(
      try payload("1", launch: [(1, 2, 1)], hang: [(0, 100, 10)], foreground: "30 min"), options: AggregationOptions())
    // No hang section: zero hang time, 1800 s foreground.
    aggregate.add(
      try payload("1", launch: [(1, 2, 1)], foreground: "1,800 sec"), options: AggregationOptions()
    )
    #expect(aggregate.hangRate.pooledRate == 0.5 / 1.0)
    // No foreground time at all: no rate rather than NaN.
    var empty = VersionAggregate(version: "2")
    empty.add(
      try payload("2", launch: [(1, 2, 1)], hang: [(0, 100, 10)]), options: AggregationOptions())
    #expect(empty.hangRate.pooledRate == nil)
  }

  @Test func perPayloadPoolingAveragesPayloadMeans() throws {
    var aggregate = DumpAggregate()
    for p in [try payload("1", launch: [(0, 100, 1)]), try payload("1", launch: [(100, 200, 9)])] {
      aggregate.add(
        .payload(p, PayloadLocation(path: "x")), filter: PayloadFilter(),
        options: AggregationOptions(payloadStatistics: MetricSelection()))
    }
    var options = SummaryOptions()
    options.pooling = .perPayload
    guard case .histogram(let h) = SummaryReport(aggregate: aggregate, options: options).versions[0].metrics[0] else {
      Issue.record("no histogram")
      return
    }
    #expect(h.mean == 100)  // (50 + 150) / 2, where pooled would give 140
    #expect(h.count == 10)
  }

  /// Per-payload statistics: means only when asked for (the built-in rules test percentiles), the
  /// percentiles the same either way.
  @Test func perPayloadMeansAreRecordedOnlyWhenARuleReadsThem() throws {
    let payloads = [
      try payload("3.9.0", launch: [(100, 200, 1), (200, 300, 3)]),
      try payload("3.9.0", launch: [(100, 200, 4)]),
      try payload("3.9.0", launch: [(100, 200, 0)]),  // no observations: records nothing
    ]
    let ttfd = MetricID.histogrammedTimeToFirstDraw
    let p50 = Statistic.percentile(Percentile(50)!)
    var options = AggregationOptions(
      payloadStatistics: MetricSelection(metrics: [ttfd]), payloadPercentiles: [Percentile(50)!])
    var withMeans = VersionAggregate(version: "3.9.0")
    for p in payloads { withMeans.add(p, options: options) }
    options.payloadMeans = false
    var withoutMeans = VersionAggregate(version: "3.9.0")
    for p in payloads { withoutMeans.add(p, options: options) }
    // Means by hand (midpoints): (150 + 3 × 250) ÷ 4 and 150; medians: the 2nd of 4 is 1/3 into
    // [200, 300), the 2nd of 4 is half-way through [100, 200).
    let means = try #require(withMeans.payloadStatistics[ttfd]?[.mean]?.exactValues)
    #expect(means == [225, 150])
    let medians = try #require(withMeans.payloadStatistics[ttfd]?[p50]?.exactValues)
    #expect(medians.count == 2 && abs(medians[0] - (200 + 100.0 / 3)) < 1e-9 && medians[1] == 150)
    #expect(withoutMeans.payloadStatistics[ttfd]?[.mean] == nil)
    #expect(withoutMeans.payloadStatistics[ttfd]?[p50]?.exactValues == medians)

    // The built-in rules test percentiles of histograms (and a mean of a scalar): no means recorded.
    #expect(!RegressionEvaluator().payloadMeans)
    #expect(!RegressionEvaluator().aggregationOptions.payloadMeans)
    let meanRule = try RegressionRule(metric: ttfd, statistic: .mean, maxIncrease: 0.05)
    #expect(RegressionEvaluator(ruleSet: try RuleSet(rules: [meanRule])).aggregationOptions.payloadMeans)
  }

  /// A dump the code has never seen: every count exact, every percentile bracketed around the truth,
  /// every mean within half the widest bucket, multi-version payloads excluded and counted, every
  /// malformed file rejected with nothing else lost.
  @Test func summaryOfAFreshDumpAgainstGroundTruth() throws {
    try withTemporaryDirectory { dir in
      let dump = try SampleDump.write(to: dir, seed: 987_654, payloadsPerVersion: 45)
      let aggregate = DumpAggregate(paths: [dir.path])
      let report = SummaryReport(aggregate: aggregate)

      let good = dump.payloads
      #expect(report.inputs.payloads == good.count)
      #expect(report.inputs.excluded[.multipleAppVersions] == good.filter(\.multipleVersions).count)
      #expect(report.inputs.counted == good.filter { !$0.multipleVersions }.count)
      let rejectedNames: Set<String> = Set(
        report.inputs.rejected.map { URL(fileURLWithPath: $0.location.path).lastPathComponent })
      let malformedNames: Set<String> = Set(dump.malformedFiles.map { URL(fileURLWithPath: $0.path).lastPathComponent })
      #expect(rejectedNames == malformedNames)
      #expect(report.inputs.files == dump.files.count)

      for version in report.versions {
        let truth = good.filter { $0.version == version.version && !$0.multipleVersions }
        #expect(version.payloads == truth.count)
        let checks: [(MetricID, [Double], (SyntheticPayload) -> BucketLayout)] = [
          (.histogrammedTimeToFirstDraw, truth.flatMap(\.launchSamples), \.launchLayout),
          (.histogrammedApplicationHangTime, truth.flatMap(\.hangSamples), \.hangLayout),
        ]
        for (id, samples, layoutOf) in checks {
          let metric = version.metrics.first { $0.metric == id }
          guard case .histogram(let h) = metric else {
            Issue.record("\(version.version): no \(id)")
            continue
          }
          #expect(h.count == Int128(samples.count))
          var widest = 0.0
          for p in truth {
            let edges = layoutOf(p).edges
            for i in 1..<edges.count { widest = max(widest, edges[i] - edges[i - 1]) }
          }
          #expect(abs(h.mean - samples.reduce(0, +) / Double(samples.count)) <= widest / 2)
          let sorted = samples.sorted()
          for estimate in h.percentiles {
            let exact = sorted[Int(estimate.percentile.rank(among: Int128(sorted.count))) - 1]
            #expect(estimate.lowerBound <= exact && exact <= estimate.upperBound, "\(id) \(estimate.percentile)")
            // Within the width of a bucket that holds the true quantile, whatever layout a payload used.
            var containing = 0.0
            for p in truth {
              let layout = layoutOf(p)
              let i = layout.index(of: exact)
              containing = max(containing, layout.edges[i + 1] - layout.edges[i])
            }
            #expect(abs(estimate.value - exact) <= containing, "\(id) \(estimate.percentile)")
          }
        }
        // Scalars: type-7 across payloads.
        let peak = truth.map(\.peakMemoryMB).sorted()
        guard case .scalar(let s) = version.metrics.first(where: { $0.metric == .peakMemoryUsage }) else {
          Issue.record("no peak memory")
          continue
        }
        #expect(s.count == peak.count)
        let h = 0.9 * Double(peak.count - 1)
        let lower: Double = peak[Int(h)]
        let upper: Double = peak[min(Int(h) + 1, peak.count - 1)]
        let type7 = lower + (h - h.rounded(.down)) * (upper - lower)
        #expect(abs(s.percentiles[1].1 - type7) < 1e-9)
      }
    }
  }
}
