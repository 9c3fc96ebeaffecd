import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The catalog is the one place a metric is defined: every entry is well formed, and every entry
/// reaches summary, trend, compare, the report page and every export without any other edit.
@Suite("Metric catalog")
struct MetricCatalogTests {
  @Test func everyEntryIsWellFormedAndFoundByItsIdentifier() throws {
    let ids = MetricCatalog.fixed.map(\.id)
    #expect(Set(ids).count == ids.count)
    for metric in MetricCatalog.fixed {
      // The text form reads back to the same identity and the same entry.
      let parsed = try MetricID(metric.id.rawValue)
      #expect(parsed == metric.id && parsed.metric.kind == metric.kind && parsed.metric.unit == metric.unit)
      #expect(!metric.title.isEmpty)
      // The unit is a measurement's unit exactly when the metric is not a plain count: a counter, or a
      // stability rate (terminations per 1,000 hours, a share of device-days).
      let counts = metric.kind == .counter || (metric.counting != nil && metric.counting != .amount)
      #expect((metric.unit.dimension == nil) == counts, "\(metric.id)")
      switch (metric.kind, metric.reading) {
      case (.histogram, .histogram), (.scalar, .value), (.counter, .value), (.rate, .rate): break
      default: Issue.record("\(metric.id): its reading does not match its kind")
      }
    }
    #expect(MetricCatalog.histograms.allSatisfy { $0.kind == .histogram })
    #expect(MetricCatalog.scalars.allSatisfy { $0.kind.hasPayloadValues })
    #expect(MetricCatalog.rates.allSatisfy { $0.kind == .rate })
    // Signposts and diagnostics are described from their identifier.
    let signpost = MetricID.signpost(category: "Net", name: "fetch")
    #expect(try MetricID("signpost:Net/fetch") == signpost)
    #expect(signpost.kind == .histogram && signpost.metric.unit == .milliseconds)
    #expect(MetricID.diagnostics(.crash).kind == .diagnostic)
    #expect(throws: UnknownMetricError.self) { try MetricID("diagnostics.meltdown") }
    #expect(throws: UnknownMetricError.self) { try MetricID("memoryMetrics.peakMemory") }
  }

  @Test func statisticsParseAndApplyByKind() {
    for text in ["mean", "p50", "p99.9", "rate", "value", "newSignature"] {
      #expect(Statistic(parsing: text)?.description == text)
    }
    #expect(Statistic(parsing: "p0") == nil && Statistic(parsing: "median") == nil)
    #expect(Statistic.percentile(Percentile(90)!).isComparable(for: .histogram))
    #expect(!Statistic.percentile(Percentile(90)!).isComparable(for: .rate))
    #expect(Statistic.value.isComparable(for: .counter) && !Statistic.value.isComparable(for: .histogram))
    #expect(
      Statistic.newSignature.isComparable(for: .diagnostic) && !Statistic.newSignature.isPlottable(for: .diagnostic))
    #expect(Statistic.value.isPlottable(for: .rate) && !Statistic.mean.isPlottable(for: .rate))
  }

  /// A payload with every key of MetricKit's legacy JSON that a catalog entry reads; `i` varies the
  /// values so that every statistic has a spread. A metric added to the catalog must be added here
  /// too, or the test below names it.
  static func fullPayload(version: String, day: Int, i: Int) -> String {
    let k = i % 7 + 1
    func histogram(_ base: Int, _ unit: String = "ms") -> String {
      Support.histogramJSON(
        [(base, base + 10, 3 + k), (base + 100, base + 120, 2 * k), (base + 400, base + 500, 1)], unit: unit)
    }
    let exits = ExitCounts.knownKeys.map { "\"\($0)\": \(k)" }.joined(separator: ", ")
    let stamp = String(format: "2024-05-%02d", day)
    return """
      {"appVersion": "\(version)", "timeStampBegin": "\(stamp) 00:00:00 +0000", "timeStampEnd": "\(stamp) 23:59:00 +0000",
       "metaData": {"deviceType": "iPhone14,2", "osVersion": "iPhone OS 17.5 (21F79)", "appBuildVersion": "1"},
       "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": \(histogram(400)),
         "histogrammedResumeTime": \(histogram(100)), "histogrammedOptimizedTimeToFirstDrawKey": \(histogram(300)),
         "histogrammedExtendedLaunch": \(histogram(900))},
       "applicationResponsivenessMetrics": {"histogrammedAppHangTime": \(histogram(250))},
       "cellularConditionMetrics": {"cellConditionTime": \(
          Support.histogramJSON([(1, 1, k), (2, 2, 3), (3, 3, 8 - k)], unit: "bars"))},
       "memoryMetrics": {"peakMemoryUsage": "\(150_000 + 1_000 * k) kB",
         "averageSuspendedMemory": {"averageValue": "\(90_000 + 500 * k) kB", "standardDeviation": 1, "sampleCount": 20}},
       "diskIOMetrics": {"cumulativeLogicalWrites": "\(1_000 + 10 * k) kB"},
       "cpuMetrics": {"cumulativeCPUTime": "\(60 + k) sec", "cumulativeCPUInstructions": "\(100 + k) kiloinstructions"},
       "gpuMetrics": {"cumulativeGPUTime": "\(10 + k) sec"},
       "applicationTimeMetrics": {"cumulativeForegroundTime": "\(1_000 + 60 * k) sec",
         "cumulativeBackgroundTime": "\(40 + k) sec", "cumulativeBackgroundAudioTime": "\(30 + k) sec",
         "cumulativeBackgroundLocationTime": "\(20 + k) sec"},
       "animationMetrics": {"scrollHitchTimeRatio": "\(k) ms per s", "hitchTimeRatio": "\(2 * k) ms per s"},
       "displayMetrics": {"averagePixelLuminance": {"averageValue": "\(40 + k) apl", "standardDeviation": 1, "sampleCount": 9}},
       "applicationExitMetrics": {"foregroundExitData": {\(exits)}, "backgroundExitData": {\(exits)}},
       "networkTransferMetrics": {"cumulativeWifiUpload": "\(100 + k) kB", "cumulativeWifiDownload": "\(900 + k) kB",
         "cumulativeCellularUpload": "\(50 + k) kB", "cumulativeCellularDownload": "\(400 + k) kB"},
       "locationActivityMetrics": {"cumulativeBestAccuracyForNavigationTime": "\(k) sec",
         "cumulativeBestAccuracyTime": "\(2 * k) sec", "cumulativeNearestTenMetersAccuracyTime": "\(3 * k) sec",
         "cumulativeHundredMetersAccuracyTime": "\(4 * k) sec", "cumulativeKilometerAccuracyTime": "\(5 * k) sec",
         "cumulativeThreeKilometersAccuracyTime": "\(6 * k) sec"},
       "signpostMetrics": [{"signpostCategory": "Feed", "signpostName": "load", "totalSignpostCount": 4,
         "signpostIntervalData": {"histogrammedSignpostDurations": \(histogram(20))}}]}
      """
  }

  /// A MetricKit 27 report of the metrics only MetricKit 27 has (the Metal frame rate), on the same
  /// days as ``fullPayload(version:day:i:)``.
  static func reportOnlyMetrics(version: String, day: Int, i: Int) -> String {
    let k = i % 7 + 1
    let begin = String(format: "2024-05-%02dT00:00:00Z", day)
    return """
      {"timeRange": {"begin": "\(begin)"}, "environment": {"latestApplicationVersion": "\(version)"},
       "intervalEntries": [{"duration": {"value": 86400, "unit": "s"}, "values": [
         {"metalFrameRateMetric": {"framesPerSecond": {"value": \(50 + k), "unit": "Hz"}, "frameCount": \(600 * k),
          "activeDrawingDuration": {"value": \(10 + k), "unit": "s"}, "layerName": "Board"}}]}]}
      """
  }

  /// Two versions of 24 legacy payloads and 24 reports each, over 6 days, aggregated per day.
  static func fullAggregate(options: AggregationOptions = AggregationOptions()) throws -> DumpAggregate {
    return try withTemporaryDirectory { dir in
      var lines: [String] = []
      for version in ["1.0", "1.1"] {
        for i in 0..<24 {
          let day = 1 + i % 6
          let k = i + (version == "1.1" ? 3 : 0)
          lines.append(fullPayload(version: version, day: day, i: k).replacingOccurrences(of: "\n", with: " "))
          lines.append(reportOnlyMetrics(version: version, day: day, i: k).replacingOccurrences(of: "\n", with: " "))
        }
      }
      let file = dir.appendingPathComponent("full.ndjson")
      try Data(lines.joined(separator: "\n").utf8).write(to: file)
      var options = options
      options.interval = .day
      let aggregate = DumpAggregate(paths: [file.path], options: options)
      try #require(aggregate.inputs.rejected.isEmpty, "\(aggregate.inputs.rejected)")
      return aggregate
    }
  }

  @Test func everyEntryReachesSummaryTrendCompareReportAndExport() throws {
    let fixed = MetricCatalog.fixed.map(\.id)
    let rules = try RuleSet(rules: fixed.map { try RegressionRule(metric: $0) })
    let evaluator = RegressionEvaluator(ruleSet: rules)
    let aggregate = try Self.fullAggregate(options: evaluator.aggregationOptions)

    // summary: every metric of both versions.
    let summary = SummaryReport(aggregate: aggregate, options: SummaryOptions(), threads: 1)
    for version in summary.versions {
      let reported = Set(version.metrics.map(\.metric))
      for id in fixed {
        #expect(reported.contains(id), "summary \(version.version): no \(id) (add its key to fullPayload?)")
      }
    }

    // trend: a series per metric and version.
    let trend = TrendReport(aggregate: aggregate, subjects: fixed.map { .metric($0) }, interval: .day)
    for id in fixed {
      #expect(trend.series.filter { $0.subject == .metric(id) }.count == 2, "trend: no series of \(id)")
    }

    // compare: every rule compared, on both sides.
    let results = evaluator.evaluate(baseline: aggregate.versions["1.0"]!, candidate: aggregate.versions["1.1"]!)
    #expect(results.map(\.rule.metric) == fixed)
    for r in results {
      #expect(r.baseline != nil && r.candidate != nil && r.verdict != .insufficientData, "compare: \(r.rule.metric)")
    }

    // report: a chart per metric with its points and headline, on the page.
    var options = ReportOptions()
    options.interval = .day
    options.charts = fixed.map { ReportChartSpec(metric: $0) }
    let page = ReportPage(aggregate: aggregate, options: options)
    let html = HTMLReportRenderer.render(page)
    for chart in page.charts {
      #expect(!chart.series.isEmpty && chart.headline.count == 2, "report: \(chart.spec.metric)")
      #expect(html.contains("data-chart=\"\(chart.spec.metric)\""), "report: \(chart.spec.metric) not drawn")
    }

    // export: every metric in every format, under its export name.
    let export = MetricExport(aggregate: aggregate, interval: nil)
    #expect(export.metrics.filter { !$0.isSignpost } == fixed)
    let openMetrics = OpenMetricsWriter.write(export)
    let datadog = DatadogWriter.write(export)
    let otlp = OTLPJSONWriter.write(export)
    for id in fixed {
      let exported = try #require(ExportedMetric.of(id))
      #expect(openMetrics.contains("# TYPE \(exported.prometheusName) "), "OpenMetrics: no \(id)")
      #expect(datadog.contains("\"\(exported.dottedName)"), "Datadog: no \(id)")
      #expect(otlp.contains("\"\(exported.dottedName)\""), "OTLP: no \(id)")
    }
  }

  @Test func pooledStatisticsAreTheEvaluatorsAndTheTrendsNumbers() throws {
    let aggregate = try Self.fullAggregate()
    let version = try #require(aggregate.versions["1.1"])
    let p90 = Statistic.percentile(Percentile(90)!)
    let requests = PooledStatistics.requests([
      (MetricID.histogrammedTimeToFirstDraw, p90), (.histogrammedTimeToFirstDraw, .mean), (.peakMemoryUsage, p90),
      (.hangRate, .rate), (.foregroundAbnormalExitCount, .mean),
    ])
    let pooled = PooledStatistics(version, requests: requests)
    // Against each number computed on its own.
    let launch = try #require(version.histogram(.histogrammedTimeToFirstDraw))
    let estimate = try launch.percentiles([Percentile(90)!])[0]
    #expect(
      pooled[.histogrammedTimeToFirstDraw, p90]
        == .init(value: estimate.value, bounds: estimate.lowerBound...estimate.upperBound))
    #expect(pooled[.histogrammedTimeToFirstDraw, .mean]?.value == (try launch.mean(estimator: .midpoint)))
    #expect(
      pooled[.peakMemoryUsage, p90]?.value == (try version.scalar(.peakMemoryUsage)!.percentiles([Percentile(90)!])[0]))
    #expect(pooled[.hangRate, .rate]?.value == version.hangRate.pooledRate)
    // Exits per payload: k = i % 7 + 1 for i = 3…26.
    let exits = (3..<27).map { Double($0 % 7 + 1) }
    #expect(abs((pooled[.foregroundAbnormalExitCount, .mean]?.value ?? 0) - exits.reduce(0, +) / 24) < 1e-12)
    // Not asked: absent.
    #expect(pooled[.peakMemoryUsage, .mean] == nil)
  }
}
